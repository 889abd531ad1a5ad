"""The optimizer's update as a trace records it (issue 33 item 4): each parameter's
``update`` event holds the optimizer's own numbers, which equal the parameter the
kernel holds after the step and PyTorch's optimizer on the same numbers."""
from __future__ import annotations

import numpy
import pytest
import torch
from trace_checks import validate

import ag_jupyter as ag
from ag_jupyter.autograd import state


def _values(summary) -> numpy.ndarray:
    return numpy.array(summary["values"], dtype=numpy.float64).reshape(summary["shape"])


def _train(make_optimizer, steps: int = 2, set_to_none: bool = True):
    """Two steps of a small linear fit, traced; returns the document, the parameters and
    the parameter values after each step."""
    w = ag.nn.Parameter(ag.tensor([[0.5, -1.0], [2.0, 0.25]]))
    b = ag.nn.Parameter(ag.tensor([0.1, -0.3]))
    x, target = ag.tensor([[1.0, 2.0], [-1.0, 0.5]]), ag.tensor([[1.0, 0.0], [0.0, 1.0]])
    opt = make_optimizer([w, b])
    after = []
    with ag.trace() as tr:
        for _ in range(steps):
            ((x @ w + b - target) ** 2).mean().backward()
            opt.step()
            after.append((w.detach().numpy().copy(), b.detach().numpy().copy()))
            opt.zero_grad(set_to_none=set_to_none)
    doc = tr.to_dict()
    validate(doc)
    ids = (tr.node_id(w), tr.node_id(b))
    return doc, ids, after, opt, (w, b)


def _updates(doc, node_id):
    return [e for e in doc["events"] if e["type"] == "update" and e["node"] == node_id]


def _torch_run(make_optimizer, steps: int = 2):
    w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    b = torch.tensor([0.1, -0.3], requires_grad=True)
    x, target = torch.tensor([[1.0, 2.0], [-1.0, 0.5]]), torch.tensor([[1.0, 0.0], [0.0, 1.0]])
    opt = make_optimizer([w, b])
    after = []
    for _ in range(steps):
        ((x @ w + b - target) ** 2).mean().backward()
        opt.step()
        states = [{k: v.clone() for k, v in opt.state[p].items()} for p in (w, b)]  # the step after changes them
        after.append((w.detach().numpy().copy(), b.detach().numpy().copy(), states))
        opt.zero_grad()
    return after


def test_sgd_momentum_updates_are_the_kernels_parameters_and_torchs():
    doc, ids, after, opt, params = _train(lambda p: ag.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=0.01))
    ours_torch = _torch_run(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=0.01))
    for k, node_id in enumerate(ids):
        events = _updates(doc, node_id)
        assert len(events) == 2
        for step, event in enumerate(events):
            values, settings = event["values"], event["settings"]
            assert event["optimizer"] == "SGD"
            assert settings["lr"] == 0.1 and settings["momentum"] == 0.9 and settings["weight_decay"] == 0.01
            new = _values(values["new"])
            numpy.testing.assert_array_equal(new, after[step][k])  # the kernel's parameter, bit for bit
            numpy.testing.assert_allclose(new, ours_torch[step][k], rtol=1e-6, atol=1e-7)
            numpy.testing.assert_allclose(_values(values["momentum_buffer"]),
                                          ours_torch[step][2][k]["momentum_buffer"].numpy(), rtol=1e-6, atol=1e-7)
            # the rule written out: new = old - lr * direction, direction the momentum buffer
            numpy.testing.assert_allclose(_values(values["old"]) - 0.1 * _values(values["direction"]), new,
                                          rtol=1e-6, atol=1e-7)
            numpy.testing.assert_array_equal(_values(values["direction"]), _values(values["momentum_buffer"]))
        # the second step's old value is the first step's new one
        numpy.testing.assert_array_equal(_values(events[1]["values"]["old"]), _values(events[0]["values"]["new"]))
    numpy.testing.assert_array_equal(_values(_updates(doc, ids[0])[1]["values"]["momentum_buffer"]),
                                     opt.state[params[0]]["momentum_buffer"].numpy())


