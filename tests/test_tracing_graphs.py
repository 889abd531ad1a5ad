"""The four tutorial graphs, traced, with their exact structure."""
from __future__ import annotations

import math

import pytest
from trace_checks import events, inputs_of, node, ops, output_of, tensors, values

import ag_jupyter as ag


def e_graph():
    """e = a*b + log(d)*c, the classic hand-worked example."""
    with ag.trace(title="e = a*b + log(d)*c") as tr:
        a = ag.tensor(2.0, requires_grad=True)
        b = ag.tensor(-3.0, requires_grad=True)
        c = ag.tensor(10.0, requires_grad=True)
        d = ag.tensor(4.0, requires_grad=True)
        e = a * b + ag.log(d) * c
        e.backward()
    return tr.to_dict(), (a, b, c, d, e)


def test_e_graph_nodes_and_program_order():
    doc, _ = e_graph()
    leaves = [n for n in tensors(doc) if n["is_leaf"]]
    assert [values(n["value"]) for n in leaves] == [[2.0], [-3.0], [10.0], [4.0]]
    assert all(n["requires_grad"] and n["origin"] == "leaf" for n in leaves)
    assert [n["op"] for n in ops(doc)] == ["MulBackward0", "LogBackward0", "MulBackward0", "AddBackward0"]
    assert [n["symbol"] for n in ops(doc)] == ["×", "log", "×", "+"]
    assert len(tensors(doc)) == 8  # 4 leaves, 4 op outputs
    created = [e["node"] for e in events(doc, "create")]
    assert created == [n["id"] for n in doc["nodes"]]  # one create per node, in program order
    a, b, c, d = (n["id"] for n in leaves)
    mul_ab, log_d, mul_c, add = (n["id"] for n in ops(doc))
    assert inputs_of(doc, mul_ab) == [a, b]
    assert inputs_of(doc, log_d) == [d]
    assert inputs_of(doc, mul_c) == [output_of(doc, log_d), c]
    assert inputs_of(doc, add) == [output_of(doc, mul_ab), output_of(doc, mul_c)]
    assert node(doc, mul_ab)["saved"] == [{"node": a, "arg": 0}, {"node": b, "arg": 1}]
    assert node(doc, output_of(doc, add))["value"]["values"] == pytest.approx([2 * -3 + math.log(4) * 10])
    assert all(n["line"]["file"] == __file__ for n in doc["nodes"])
    assert node(doc, mul_ab)["line"]["code"] == "e = a * b + ag.log(d) * c"


def test_e_graph_backward_order_and_accumulation():
    doc, (a, b, c, d, e) = e_graph()
    mul_ab, log_d, mul_c, add = (n["id"] for n in ops(doc))
    steps = [ev["node"] for ev in events(doc, "backward_step")]
    assert steps[0] == add
    assert steps.index(log_d) > steps.index(mul_c)  # log runs after the mul that uses its output
    assert sorted(steps) == sorted([mul_ab, log_d, mul_c, add])  # one step per op node
    first = events(doc, "backward_step")[0]
    assert first["grad_output"]["values"] == [1.0]
    assert [g["grad"]["values"] for g in first["grad_inputs"]] == [[1.0], [1.0]]
    log_step = next(ev for ev in events(doc, "backward_step") if ev["node"] == log_d)
    assert log_step["grad_output"]["values"] == pytest.approx([10.0])
    assert log_step["grad_inputs"][0]["grad"]["values"] == pytest.approx([2.5])
    assert log_step["formula"] == r"\frac{\partial u}{\partial a} = \frac{1}{a}"
    got = {ev["node"]: ev["grad"]["values"][0] for ev in events(doc, "accumulate")}
    ids = [n["id"] for n in tensors(doc) if n["is_leaf"]]
    assert got == pytest.approx(dict(zip(ids, [-3.0, 2.0, math.log(4.0), 2.5])))
    assert [a.grad.item(), b.grad.item(), d.grad.item()] == pytest.approx([-3.0, 2.0, 2.5])
    # An accumulate event follows the step that completed that leaf.
    order = [(ev["type"], ev.get("node")) for ev in doc["events"]]
    assert order.index(("accumulate", ids[3])) == order.index(("backward_step", log_d)) + 1
    types = [ev["type"] for ev in doc["events"]]
    assert types[:12] == ["create"] * 12
    assert types[12:] == ["backward_begin", "backward_step", "backward_step", "accumulate", "backward_step",
                         "accumulate", "backward_step", "accumulate", "accumulate", "backward_end"]
    assert node(doc, ids[0])["grad"]["values"] == [-3.0]
    assert len(doc["passes"]) == 1 and doc["passes"][0]["params_with_grad"] == ids


