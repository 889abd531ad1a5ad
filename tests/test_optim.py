"""SGD and Adam against PyTorch (25 steps, float64, 1e-9 relative), state dicts, groups, errors."""
import numpy
import pytest

import ag_jupyter as ag
import ag_jupyter.nn.functional as F
from ag_jupyter import nn

try:
    import torch
except ImportError:  # the parity tests skip; the rest run without PyTorch
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="the parity tests need torch")

STEPS = 25


def models():
    ag.manual_seed(0)
    ours = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 3)).double()
    if torch is None:
        return ours, None
    theirs = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.Tanh(), torch.nn.Linear(6, 3)).double()
    theirs.load_state_dict({k: torch.from_numpy(v.numpy().copy()) for k, v in ours.state_dict().items()})
    return ours, theirs


def batches():
    rng = numpy.random.default_rng(1)
    return [(rng.normal(size=(8, 4)), rng.normal(size=(8, 3))) for _ in range(STEPS)]


def train(model, optimizer, data, lib):
    for x, y in data:
        optimizer.zero_grad()
        if lib is ag:
            loss = F.mse_loss(model(ag.tensor(x, dtype=ag.float64)), ag.tensor(y, dtype=ag.float64))
        else:
            loss = torch.nn.functional.mse_loss(model(torch.tensor(x)), torch.tensor(y))
        loss.backward()
        optimizer.step()


def assert_same_weights(ours, theirs, rtol=1e-9):
    for (name, p), (_, tp) in zip(ours.named_parameters(), theirs.named_parameters()):
        numpy.testing.assert_allclose(p.detach().numpy(), tp.detach().numpy(), rtol=rtol, atol=1e-14,
                                      err_msg=name)


SGD_CASES = [
    dict(lr=0.1),
    dict(lr=0.05, momentum=0.9),
    dict(lr=0.05, momentum=0.9, nesterov=True),
    dict(lr=0.05, momentum=0.8, dampening=0.3),
    dict(lr=0.05, momentum=0.9, weight_decay=0.01),
    dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.05),
    dict(lr=0.05, weight_decay=0.1, maximize=True),
]
ADAM_CASES = [
    dict(lr=0.01),
    dict(lr=0.02, betas=(0.8, 0.99), eps=1e-6),
    dict(lr=0.01, weight_decay=0.05),
    dict(lr=0.01, amsgrad=True),
    dict(lr=0.01, amsgrad=True, weight_decay=0.1),
    dict(lr=0.01, betas=(0.3, 0.9)),  # beta1 < 0.5: lerp's other formula
    dict(lr=0.01, maximize=True),
]


@needs_torch
@pytest.mark.parametrize("kwargs", SGD_CASES)
def test_sgd_matches_torch_after_25_steps(kwargs):
    ours, theirs = models()
    data = batches()
    train(ours, ag.optim.SGD(ours.parameters(), **kwargs), data, ag)
    train(theirs, torch.optim.SGD(theirs.parameters(), **kwargs), data, torch)
    assert_same_weights(ours, theirs)


@needs_torch
@pytest.mark.parametrize("kwargs", ADAM_CASES)
def test_adam_matches_torch_after_25_steps(kwargs):
    ours, theirs = models()
    data = batches()
    train(ours, ag.optim.Adam(ours.parameters(), **kwargs), data, ag)
    train(theirs, torch.optim.Adam(theirs.parameters(), **kwargs), data, torch)
    assert_same_weights(ours, theirs)


@needs_torch
def test_param_groups_and_skipped_parameters_match_torch():
    ours, theirs = models()
    ours[0].bias.requires_grad_(False)  # never gets a gradient: skipped, and no state
    theirs[0].bias.requires_grad_(False)
    data = batches()
    opt = ag.optim.SGD([{"params": ours[0].parameters()},
                        {"params": ours[2].parameters(), "lr": 0.01, "momentum": 0.5}], lr=0.1, momentum=0.9)
    topt = torch.optim.SGD([{"params": theirs[0].parameters()},
                            {"params": theirs[2].parameters(), "lr": 0.01, "momentum": 0.5}], lr=0.1, momentum=0.9)
    train(ours, opt, data, ag)
    train(theirs, topt, data, torch)
    assert_same_weights(ours, theirs)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.01]
    ours_state, theirs_state = opt.state_dict(), topt.state_dict()
    assert sorted(ours_state["state"]) == sorted(theirs_state["state"]) == [0, 2, 3]
    assert [g["params"] for g in ours_state["param_groups"]] == [g["params"] for g in theirs_state["param_groups"]]


@pytest.mark.parametrize("make", [lambda p: ag.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True),
                                  lambda p: ag.optim.Adam(p, lr=0.01, amsgrad=True)])
def test_state_dict_round_trip_through_save_continues_the_same_run(make, tmp_path):
    straight, _ = models()
    data = batches()
    opt = make(straight.parameters())
    train(straight, opt, data, ag)

    first, _ = models()
    opt_first = make(first.parameters())
    train(first, opt_first, data[:12], ag)
    ag.save({"model": first.state_dict(), "optimizer": opt_first.state_dict()}, tmp_path / "checkpoint.npz")

    resumed, _ = models()  # fresh weights and a fresh optimizer, then the checkpoint
    opt_resumed = make(resumed.parameters())
    checkpoint = ag.load(tmp_path / "checkpoint.npz")
    resumed.load_state_dict(checkpoint["model"])
    opt_resumed.load_state_dict(checkpoint["optimizer"])
    train(resumed, opt_resumed, data[12:], ag)
    for p, q in zip(straight.parameters(), resumed.parameters()):
        assert numpy.array_equal(p.detach().numpy(), q.detach().numpy())