def test_adam_update_holds_its_moments_and_bias_corrections():
    doc, ids, after, opt, params = _train(lambda p: ag.optim.Adam(p, lr=0.05, betas=(0.8, 0.99)))
    ours_torch = _torch_run(lambda p: torch.optim.Adam(p, lr=0.05, betas=(0.8, 0.99)))
    for k, node_id in enumerate(ids):
        for step, event in enumerate(_updates(doc, node_id)):
            values, settings = event["values"], event["settings"]
            torch_state = ours_torch[step][2][k]
            assert settings["step"] == step + 1 == float(torch_state["step"])
            assert settings["bias_correction1"] == pytest.approx(1 - 0.8 ** (step + 1))
            assert settings["bias_correction2"] == pytest.approx(1 - 0.99 ** (step + 1))
            assert settings["betas"] == [0.8, 0.99] and settings["eps"] == 1e-8
            numpy.testing.assert_allclose(_values(values["exp_avg"]), torch_state["exp_avg"].numpy(), rtol=1e-6)
            numpy.testing.assert_allclose(_values(values["exp_avg_sq"]), torch_state["exp_avg_sq"].numpy(), rtol=1e-6)
            new = _values(values["new"])
            numpy.testing.assert_array_equal(new, after[step][k])
            numpy.testing.assert_allclose(new, ours_torch[step][k], rtol=1e-6, atol=1e-7)
            m_hat = _values(values["exp_avg"]) / settings["bias_correction1"]
            v_hat = _values(values["exp_avg_sq"]) / settings["bias_correction2"]
            numpy.testing.assert_allclose(_values(values["direction"]), m_hat / (numpy.sqrt(v_hat) + 1e-8), rtol=1e-5)
            numpy.testing.assert_allclose(_values(values["old"]) - 0.05 * _values(values["direction"]), new,
                                          rtol=1e-6, atol=1e-7)


def test_adamw_decays_the_old_value_before_the_step():
    doc, ids, after, _, _ = _train(lambda p: ag.optim.AdamW(p, lr=0.1, weight_decay=0.5), steps=1)
    event = _updates(doc, ids[0])[0]
    assert event["optimizer"] == "AdamW" and event["settings"]["decoupled_weight_decay"] is True
    values = event["values"]
    numpy.testing.assert_allclose(_values(values["old"]) * (1 - 0.1 * 0.5) - 0.1 * _values(values["direction"]),
                                  _values(values["new"]), rtol=1e-6, atol=1e-7)
    numpy.testing.assert_array_equal(_values(values["new"]), after[0][0])


def test_updates_come_after_backward_and_zero_grad_clears_the_grads():
    doc, ids, _, _, _ = _train(lambda p: ag.optim.SGD(p, lr=0.1), set_to_none=False)
    kinds = [e["type"] for e in doc["events"] if e["pass"] == 0]
    end = kinds.index("backward_end")
    assert kinds[end + 1:] == ["update", "update", "grads_cleared"]
    cleared = [e for e in doc["events"] if e["type"] == "grads_cleared"]
    assert [e["nodes"] for e in cleared] == [list(ids), list(ids)]
    assert cleared[0]["set_to_none"] is False
    assert "momentum_buffer" not in _updates(doc, ids[0])[0]["values"]  # plain SGD keeps no state
    assert len(doc["passes"]) == 2 and doc["passes"][1]["first_event"] == end + 4


def test_a_nested_trace_passes_the_update_on_and_no_trace_records_nothing():
    w = ag.nn.Parameter(ag.tensor([1.0]))
    opt = ag.optim.SGD([w], lr=0.5, momentum=0.5)
    with ag.trace() as outer:
        with ag.trace() as inner:
            (w * 3).sum().backward()
            opt.step()
    for tr in (outer, inner):
        event = [e for e in tr.to_dict()["events"] if e["type"] == "update"]
        assert [e["values"]["new"]["values"] for e in event] == [[-0.5]]
    (w * 3).sum().backward()
    assert state.listener is None
    opt.step()
    opt.zero_grad()
    assert w.tolist() == [-0.5 - 0.5 * (0.5 * 3 + 6)] and w.grad is None  # buffer 0.5 * 3 + accumulated 6


@pytest.mark.gpu
@pytest.mark.skipif(not ag.cuda.is_available(), reason="needs an NVIDIA GPU with CuPy")
@pytest.mark.parametrize("make", [lambda p: ag.optim.SGD(p, lr=0.1, momentum=0.9), lambda p: ag.optim.Adam(p, lr=0.1)])
def test_updates_on_the_gpu_are_the_cpus_numbers(make):
    def run(device):
        w = ag.nn.Parameter(ag.tensor([[0.5, -1.0], [2.0, 0.25]], device=device))
        b = ag.nn.Parameter(ag.tensor(0.3, device=device))  # 0-d: its gradient is a scalar
        opt = make([w, b])
        with ag.trace() as tr:
            for _ in range(2):
                ((w * w).sum() * b + b).backward()
                opt.step()
                opt.zero_grad()
        return [e for e in tr.to_dict()["events"] if e["type"] == "update"], w.detach().cpu().numpy()

    on_gpu, w_gpu = run("cuda")
    on_cpu, _ = run("cpu")
    assert len(on_gpu) == len(on_cpu) == 4
    for gpu, cpu in zip(on_gpu, on_cpu):
        assert gpu["values"].keys() == cpu["values"].keys()
        for key in cpu["values"]:
            numpy.testing.assert_allclose(_values(gpu["values"][key]), _values(cpu["values"][key]), rtol=1e-5)
    numpy.testing.assert_array_equal(_values(on_gpu[2]["values"]["new"]), w_gpu)
