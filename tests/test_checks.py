"""Check it yourself (issue 33): nudge a leaf, one step downhill, the sum over paths.

The replay re-runs the recorded ops with the engine; these tests hold its numbers to a
fresh forward pass of the same code at the moved values, and to finite differences."""
from __future__ import annotations

import math

import numpy
import pytest

pytest.importorskip("anywidget")
from example_graphs import README_FORWARD  # noqa: E402

import ag_jupyter as ag  # noqa: E402
from ag_jupyter.autograd import state  # noqa: E402
from ag_jupyter.tracing import checks  # noqa: E402
from ag_jupyter.tracing.paths import paths  # noqa: E402
from ag_jupyter.tracing.replay import ReplayRefused, Tape  # noqa: E402


def taped(block):
    """Run ``block()`` under a trace with a tape beside it, as %%autograd does."""
    tape = Tape()
    tape.parent, state.listener = state.listener, tape
    try:
        with ag.trace() as tr:
            result = block()
    finally:
        state.listener, tape.parent = tape.parent, None
    return tape, tr, result


def readme(a=2.0, b=-3.0, c=10.0, d=4.0):
    leaves = [ag.tensor(v, requires_grad=True) for v in (a, b, c, d)]
    a, b, c, d = leaves
    return leaves, a * b + ag.log(d) * c


def test_replay_is_a_forward_pass_at_the_moved_values():
    tape, _, (leaves, e) = taped(lambda: readme())
    root = tape.step_of(e)
    assert float(tape.evaluate(root)) == e.item()
    moved = {tape.leaf_of(leaves[3]): numpy.array(5.5, numpy.float32)}
    assert float(tape.evaluate(root, moved)) == readme(d=5.5)[1].item()


def test_nudging_a_agrees_with_its_gradient_minus_3():
    tape, _, (leaves, e) = taped(lambda: readme())
    e.backward()
    a = leaves[0]
    result = checks.nudge(tape, tape.step_of(e), tape.leaf_of(a), a.grad._data, h=1e-3)
    assert result["L_plus"] == readme(a=2.0 + 1e-3)[1].item()
    assert result["L_minus"] == readme(a=2.0 - 1e-3)[1].item()
    assert result["grad"] == -3.0 and abs(result["slope"] + 3.0) < 1e-3
    assert result["digits"] >= 3 and result["relative_error"] < 1e-3
    assert result["slope"] == (result["L_plus"] - result["L_minus"]) / 2e-3


def test_nudging_one_entry_of_W_in_X_at_W_plus_b():
    ag.manual_seed(0)
    X = ag.randn(4, 3, dtype=ag.float64)
    W = ag.randn(3, 2, dtype=ag.float64, requires_grad=True)
    b = ag.zeros(2, dtype=ag.float64, requires_grad=True)
    tape, _, loss = taped(lambda: ((X @ W + b).tanh() ** 2).sum())
    loss.backward()
    result = checks.nudge(tape, tape.step_of(loss), tape.leaf_of(W), W.grad._data, h=1e-5, index=(2, 1))
    assert result["index"] == [2, 1] and result["grad"] == W.grad.numpy()[2, 1]
    assert result["digits"] >= 8
    with pytest.raises(ValueError, match=r"shape \[3, 2\]: say which entry"):
        checks.nudge(tape, tape.step_of(loss), tape.leaf_of(W), W.grad._data)
    with pytest.raises(ValueError, match="outside shape"):
        checks.nudge(tape, tape.step_of(loss), tape.leaf_of(W), W.grad._data, index=(3, 0))


def test_one_step_downhill_lowers_the_output_as_the_first_order_term_says():
    tape, _, (leaves, e) = taped(lambda: readme())
    e.backward()
    lr = 0.01
    result = checks.downhill(tape, tape.step_of(e), {tape.leaf_of(t): t.grad._data for t in leaves}, lr)
    moved = [t.item() - lr * t.grad.item() for t in leaves]
    assert result["L_new"] == readme(*moved)[1].item()
    squared = sum(t.grad.item() ** 2 for t in leaves)
    assert result["predicted"] == pytest.approx(e.item() - lr * squared)
    assert result["L_new"] < result["L"]
    # the rest is second order: |error| <= lr^2 ||g||^2 * (the largest curvature, here c/d^2 + ...)
    assert abs(result["L_new"] - result["predicted"]) < 10 * lr ** 2 * squared
    assert [t.item() for t in leaves] == [2.0, -3.0, 10.0, 4.0]  # the kernel's tensors untouched


def _branching():
    x = ag.tensor(2.0, requires_grad=True)
    return x, (x * 3 if x > 0 else -x)


def _dropout():
    x = ag.ones(8, requires_grad=True)
    return x, ag.nn.functional.dropout(x, 0.5).sum()


