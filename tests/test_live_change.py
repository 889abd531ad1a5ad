"""Live mode sends each step of the real backward as its change to the document, not the
whole document again: O(change) bytes a step, measured here at 1,000 nodes."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("anywidget")

import ag_jupyter as ag  # noqa: E402
from ag_jupyter.widgets.live import document_change  # noqa: E402


def apply_change(doc: dict, change: dict) -> dict:
    """What js/src/model/trace-change.js applyChange does, for the checks below."""
    out = dict(doc)
    for key, part in change.get("lists", {}).items():
        assert len(doc[key]) == part["length"]
        grown = list(doc[key])
        for at, item in part["set"].items():
            grown[int(at)] = item
        out[key] = grown + part["append"]
    out.update(change.get("values", {}))
    for key in change.get("removed", ()):
        del out[key]
    return out


def sent_messages(widget) -> list:
    """Every message the widget sends its front end (state updates and custom messages)."""
    sent = []
    widget._send = lambda msg, buffers=None: sent.append(msg)
    return sent


def chain(length: int):
    """A chain of ``length`` small ops: about two nodes an op, one backward step an op."""
    ag.manual_seed(0)
    x = ag.randn(4, requires_grad=True)
    y = x
    for i in range(length):
        y = (y * 0.9).tanh() if i % 2 else y + 0.1
    return y.sum()


def test_the_change_of_each_step_rebuilds_the_document():
    w = ag.show(chain(6), live=True)
    sent = sent_messages(w)
    seen = w.trace
    while not w.backward_done:
        del sent[:]
        w.advance()
        changes = [m["content"] for m in sent if m["method"] == "custom"]
        assert len(changes) == 1 and changes[0]["type"] == "trace_change"
        assert all("trace" not in m.get("state", {}) for m in sent), "the whole document was sent again"
        change = {k: v for k, v in changes[0].items() if k != "type"}
        seen = apply_change(seen, change)
        assert seen == w.trace  # what the front end holds is what Python holds
        assert w.step == len(w.trace["events"])


def test_a_change_names_what_changed_and_nothing_else():
    old = {"title": "t", "nodes": [{"id": "a"}, {"id": "b"}], "events": [1, 2], "passes": [0], "gone": 1}
    new = {"title": "t", "nodes": [{"id": "a"}, {"id": "b", "x": 1}], "events": [1, 2, 3], "passes": [0, 1]}
    change = document_change(old, new)
    assert change == {"lists": {"nodes": {"length": 2, "set": {"1": {"id": "b", "x": 1}}, "append": []},
                                "events": {"length": 2, "set": {}, "append": [3]},
                                "passes": {"length": 1, "set": {}, "append": [1]}},
                      "removed": ["gone"]}
    assert apply_change(old, change) == new
    assert document_change(new, new) == {}
    shrunk = {**new, "events": [1]}
    assert document_change(new, shrunk) == {"values": {"events": [1]}}


def test_bytes_per_step_stay_the_size_of_the_step_at_1000_nodes():
    loss = chain(340)
    w = ag.show(loss, live=True)
    assert len(w.trace["nodes"]) >= 1000
    whole = len(json.dumps(w.trace))
    sent = sent_messages(w)
    per_step = []
    for _ in range(8):  # each step rebuilds the document in Python: a few are enough to measure
        del sent[:]
        w.advance()
        per_step.append(sum(len(json.dumps(m)) for m in sent))
    # one backward node's events (its gradients' summaries), the passes list and the step:
    # about 1 kB a step, where re-sending the document was ~300 kB (a pass: N times that)
    assert max(per_step) < 2000 < whole // 100, (per_step, whole)
