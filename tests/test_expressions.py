"""Names of unnamed tensors (tracing/expressions.py): Python's own precedence, shortened
names, and the roles of leaves, on small graphs written out by hand."""
import pytest

from ag_jupyter.tracing.expressions import name_unlabelled


def _named(*ops, labels=("a", "b", "c"), roots=()):
    """Leaves ``a, b, c``; each op ``(symbol, input ids, consts)`` makes tensor ``u<k>``."""
    nodes = [{"id": label, "kind": "tensor", "label": label, "is_leaf": True, "requires_grad": True}
             for label in labels]
    edges = []
    for k, (symbol, inputs, consts) in enumerate(ops):
        op = {"id": f"op{k}", "kind": "op", "op": "XBackward0", "symbol": symbol}
        if consts:
            op["consts"] = consts
        nodes += [op, {"id": f"u{k}", "kind": "tensor", "is_leaf": False, "requires_grad": True, "shape": [3]}]
        edges += [(src, op["id"], arg) for arg, src in enumerate(inputs)] + [(op["id"], f"u{k}", 0)]
    return name_unlabelled(nodes, edges, set(roots))


@pytest.mark.parametrize("ops, name", [
    ([("−", ["b", "c"], None), ("−", ["a", "u0"], None)], "a - (b - c)"),
    ([("+", ["a", "b"], None), ("×", ["u0", "c"], None)], "(a + b)*c"),
    ([("×", ["b", "c"], None), ("×", ["a", "u0"], None)], "a*(b*c)"),
    ([("×", ["a", "b"], None), ("×", ["u0", "c"], None)], "a*b*c"),
    ([("^", ["a"], [{"arg": 1, "value": 2.0}]), ("÷", ["u0", "b"], None)], "a**2/b"),
    ([("×", ["a"], [{"arg": 1, "value": 0.5}, {"name": "alpha", "value": 3}])], "a*0.5"),
    ([("tanh", ["a"], None), ("tanh", ["u0"], None)], "tanh(tanh(a))"),
    ([("+", ["a", "b"], None), ("σ", ["u0"], None)], "sigmoid(a + b)"),
    ([("+", ["a", "b"], None)] + [("×", [f"u{k}"], [{"arg": 1, "value": 0.999}]) for k in range(3)],
     "(…)*0.999"),  # past 24 characters an operand is "(…)"
    ([("tanh", ["a"], None)] * 1 + [("×", ["u0", "u0"], None), ("×", ["u1", "u1"], None)], "(…)*(…)"),
])
def test_an_unnamed_tensor_is_named_by_its_expression(ops, name):
    assert _named(*ops)[f"u{len(ops) - 1}"] == name


def test_a_weight_and_a_bias_are_named_by_what_takes_them():
    nodes = [{"id": "w", "kind": "tensor", "is_leaf": True, "requires_grad": True, "shape": [4, 3]},
             {"id": "b", "kind": "tensor", "is_leaf": True, "requires_grad": True, "shape": [4]},
             {"id": "x", "kind": "tensor", "is_leaf": True, "requires_grad": False, "shape": [2, 3]},
             {"id": "op0", "kind": "op", "op": "TBackward0", "symbol": "ᵀ"},
             {"id": "u0", "kind": "tensor", "is_leaf": False, "requires_grad": True, "shape": [3, 4]},
             {"id": "op1", "kind": "op", "op": "AddmmBackward0", "symbol": "addmm"},
             {"id": "u1", "kind": "tensor", "is_leaf": False, "requires_grad": True, "shape": [2, 4]}]
    edges = [("w", "op0", 0), ("op0", "u0", 0), ("b", "op1", 0), ("x", "op1", 1), ("u0", "op1", 2), ("op1", "u1", 0)]
    names = name_unlabelled(nodes, edges, set())
    assert (names["w"], names["b"], names["x"], names["u0"], names["u1"]) == \
        ("weight", "bias", "input", "weight.T", "addmm(…)")  # 28 characters: shortened
