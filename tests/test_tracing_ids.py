"""Node ids: ``t<n>`` and ``op<n>``, numbered from 0 in each trace (``records.NodeIds``
makes each once and hands it to the traces after)."""
from __future__ import annotations

from trace_checks import events

import ag_jupyter as ag
from ag_jupyter.tracing.records import NodeIds


def test_each_trace_numbers_its_nodes_from_zero():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    firsts = []
    for _ in range(2):
        with ag.trace() as tr:
            (x * 2.0).tanh().sum().backward()
        doc = tr.to_dict()
        firsts.append([n["id"] for n in doc["nodes"]])
        assert [e["node"] for e in events(doc, "backward_step")] == ["op2", "op1", "op0"]
    assert firsts[0] == firsts[1] == ["t0", "op0", "t1", "op1", "t2", "op2", "t3"]


def test_ids_past_those_kept_are_made_each_time_and_not_kept():
    ids = NodeIds("op")
    assert ids[3] == "op3" and 3 in ids
    far = NodeIds.KEPT + 5
    assert ids[far] == f"op{far}" and far not in ids