def test_matrix_graph_y_equals_xw_plus_b():
    with ag.trace() as tr:
        X = ag.full((2, 3), 2.0, requires_grad=True)
        W = ag.full((3, 1), 0.5, requires_grad=True)
        b = ag.tensor([4.0], requires_grad=True)
        Y = X @ W + b
        Y.backward(ag.ones(2, 1))
    doc = tr.to_dict()
    assert [n["op"] for n in ops(doc)] == ["MmBackward0", "AddBackward0"]
    assert [n["symbol"] for n in ops(doc)] == ["@", "+"]
    x_id, w_id, b_id = (n["id"] for n in tensors(doc) if n["is_leaf"])
    assert len(tensors(doc)) == 5  # the ones given to backward were never used: not a node
    mm, add = (n["id"] for n in ops(doc))
    assert node(doc, output_of(doc, add))["value"]["values"] == [7.0, 7.0]
    assert node(doc, output_of(doc, add))["shape"] == [2, 1]
    assert [ev["node"] for ev in events(doc, "backward_step")] == [add, mm]
    add_step, mm_step = events(doc, "backward_step")
    assert add_step["grad_inputs"][1]["grad"]["values"] == [2.0]  # summed back to b's shape
    assert mm_step["grad_inputs"][1]["grad"]["values"] == [4.0, 4.0, 4.0]
    grads = {ev["node"]: ev["grad"]["values"] for ev in events(doc, "accumulate")}
    assert grads == {b_id: [2.0], x_id: [0.5] * 6, w_id: [4.0, 4.0, 4.0]}
    assert node(doc, mm)["saved"] == [{"node": x_id, "arg": 0}, {"node": w_id, "arg": 1}]


def test_chain_y_2x_plus_3_then_z_4y_minus_1():
    with ag.trace() as tr:
        x = ag.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = 2 * x + 3
        z = 4 * y - 1
        z.sum().backward()
    doc = tr.to_dict()
    assert [n["op"] for n in ops(doc)] == ["MulBackward0", "AddBackward0", "MulBackward0", "SubBackward0",
                                            "SumBackward0"]
    mul = ops(doc)[0]
    assert mul["consts"] == [{"arg": 0, "value": 2}]  # 2 * x: the number is the first argument
    assert [(e["src"], e["arg"]) for e in doc["edges"] if e["dst"] == mul["id"]] == [("t0", 1)]
    assert [ev["node"] for ev in events(doc, "backward_step")] == [n["id"] for n in reversed(ops(doc))]
    (acc,) = events(doc, "accumulate")
    assert acc["node"] == "t0" and acc["grad"]["values"] == [8.0, 8.0, 8.0]
    assert x.grad.tolist() == [8.0, 8.0, 8.0]
    assert node(doc, output_of(doc, ops(doc)[-1]["id"]))["value"]["values"] == [4 * (2 * 6 + 9) - 3]


def test_no_grad_and_branch_not_taken():
    with ag.trace() as tr:
        x = ag.tensor(2.0, requires_grad=True)
        w_taken = ag.tensor(3.0, requires_grad=True)
        w_skipped = ag.tensor(5.0, requires_grad=True)
        with ag.no_grad():
            k = x * 10  # not recorded: k is met later, as an input
        y = x * k
        z = y * w_taken if y.item() > 0 else y * w_skipped
        z.backward()
    doc = tr.to_dict()
    x_id, taken_id, skipped_id = "t0", "t1", "t2"
    k_node = node(doc, inputs_of(doc, ops(doc)[0]["id"])[1])
    assert k_node["origin"] == "seen" and not k_node["requires_grad"] and k_node["value"]["values"] == [20.0]
    assert "line" not in k_node  # where it was made is not known
    assert len(ops(doc)) == 2  # the no-grad mul made no node
    (p,) = doc["passes"]
    assert p["params_used"] == [x_id, taken_id] and p["params_unused"] == [skipped_id]
    assert p["grad_none"] == [skipped_id] and p["params_with_grad"] == [x_id, taken_id]
    assert events(doc, "backward_end")[0]["grad_none"] == [skipped_id]
    assert w_skipped.grad is None and x.grad.item() == 60.0


def test_a_constant_nothing_used_is_left_out_with_its_create_event():
    with ag.trace() as tr:
        a = ag.tensor([1.0, 2.0], requires_grad=True)
        c = ag.ones(2)  # used by the product: kept
        ag.zeros(3)  # made and never used: left out
        print(ag.tensor(5.0))  # a number printed in passing, no op of the graph reads it: left out
        (a * c).sum().backward()
    doc = tr.to_dict()
    tensors = [(n["origin"], n["requires_grad"], n["shape"]) for n in doc["nodes"] if n["kind"] == "tensor"]
    assert ("leaf", False, [3]) not in tensors and ("leaf", False, []) not in tensors
    assert ("leaf", False, [2]) in tensors
    ids = {n["id"] for n in doc["nodes"]}
    assert all(e["node"] in ids for e in doc["events"] if e["type"] == "create")


def test_an_op_with_no_source_line_has_no_line_in_the_document(monkeypatch):
    """An op run where no frame is the user's has no line; the schema's ``line`` is an
    object, so the document leaves the key out (not ``"line": null``)."""
    from ag_jupyter.tracing import recorder
    from ag_jupyter.tracing.schema import validate
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    with ag.trace() as tr:
        y = x * 2
        monkeypatch.setattr(recorder, "user_line", lambda depth=2: None)
        z = y.exp()
        z.sum().backward()
    doc = tr.to_dict()
    validate(doc)
    ops = [n for n in doc["nodes"] if n["kind"] == "op"]
    assert [(n["op"], "line" in n) for n in ops] == [("MulBackward0", True), ("ExpBackward0", False),
                                                    ("SumBackward0", False)]
    by_id = {n["id"]: n for n in doc["nodes"]}
    outputs = {e["src"]: by_id[e["dst"]] for e in doc["edges"] if by_id[e["dst"]]["kind"] == "tensor"}
    assert [("line" in outputs[n["id"]]) for n in ops] == [True, False, False]
