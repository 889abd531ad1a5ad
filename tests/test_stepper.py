"""ag.autograd.backward_stepper: the real backward pass, one node per step()."""
from __future__ import annotations

import gc

import numpy
import pytest
from trace_checks import events, ops

import ag_jupyter as ag
from ag_jupyter.autograd import state


def build(seed: int = 0):
    """A small net with a shared input (a diamond) and a broadcast bias."""
    ag.manual_seed(seed)
    x = ag.randn(4, 3, requires_grad=True)
    w = ag.randn(3, 2, requires_grad=True)
    b = ag.randn(2, requires_grad=True)
    h = (x @ w + b).tanh()
    loss = (h * h).mean() + (x.exp() * 0.1).sum()
    return loss, (x, w, b)


def grads(leaves):
    return [None if t.grad is None else t.grad.numpy().copy() for t in leaves]


def test_stopped_halfway_then_finished_equals_backward():
    loss, leaves = build()
    loss.backward()
    expected = grads(leaves)

    loss, leaves = build()
    stepper = ag.autograd.backward_stepper(loss)
    assert stepper.total == 9 and not stepper.done and stepper.current is None
    for _ in range(stepper.total // 2):
        stepper.step()
    assert not stepper.done and stepper.remaining == stepper.total - stepper.total // 2
    middle = grads(leaves)
    stepper.run()
    assert stepper.done and stepper.step() is None
    for got, want in zip(grads(leaves), expected):
        numpy.testing.assert_array_equal(got, want)  # the same engine: the same numbers
    assert any(g is None for g in middle)  # halfway, some leaves had not been reached yet


def test_grad_is_the_truth_at_each_step():
    x = ag.tensor(2.0, requires_grad=True)
    y = ag.tensor(3.0, requires_grad=True)
    stepper = ag.autograd.backward_stepper(x * y + y.exp())
    seen = []
    for step in stepper:
        seen.append((step.node.name(), None if x.grad is None else x.grad.item(),
                     None if y.grad is None else round(y.grad.item(), 3)))
    assert seen == [("AddBackward0", None, None), ("ExpBackward0", None, None),
                    ("MulBackward0", 3.0, round(2 + numpy.exp(3.0), 3))]
    assert stepper.current.node.name() == "MulBackward0" and stepper.done


def test_steps_are_recorded_like_a_plain_backward():
    with ag.trace() as plain:
        loss, _ = build()
        loss.backward()
    with ag.trace() as stepped:
        loss, _ = build()
        stepper = ag.autograd.backward_stepper(loss)
        while not stepper.done:
            stepper.step()
    a, b = plain.to_dict(), stepped.to_dict()
    assert [(e["type"], e.get("node")) for e in a["events"]] == [(e["type"], e.get("node")) for e in b["events"]]
    assert events(b, "backward_end")[0]["completed"] is True


def test_a_stepper_made_in_a_trace_reports_to_it_after_the_block():
    with ag.trace() as tr:
        loss, leaves = build()
        stepper = ag.autograd.backward_stepper(loss)
        stepper.step()
    assert state.listener is None
    stepper.step()
    assert state.listener is None  # lent to the engine for the step only
    stepper.run()
    doc = tr.to_dict()
    assert len(events(doc, "backward_step")) == len(ops(doc)) == stepper.total
    assert events(doc)[-1]["type"] == "backward_end"


def test_a_stepper_made_outside_reports_to_the_trace_of_its_first_step():
    loss, _ = build()
    stepper = ag.autograd.backward_stepper(loss)
    with ag.trace() as tr:
        stepper.run()
    doc = tr.to_dict()
    assert len(events(doc, "backward_step")) == stepper.total
    assert {n["origin"] for n in ops(doc)} == {"walked"}  # the graph was made before the trace


def test_close_abandons_the_pass():
    with ag.trace() as tr:
        loss, (x, w, b) = build()
        stepper = ag.autograd.backward_stepper(loss)
        stepper.step()
        stepper.close()
    assert stepper.done and stepper.step() is None
    assert events(tr.to_dict(), "backward_end")[0]["completed"] is False


def test_leaf_root_gradient_and_retain_graph():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    stepper = ag.autograd.backward_stepper(x, gradient=ag.tensor([3.0, 4.0]))
    assert stepper.total == 0 and stepper.step() is None and stepper.done
    assert x.grad.tolist() == [3.0, 4.0]

    y = (x * x).sum()
    ag.autograd.backward_stepper(y, retain_graph=True).run()
    ag.autograd.backward_stepper(y).run()  # the graph was kept: a second pass works
    assert x.grad.tolist() == [3.0 + 4.0, 4.0 + 8.0]
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        ag.autograd.backward_stepper(y).run()


def test_errors_like_backward():
    with pytest.raises(RuntimeError, match="does not require grad"):
        ag.autograd.backward_stepper(ag.tensor(1.0))
    stepper = ag.autograd.backward_stepper(ag.ones(2, requires_grad=True) * 2)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        stepper.step()
    assert stepper.done and state.listener is None


def test_the_caller_keeps_its_own_grad_mode_between_steps():
    """The pass runs in create_graph's grad mode (False here), but code between steps runs
    in the caller's, even one that changes it midway; abandoning the pass changes nothing."""
    loss, leaves = build()
    stepper = ag.autograd.backward_stepper(loss)
    stepper.step()
    assert ag.is_grad_enabled()
    with ag.no_grad():
        stepper.step()
        assert not ag.is_grad_enabled()
    assert ag.is_grad_enabled()
    y = leaves[0] * 2  # between steps, ops record as the caller's mode says
    assert y.grad_fn is not None
    stepper.step()
    del stepper  # abandoned halfway: the generator closes
    gc.collect()
    assert ag.is_grad_enabled()
    loss, leaves = build()
    with ag.no_grad():  # started in no_grad, abandoned outside it
        abandoned = ag.autograd.backward_stepper(loss)
        abandoned.step()
    del abandoned
    gc.collect()
    assert ag.is_grad_enabled()