def _noise():
    x = ag.ones(3, requires_grad=True)
    return x, (x + ag.randn(3)).sum()


@pytest.mark.parametrize("block, reason", [
    (_branching, r"read a tensor's value into Python \(line \d+: return x, \(x \* 3 if x > 0 else -x\)\)"),
    (_dropout, "dropout drew a random mask"),
    (_noise, r"a tensor drawn at random \(line \d+: .*randn"),
])
def test_a_replay_that_cannot_stand_for_a_re_run_is_refused_with_the_reason(block, reason):
    tape, _, (x, out) = taped(block)
    with pytest.raises(ReplayRefused, match=reason):
        tape.evaluate(tape.step_of(out))


def test_reading_the_output_after_it_was_made_refuses_nothing():
    def block():
        x = ag.tensor(2.0, requires_grad=True)
        y = x * x
        print(y.item())
        return x, y
    tape, _, (x, y) = taped(block)
    assert float(tape.evaluate(tape.step_of(y), {tape.leaf_of(x): numpy.array(3.0, numpy.float32)})) == 9.0


def test_the_replay_starts_from_the_values_recorded_not_the_updated_ones():
    tape, _, (leaves, e) = taped(lambda: readme())
    e.backward()
    ag.optim.SGD(leaves, lr=0.1).step()  # the kernel's leaves move after the cell
    assert float(tape.evaluate(tape.step_of(e))) == readme()[1].item()


def test_sum_over_paths_x_times_x_plus_3x_at_2_is_4_plus_3():
    def block():
        x = ag.tensor(2.0, requires_grad=True)
        y = x * x + 3 * x
        y.backward()
        return x, y
    _, tr, (x, y) = taped(block)
    tr.set_label(tr.node_id(x), "x")
    tr.set_label(tr.node_id(y), "y")
    found = paths(tr.to_dict(), tr.node_id(x))
    assert found["count"] == 2 and [p["product"] for p in found["paths"]] == [4.0, 3.0]
    assert [p["names"] for p in found["paths"]] == [["x", "x*x", "y"], ["x", "3*x", "y"]]
    assert found["paths"][0]["locals"][0]["parts"] == [2.0, 2.0]  # x*x uses x twice: 2 + 2
    assert found["sum"] == 7.0 == found["backward"] == x.grad.item()


def test_shared_weights_used_three_times_give_three_paths():
    def block():
        w = ag.tensor(0.5, requires_grad=True)
        h = ag.tensor(1.5)
        for _ in range(3):
            h = (h * w).tanh()
        h.backward()
        return w, h
    _, tr, (w, h) = taped(block)
    found = paths(tr.to_dict(), tr.node_id(w))
    assert found["count"] == 3 and len(found["paths"]) == 3
    assert [len(p["ops"]) for p in found["paths"]] == [6, 4, 2]
    assert math.isclose(found["sum"], w.grad.item(), rel_tol=1e-6)
    assert found["meetings"] and found["meetings"][0]["branches"] == 3


def test_paths_of_a_matrix_weight_give_the_gradient_each_path_sends():
    ag.manual_seed(1)
    X = ag.randn(4, 3)

    def block():
        W = ag.randn(3, 3, requires_grad=True)
        loss = (X @ W @ W).sum()
        loss.backward()
        return W, loss
    _, tr, (W, loss) = taped(block)
    found = paths(tr.to_dict(), tr.node_id(W))
    assert found["count"] == 2 and not found["scalar"] and "sum" not in found
    sent = [p["last_gradient"]["values"] for p in found["paths"]]
    assert numpy.allclose(numpy.add(*sent), W.grad.numpy().reshape(-1), rtol=1e-5)


CELL = "%%autograd\n" + README_FORWARD + "e.backward()\n"


def test_the_widget_of_a_cell_nudges_and_steps_by_name(ip):
    widget = ip.run_cell(CELL).result
    result = widget.nudge("a", h=1e-3)
    a_id = next(n["id"] for n in widget.trace["nodes"] if n.get("label") == "a")
    assert result["grad"] == -3.0 and result["digits"] >= 3 and result["node"] == a_id
    step = widget.step_downhill(0.01)
    assert step["L_new"] < step["L"] and "unchanged" in step["kernel"]
    assert ip.user_ns["a"].item() == 2.0
    assert widget.paths("a")["count"] == 1
    assert widget.apply_step(0.01) and ip.user_ns["a"].item() == pytest.approx(2.0 + 0.03)
    with pytest.raises(KeyError, match="no tensor named 'z'"):
        widget.nudge("z")


