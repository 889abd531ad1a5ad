"""trace_graph (a graph built before any trace) and naming nodes after the fact."""
from __future__ import annotations

from trace_checks import events, ops

import ag_jupyter as ag
from ag_jupyter.tracing import trace_graph


def e_graph():
    a = ag.tensor(2.0, requires_grad=True)
    b = ag.tensor(-3.0, requires_grad=True)
    c = ag.tensor(10.0, requires_grad=True)
    d = ag.tensor(4.0, requires_grad=True)
    return a, b, c, d, a * b + ag.log(d) * c


def test_trace_graph_walks_without_running_backward_then_a_stepper_records_it():
    a, b, c, d, e = e_graph()
    tr = trace_graph(e)
    doc = tr.to_dict()
    assert [n["op"] for n in ops(doc)] == ["MulBackward0", "LogBackward0", "MulBackward0", "AddBackward0"]
    assert not events(doc, "backward_begin") and a.grad is None and not tr.active
    with tr:
        stepper = ag.autograd.backward_stepper(e)
    stepper.run()
    doc = tr.to_dict()
    assert len(events(doc, "backward_step")) == 4 and a.grad.item() == -3.0
    assert len(doc["nodes"]) == 12  # the steps found every node already adopted


def test_a_leaf_alone_is_one_node():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    doc = trace_graph(x).to_dict()
    assert [(n["kind"], n["shape"]) for n in doc["nodes"]] == [("tensor", [2])]


def test_node_id_looks_up_without_recording():
    a, b, c, d, e = e_graph()
    tr = trace_graph(e)
    before = tr.node_count
    assert tr.node_id(a) == "t0" and tr.node_id(e) == "t7"
    assert tr.node_id(ag.tensor(1.0)) is None and tr.node_id(a * 2) is None
    assert tr.node_count == before


def test_set_label_and_rename_scope_stay_in_later_documents():
    class Net(ag.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = ag.nn.Linear(2, 1)

        def forward(self, x):
            return self.fc(x)

    net = Net()
    with ag.trace() as tr:
        first = net(ag.ones(1, 2))
        middle = tr.node_count
        net(ag.ones(1, 2)).sum()
    tr.set_label(tr.node_id(first), "first")
    assert tr.label_of(tr.node_id(first)) == "first"
    assert tr.rename_scope("Net", "model", 0, middle) > 0
    doc = tr.to_dict()
    scopes = [n.get("scope") for n in doc["nodes"] if n["kind"] == "op"]
    assert "model.fc" in scopes and "Net.fc" in scopes  # only the first call's nodes were renamed
    assert any(n.get("label") == "first" for n in doc["nodes"])
