"""Live mode: each step past the last event runs one node of the real backward pass."""
from __future__ import annotations

import numpy
import pytest

pytest.importorskip("anywidget")
from trace_checks import events

import ag_jupyter as ag  # noqa: E402


def build(seed: int = 0):
    """A small net with a diamond (x used twice) and a broadcast bias."""
    ag.manual_seed(seed)
    x = ag.randn(3, 2, requires_grad=True)
    w = ag.randn(2, 2, requires_grad=True)
    b = ag.randn(2, requires_grad=True)
    loss = ((x @ w + b).tanh() ** 2).mean() + (x.exp() * 0.1).sum()
    return loss, (x, w, b)


def grads(leaves):
    return [None if t.grad is None else t.grad.numpy().copy() for t in leaves]


def advance_message(widget) -> None:
    """What the view sends: anywidget's ``model.send({type: "advance"})`` arrives as an
    ipywidgets custom message."""
    widget._handle_msg({"content": {"data": {"method": "custom", "content": {"type": "advance"}}},
                        "buffers": []})


def test_live_steps_run_the_real_backward_and_end_equal_to_backward():
    loss, leaves = build()
    loss.backward()
    expected = grads(leaves)

    loss, leaves = build()
    w = ag.show(loss, live=True, names=dict(zip("xwb", leaves)))
    ids = {n["label"]: n["id"] for n in w.trace["nodes"] if "label" in n}
    forward = len(w.trace["events"])
    assert w.live and w.step == forward and not w.playing  # at the end of the forward pass
    assert grads(leaves) == [None, None, None] and not events(w.trace, "backward_begin")

    seen, steps = [], 0
    while not w.backward_done:
        before = len(w.trace["events"])
        advance_message(w)
        steps += 1
        assert len(w.trace["events"]) > before and w.step == len(w.trace["events"])
        # the kernel's gradients are the document's, at the step on screen
        for t, node_id in zip(leaves, (ids["x"], ids["w"], ids["b"])):
            accumulated = [e for e in w.trace["events"] if e["type"] == "accumulate" and e["node"] == node_id]
            assert (t.grad is None) == (not accumulated)
        seen.append([g is None for g in grads(leaves)])
    assert steps == len(events(w.trace, "backward_step")) == 9
    assert seen[0] == [True, True, True] and seen[-1] == [False, False, False]
    for got, want in zip(grads(leaves), expected):
        numpy.testing.assert_array_equal(got, want)  # the same engine, the same numbers
    assert events(w.trace, "backward_end")[0]["completed"] is True
    assert not w.advance()  # nothing left: a further message changes nothing
    advance_message(w)
    assert w.step == len(w.trace["events"])


def test_next_past_the_end_advances_and_back_replays_only():
    x = ag.tensor(2.0, requires_grad=True)
    y = ag.tensor(3.0, requires_grad=True)
    w = ag.show(x * y + y.exp(), live=True, names={"x": x, "y": y})
    end_of_forward = w.step
    w.goto(0)  # rewinding the forward is only a view change
    assert w.step == 0 and x.grad is None
    w.goto(end_of_forward).next()
    assert w.step == len(w.trace["events"]) > end_of_forward and x.grad is None  # AddBackward0 ran
    w.next().next()
    assert x.grad.item() == 3.0 and round(y.grad.item(), 3) == round(2 + numpy.exp(3.0), 3)
    w.back()
    assert x.grad.item() == 3.0  # going back never undoes the kernel's gradients


def test_a_live_widget_document_keeps_its_labels():
    x = ag.tensor([1.0, -1.0], requires_grad=True)
    loss = (x * x).sum()
    w = ag.show(loss, live=True, names={"x": x, "loss": loss})
    while w.advance():
        pass
    labelled = {n["label"]: n for n in w.trace["nodes"] if "label" in n}
    assert set(labelled) == {"x", "loss"} and labelled["x"]["grad"]["values"] == [2.0, -2.0]


def test_live_needs_a_tensor_that_requires_grad():
    with pytest.raises(ValueError, match="requires grad"):
        ag.show(ag.ones(2), live=True)