@needs_torch
def test_state_dict_layout_matches_torch():
    ours, theirs = models()
    data = batches()[:2]
    opt, topt = ag.optim.Adam(ours.parameters(), amsgrad=True), torch.optim.Adam(theirs.parameters(), amsgrad=True)
    train(ours, opt, data, ag)
    train(theirs, topt, data, torch)
    ours_state, theirs_state = opt.state_dict(), topt.state_dict()
    assert ours_state["state"].keys() == theirs_state["state"].keys()
    for index, entry in ours_state["state"].items():
        assert set(entry) == set(theirs_state["state"][index])
        assert entry["step"].item() == theirs_state["state"][index]["step"].item() == 2
        assert entry["step"].dtype == ag.float32
    group = ours_state["param_groups"][0]
    for key in ("lr", "betas", "eps", "weight_decay", "amsgrad", "maximize", "params"):
        assert group[key] == theirs_state["param_groups"][0][key]


@needs_torch
@pytest.mark.parametrize("name, kwargs", [("SGD", dict(lr=0.05, momentum=0.9)), ("Adam", dict(lr=0.01, amsgrad=True))])
def test_an_optimizer_loaded_from_anothers_state_dict_shares_its_state_as_in_pytorch(name, kwargs):
    """PyTorch's load_state_dict keeps a state tensor that needs no cast (``.to()`` gives it
    back), so the two optimizers share it: stepping the first moves the second's. A twelfth-
    round fuzz found ag_jupyter's copy giving the second model other weights than PyTorch's."""
    weights = []
    for lib in (ag, torch):
        first, theirs = models()
        if lib is torch:
            first = theirs
        opt = getattr(lib.optim, name)(first.parameters(), **kwargs)
        train(first, opt, batches()[:3], lib)
        second = models()[0 if lib is ag else 1]
        second.load_state_dict(first.state_dict())
        opt_second = getattr(lib.optim, name)(second.parameters(), **kwargs)
        opt_second.load_state_dict(opt.state_dict())
        train(first, opt, batches()[3:6], lib)  # moves the shared state on
        train(second, opt_second, batches()[3:6], lib)
        weights.append([p.detach().numpy() for p in second.parameters()])
    for ours, theirs in zip(*weights):
        numpy.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-14)


def test_load_state_dict_refuses_mismatches_without_changing_anything():
    ours, _ = models()
    opt = ag.optim.SGD(ours.parameters(), lr=0.1, momentum=0.9)
    train(ours, opt, batches()[:2], ag)
    saved = opt.state_dict()
    other = ag.optim.SGD(list(ours.parameters())[:2], lr=0.5)
    with pytest.raises(ValueError, match="doesn't match the size of optimizer's group"):
        other.load_state_dict(saved)
    two_groups = ag.optim.SGD([{"params": [p]} for p in ours.parameters()], lr=0.5)
    with pytest.raises(ValueError, match="different number of parameter groups"):
        two_groups.load_state_dict(saved)
    bad = {"state": {0: {"momentum_buffer": ag.zeros(5, dtype=ag.float64)}}, "param_groups": saved["param_groups"]}
    fresh = ag.optim.SGD(ours.parameters(), lr=0.5)
    with pytest.raises(ValueError, match=r"has shape \[5\], but the parameter has shape \[6, 4\]"):
        fresh.load_state_dict(bad)
    assert fresh.param_groups[0]["lr"] == 0.5 and fresh.state == {}


def test_zero_grad_closure_and_errors():
    w = nn.Parameter(ag.tensor([1.0, 2.0]))
    opt = ag.optim.SGD([w], lr=0.1)

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    assert opt.step(closure).item() == 5.0
    assert w.tolist() == pytest.approx([0.8, 1.6])
    opt.zero_grad(set_to_none=False)
    assert w.grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert w.grad is None
    with pytest.raises(TypeError, match="should be an iterable of Tensors or dicts, but got ag.FloatTensor"):
        ag.optim.SGD(w, lr=0.1)
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        ag.optim.Adam([])
    with pytest.raises(ValueError, match="Nesterov momentum requires a momentum and zero dampening"):
        ag.optim.SGD([w], lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match="Invalid learning rate: -1"):
        ag.optim.SGD([w], lr=-1)
    with pytest.raises(ValueError, match="Invalid beta parameter at index 0: 1.0"):
        ag.optim.Adam([w], betas=(1.0, 0.9))
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        ag.optim.SGD([w * 2], lr=0.1)
    with pytest.raises(ValueError, match="more than one parameter group"):
        ag.optim.SGD([{"params": [w]}, {"params": [w]}], lr=0.1)
    assert "Parameter Group 0\n    dampening: 0\n" in repr(ag.optim.SGD([w], lr=0.1))


def test_step_bumps_versions_so_a_stale_graph_refuses_backward():
    layer = nn.Linear(3, 2)
    opt = ag.optim.SGD(layer.parameters(), lr=0.1)
    layer(ag.randn(4, 3)).sum().backward()
    stale = layer(ag.randn(4, 3)).sum()
    opt.step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        stale.backward()


def test_state_lives_with_the_parameter():
    w = nn.Parameter(ag.ones(3, dtype=ag.float64))
    opt = ag.optim.Adam([w])
    (w * w).sum().backward()
    opt.step()
    state = opt.state[w]
    assert state["exp_avg"].device == w.device and state["exp_avg"].dtype == ag.float64
    assert type(state["exp_avg"]._data) is type(w._data)
