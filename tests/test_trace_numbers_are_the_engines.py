"""Every number a trace shows is the engine's, on random programs: each op's output, each
backward step's gradients (received, and sent to each input), each leaf's accumulated
gradient, in the order the engine made them. A listener outside the trace hears what the
engine hands the seam and keeps it, as the widget would have to show it; the document
must agree. Small arrays are compared value by value; larger ones summary by summary,
as ``summary.record`` makes them from the engine's array at that moment (how a summary is
computed is ``test_tracing_summary``'s; here, that each lands where it belongs).

Issue 13's tenth round ran this as a fuzz over 800 programs and found three places where
the document showed another number than the engine's; this keeps them from coming back."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import ag_jupyter as ag
from ag_jupyter.autograd import state
from ag_jupyter.autograd.listener import Listener
from ag_jupyter.tracing.summary import SMALL, record, to_json

PROGRAMS = 120


def _summary(array, exact):
    array = array._data if hasattr(array, "_data") else array
    return to_json(record(array, exact)), np.array(array, copy=True)


class EngineTruth(Listener):
    """What the engine handed the seam, summarized at that moment."""

    def __init__(self, exact):
        self.exact = exact
        self.ops, self.steps, self.accumulated = {}, [], []

    def on_op(self, node, inputs, output):
        self.ops[node._seq] = _summary(output, self.exact)

    def on_backward_step(self, step):
        sent = [None if grad is None or to is None else _summary(grad, self.exact)
                for to, grad in zip(step.node._next, step.grad_inputs)]  # the engine drops what goes nowhere
        received = None if step.grad_output is None else _summary(step.grad_output, self.exact)
        self.steps.append((step.node._seq, received, sent))

    def on_accumulate(self, tensor, grad):
        self.accumulated.append((tensor, _summary(grad, self.exact)))


def _leaf(rng, shape, requires_grad=True, special=False):
    values = rng.standard_normal(shape).astype(np.float32)
    if special:  # a few infinities and a NaN, where a learner's exploding step would put them
        values.reshape(-1)[rng.integers(0, values.size, 3)] = [np.inf, -np.inf, np.nan]
    return ag.tensor(values, requires_grad=requires_grad)


def _step(rng, y):
    """One random op on the 2-D tensor ``y``: elementwise, broadcast, matmul, reductions
    that broadcast back, views, in-place writes."""
    rows, cols = y.shape
    choice = int(rng.integers(0, 22))
    steps = [
        lambda: y.exp().clamp(max=50.0), lambda: y.tanh(), lambda: y.relu(), lambda: y.sigmoid(),
        lambda: (y.abs() + 1).log(), lambda: -y, lambda: y * 0.5, lambda: y + 1.0, lambda: 2.0 - y,
        lambda: y / 3.0, lambda: y ** 2, lambda: y * _leaf(rng, (rows, cols)),
        lambda: y + _leaf(rng, (cols,)), lambda: y @ _leaf(rng, (cols, int(rng.integers(1, 40)))),
        lambda: y - y.mean(1, keepdim=True), lambda: y.softmax(-1), lambda: y.log_softmax(1),
        lambda: y.t() * 1.0, lambda: ag.maximum(y, y * 0.5), lambda: ag.where(y > 0, y, y * 0.1),
        lambda: y.relu().sqrt(),  # a special point: the gradient at 0
        lambda: _written(rng, y),
    ]
    return steps[choice]()


def _written(rng, y):
    z = y * 1.0
    z[0] = 0.0
    z[:, :1].mul_(2.0)
    return z


def _program(seed):
    """Forward, backward, sometimes a second pass that accumulates; a gradient retained."""
    rng = np.random.default_rng(seed)
    shape = [(3, 4), (12, 30), (40, 50)][seed % 3]  # values listed, copied for later, summarized at once
    x = _leaf(rng, shape)
    for _ in range(2):
        y = x
        if rng.random() < 0.2:
            y = y + _leaf(rng, shape, requires_grad=False, special=True)
        for index in range(int(rng.integers(2, 8))):
            y = _step(rng, y)
            if index == 1:
                y.retain_grad()
        loss = y.sum() if rng.random() < 0.5 else (y * y).mean()
        loss.backward()
        if rng.random() < 0.5:
            break


def _number(value):
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}.get(value, value)


def _assert_same(where, shown, truth):
    expected, array = truth
    if array.size <= SMALL:  # listed: each value must be the engine's own, bit for bit
        listed = np.array([_number(v) for v in shown["values"]], dtype=np.float64)
        assert shown["shape"] == list(array.shape), where
        np.testing.assert_array_equal(listed, array.astype(np.float64).reshape(-1), err_msg=where)
    assert shown == expected, where


@pytest.mark.parametrize("exact_stats", [False, True])
def test_each_number_a_random_programs_trace_shows_is_the_engines(exact_stats):
    checked = {"ops": 0, "steps": 0, "gradients": 0, "accumulated": 0}
    for seed in range(PROGRAMS):
        truth = EngineTruth(exact_stats)
        previous, state.listener = state.listener, truth
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # NaN and inf arithmetic: NumPy's warnings are not the point
                with ag.trace(exact_stats=exact_stats) as trace:
                    _program(seed)
        finally:
            state.listener = previous
        doc = trace.to_dict()
        by_id = {node["id"]: node for node in doc["nodes"]}
        ops = trace.recorder.ops
        for seq, output in truth.ops.items():
            _assert_same(f"seed {seed}: the output of {ops[seq][0]}", by_id[ops[seq][1]]["value"], output)
            checked["ops"] += 1
        steps = [e for e in doc["events"] if e["type"] == "backward_step"]
        assert [e["node"] for e in steps] == [ops[seq][0] for seq, _, _ in truth.steps], seed
        for event, (_, received, sent) in zip(steps, truth.steps):
            where = f"seed {seed}: the backward step of {event['node']}"
            _assert_same(where + ", received", event["grad_output"], received)
            assert len(event["grad_inputs"]) == len(sent), where
            for entry, grad in zip(event["grad_inputs"], sent):
                if grad is None:
                    assert entry["grad"] is None, f"{where}: a gradient the engine does not send"
                else:
                    _assert_same(f"{where}, sent to {entry['node']}", entry["grad"], grad)
                    checked["gradients"] += 1
            checked["steps"] += 1
        shown = [(e["node"], e["grad"]) for e in doc["events"] if e["type"] == "accumulate" and not e.get("retained")]
        assert [node for node, _ in shown] == [trace.node_id(t) for t, _ in truth.accumulated], seed
        for (node, grad), (_, engine_grad) in zip(shown, truth.accumulated):
            _assert_same(f"seed {seed}: {node}'s .grad", grad, engine_grad)
            checked["accumulated"] += 1
    assert min(checked.values()) > PROGRAMS, checked  # every kind of number was met, many times