def test_the_page_asks_and_the_kernel_answers(ip):
    widget = ip.run_cell(CELL).result
    sent = []
    widget.send = sent.append
    widget._on_message(widget, {"type": "check", "what": "nudge", "node": "a", "request": 7}, [])
    widget._on_message(widget, {"type": "check", "what": "nudge", "node": "nope", "request": 8}, [])
    assert sent[0]["request"] == 7 and sent[0]["result"]["grad"] == -3.0
    assert sent[1]["request"] == 8 and "no tensor named 'nope'" in sent[1]["error"]


def test_a_leaf_whose_grad_accumulated_is_checked_against_this_graphs_gradient(ip):
    ip.run_cell(CELL)
    widget = ip.run_cell("%%autograd\ne = a * b + ag.log(d) * c\ne.backward()\n").result
    assert ip.user_ns["a"].grad.item() == -6.0  # two passes accumulated
    result = widget.nudge("a", h=1e-3)
    assert result["grad"] == -3.0 and result["digits"] >= 3


def _add_in_place(x):
    z = x * 2
    z.add_(1)
    return z.sum()


def _write_an_entry(x):
    z = x * 1
    z[0] = 5.0
    return (z * z).sum()


def _clamp_in_place(x):
    z = x.clone()
    z.clamp_(min=0.0)
    return (z * z).sum()


@pytest.mark.parametrize("program", [_add_in_place, _write_an_entry, _clamp_in_place])
def test_in_place_ops_on_a_tensor_replay_as_a_re_run_computes(program):
    start = [1.0, -2.0, 3.0]
    tape, _, (x, out) = taped(lambda: (lambda x: (x, program(x)))(ag.tensor(start, dtype=ag.float64,
                                                                             requires_grad=True)))
    for k in range(3):
        moved = numpy.array(start)
        moved[k] += 0.5
        replayed = float(tape.evaluate(tape.step_of(out), {tape.leaf_of(x): moved}))
        assert replayed == program(ag.tensor(moved.tolist(), dtype=ag.float64)).item()


def _through_a_view(x):
    z = x * 1
    z[1:].mul_(3)
    return (z * z).sum()


class Cube(ag.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x ** 2


@pytest.mark.parametrize("program, reason", [(_through_a_view, "CopySlices cannot be re-run"),
                                             (lambda x: Cube.apply(x).sum(), "CubeBackward cannot be re-run")])
def test_what_the_tape_cannot_run_again_is_refused(program, reason):
    tape, _, (x, out) = taped(lambda: (lambda x: (x, program(x)))(ag.tensor([1.0, 2.0], requires_grad=True)))
    with pytest.raises(ReplayRefused, match=reason):
        tape.evaluate(tape.step_of(out))


def test_layers_and_losses_replay_to_the_recorded_output():
    ag.manual_seed(0)
    X, y = ag.randn(6, 4), ag.tensor([0, 1, 2, 1, 0, 2])
    model = ag.nn.Sequential(ag.nn.Linear(4, 5), ag.nn.ReLU(), ag.nn.Linear(5, 3))
    conv, images = ag.nn.Conv2d(1, 2, 3, padding=1), ag.randn(2, 1, 5, 5)
    F = ag.nn.functional

    def block():
        h = model(X)
        mixed = (F.cross_entropy(h, y) + (h.softmax(dim=1)[:, 1] ** 2).mean()
                 + F.mse_loss(h.tanh(), ag.zeros(6, 3)) + ag.cat([h, h * 2], dim=1).reshape(-1).sum(0) * 0.01
                 + h.mean(dim=0).sum() + h.T[0].max())
        return mixed, F.max_pool2d(conv(images).relu(), 2).sum()
    tape, _, outputs = taped(block)
    for out in outputs:
        assert float(tape.evaluate(tape.step_of(out))) == out.item()


def test_a_tape_that_fails_never_breaks_the_cell_and_refuses_every_replay():
    class Broken(Tape):
        def on_op(self, node, inputs, output):
            raise RuntimeError("boom")
    tape = Broken()
    tape.parent, state.listener = state.listener, tape
    try:
        with ag.trace():
            x = ag.tensor(2.0, requires_grad=True)
            y = x * x
    finally:
        state.listener, tape.parent = tape.parent, None
    assert y.item() == 4.0
    with pytest.raises(ReplayRefused, match="the replay's record failed at on_op: RuntimeError: boom"):
        tape.check(0)


def test_a_live_cell_checks_once_its_backward_has_run(ip):
    widget = ip.run_cell("%%autograd --live\n" + README_FORWARD + "e.backward()\n").result
    with pytest.raises(ValueError, match="no gradient to check: run .backward"):
        widget.nudge("a")
    widget.advance_all()
    assert widget.nudge("a", h=1e-3)["grad"] == -3.0
    assert widget.paths("d")["sum"] == pytest.approx(2.5)
