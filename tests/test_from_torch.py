"""ag.from_torch and ag.trace_torch: the same document for PyTorch graphs."""
from __future__ import annotations

import sys

import pytest
from trace_checks import events, inputs_of, node, ops, output_of, tensors

import ag_jupyter as ag

torch = pytest.importorskip("torch")


def mlp():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
    x, y = torch.randn(5, 4), torch.tensor([0, 2, 1, 1, 0])
    return model, torch.nn.functional.cross_entropy(model(x), y)


def test_mlp_graph_like_make_dot():
    model, loss = mlp()
    doc = ag.from_torch(loss, params=dict(model.named_parameters()))
    assert doc["source"] == "torch" and doc["passes"][0]["backward"] is False
    assert [n["op"] for n in ops(doc)] == ["TBackward0", "AddmmBackward0", "ReluBackward0", "TBackward0",
                                            "AddmmBackward0", "LogSoftmaxBackward0", "NllLossBackward0"]
    labels = [n.get("label") for n in tensors(doc) if n["is_leaf"]]
    assert labels == ["0.weight", "0.bias", "2.weight", "2.bias"]
    weight = next(n for n in tensors(doc) if n.get("label") == "0.weight")
    assert weight["shape"] == [8, 4] and weight["dtype"] == "float32" and len(weight["value"]["values"]) == 32
    root = node(doc, output_of(doc, ops(doc)[-1]["id"]))
    assert root["shape"] == [] and root["value"]["values"] == [pytest.approx(loss.item())]
    first_addmm = ops(doc)[1]
    assert [node(doc, i).get("label") or node(doc, i)["origin"] for i in inputs_of(doc, first_addmm["id"])] == \
        ["0.bias", "walked"]  # PyTorch passes no edge for x, which needs no grad
    assert [s["name"] for s in first_addmm["saved"]] == ["mat1"] and first_addmm["formula"]
    relu = ops(doc)[2]
    assert relu["saved"][0]["output"] and node(doc, relu["saved"][0]["node"])["shape"] == [5, 8]
    created = [e["node"] for e in events(doc, "create")]
    assert created == [n["id"] for n in doc["nodes"]]  # leaves appear just before their first use


def test_from_a_node_and_from_several_roots():
    a = torch.ones(3, requires_grad=True)
    b = (a * 2).sum()
    c = (a + 1).prod()
    doc = ag.from_torch(b.grad_fn)
    assert [n["op"] for n in ops(doc)] == ["MulBackward0", "SumBackward0"]
    both = ag.from_torch([b, c])
    assert len([n for n in tensors(both) if n["is_leaf"]]) == 1  # a, shared
    with pytest.raises(TypeError, match="PyTorch tensors or grad_fn nodes"):
        ag.from_torch(ag.tensor(1.0))


def test_a_chain_of_ten_thousand_nodes():
    x = torch.ones(1, requires_grad=True)
    y = x
    for _ in range(10_000):
        y = y * 1.0001
    doc = ag.from_torch(y)
    assert len(ops(doc)) == 10_000
    assert ops(doc)[0]["id"] == "op0" and inputs_of(doc, "op0") == ["t0"]
    assert inputs_of(doc, ops(doc)[-1]["id"]) == [output_of(doc, ops(doc)[-2]["id"])]


def test_trace_torch_records_the_real_backward_order():
    model, loss = mlp()
    with ag.trace_torch(params=model.named_parameters()) as tr:
        loss.backward()
    doc = tr.to_dict()
    steps = [node(doc, e["node"])["op"] for e in events(doc, "backward_step")]
    assert steps[:3] == ["NllLossBackward0", "LogSoftmaxBackward0", "AddmmBackward0"]
    assert sorted(steps) == sorted(n["op"] for n in ops(doc))
    acc = {node(doc, e["node"])["label"]: e["grad"] for e in events(doc, "accumulate")}
    assert sorted(acc) == ["0.bias", "0.weight", "2.bias", "2.weight"]
    assert acc["2.bias"]["values"] == pytest.approx(model[2].bias.grad.tolist())
    order = [(e["type"], e.get("node")) for e in doc["events"]]
    bias_id = next(n["id"] for n in tensors(doc) if n.get("label") == "2.bias")
    last_addmm = ops(doc)[4]["id"]  # the bias is done once the last Linear's step has run
    assert order.index(("accumulate", bias_id)) > order.index(("backward_step", last_addmm))
    first = events(doc, "backward_step")[0]
    assert first["grad_output"]["values"] == [1.0] and first["formula"]
    assert events(doc, "backward_end")[0]["completed"] and not events(doc, "backward_end")[0]["grad_none"]


def test_trace_torch_sees_autograd_backward_and_grad_and_lets_go():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with ag.trace_torch() as tr:
        torch.autograd.backward([(x * x).sum()])
        (g,) = torch.autograd.grad((x ** 3).sum(), x)
        z = x * 5  # forward ops are not recorded: only backward calls are
    assert g.tolist() == [3.0, 12.0]
    doc = tr.to_dict()
    assert len(events(doc, "backward_begin")) == 2 and len(doc["passes"]) == 2
    assert len(ops(doc)) == 4 and z.grad_fn is not None
    assert tr.graph.ops == {}  # after the block, no PyTorch node is held
    assert not x.grad_fn and x.grad.tolist() == [2.0, 4.0]


def test_missing_torch_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # what an absent package looks like to import
    with pytest.raises(ImportError, match=r"ag.from_torch needs PyTorch.*pip install torch"):
        ag.from_torch(object())
    with pytest.raises(ImportError, match="ag.trace_torch needs PyTorch"):
        ag.trace_torch()
