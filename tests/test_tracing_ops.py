"""Every primitive can be drawn: a PyTorch node name, a symbol and a LaTeX formula."""
from __future__ import annotations

import gc

import pytest

from ag_jupyter.autograd.function import Op
from ag_jupyter.tracing.op_info import by_torch_name, concrete, op_classes

# bases that make no node themselves
FAMILY_BASES = {"UnaryOp", "BinaryOp", "Binary", "Unary", "UnaryOnOutput", "Reduction", "ViewOp",
                "ElementwiseLoss", "_Normalization",  # issue 30: losses, batch and layer norm
                "Step", "Pick"}  # issue 30: rounding steps (ops/rounding.py), sort/topk picks (ops/sorting.py)


def undrawable(classes) -> list:
    """The concrete Op classes missing a node name, a symbol or a formula."""
    missing = []
    for cls in classes:
        if not concrete(cls):
            continue
        for attribute in ("node_name", "symbol", "formula"):
            value = getattr(cls, attribute, None)
            if not isinstance(value, str) or not value.strip() or value == "Node":
                missing.append(f"{cls.__module__}.{cls.__qualname__}.{attribute}")
    return missing


def balanced(latex: str) -> bool:
    depth = 0
    for ch in latex.replace(r"\{", "").replace(r"\}", ""):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def test_every_engine_primitive_has_name_symbol_and_formula():
    classes = op_classes()
    assert len(classes) > 40  # found recursively, family bases included
    assert not undrawable(classes)
    assert {c.__name__ for c in classes if not concrete(c)} == FAMILY_BASES


@pytest.mark.parametrize("cls", [c for c in op_classes() if concrete(c)], ids=lambda c: c.__name__)
def test_formula_is_latex_for_a_local_derivative(cls):
    assert balanced(cls.formula) and r"\partial" in cls.formula, cls.formula
    assert cls.node_name[0].isupper()


def test_the_check_catches_an_op_without_a_formula():
    class Frobnicate(Op):  # a new primitive someone forgot to describe
        node_name = "FrobnicateBackward0"
        symbol = "frob"

    assert undrawable([Frobnicate]) == [f"{__name__}.{Frobnicate.__qualname__}.formula"]
    assert Frobnicate in op_classes()  # the recursive search finds new subclasses too
    del Frobnicate  # out of Op.__subclasses__(), so no later test meets it
    gc.collect()


def test_pytorch_names_map_to_the_same_formulas():
    from ag_jupyter.ops.elementwise import Mul
    from ag_jupyter.ops.reduction import Sum

    assert by_torch_name("MulBackward0") == (Mul.symbol, Mul.formula)
    assert by_torch_name("SumBackward1") == (Sum.symbol, Sum.formula)  # sum over a dim
    assert by_torch_name("AddmmBackward0")[1]  # PyTorch-only nodes have one too
    assert by_torch_name("WeirdBackward3") == ("weird", None)


def test_pytorch_graphs_draw_our_ops_as_we_do():
    # a PyTorch-only entry for a node the engine has would draw it with another symbol and formula
    from ag_jupyter.tracing import op_info

    ours = {cls.node_name for cls in op_info.op_classes() if op_info.concrete(cls)}
    assert not set(op_info._TORCH_ONLY) & ours
    for cls in op_info.op_classes():
        if op_info.concrete(cls) and getattr(cls, "formula", None) and cls.node_name in ("AddmmBackward0",
                                                                                       "NllLossBackward0",
                                                                                       "MseLossBackward0"):
            assert op_info.by_torch_name(cls.node_name) == (cls.symbol, cls.formula)


def test_each_ops_formula_uses_the_letters_it_declares_for_its_inputs():
    # the step panel replaces these letters with the graph's names: a letter the formula
    # does not use, or a formula in letters of its own, would leave a bare symbol on screen
    import re

    from ag_jupyter.tracing import op_info

    for cls in op_info.op_classes():
        formula = getattr(cls, "formula", None)
        if not op_info.concrete(cls) or not formula or "formula_args" not in vars(cls):
            continue
        symbols = set(re.findall(r"(?<![\\A-Za-z])[A-Za-z](?![A-Za-z])", re.sub(r"\\text\{[^}]*\}", "", formula)))
        assert set(cls.formula_args) <= symbols, (cls.__name__, cls.formula_args, symbols)
    doc_letters = op_info.formula_letters("AddmmBackward0")
    assert doc_letters == ["b", "A", "B"] and op_info.formula_letters("MulBackward0") is None


def test_a_backward_step_shows_no_gradient_for_a_number_the_op_was_given():
    # The engine drops what an op computes for a number (2.0 - x: the 2.0's); the step
    # panel must not show it as if it went somewhere.
    import ag_jupyter as ag

    with ag.trace() as t:
        x = ag.tensor([1.0, 2.0, 3.0], requires_grad=True)
        c = x.clone()
        c += 1.0
        ((2.0 - x).sum() + (x * 1.5).sum() + c.sum()).backward()
    doc = t.to_dict()
    ops_by_id = {n["id"]: n for n in doc["nodes"] if n["kind"] == "op"}
    seen = {}
    for event in doc["events"]:
        if event["type"] == "backward_step" and ops_by_id[event["node"]].get("consts"):
            seen[ops_by_id[event["node"]]["op"]] = [(g["arg"], g["node"], g["grad"]) for g in event["grad_inputs"]
                                                   if g["node"] is None]
    assert seen == {"SubBackward0": [(0, None, None)], "MulBackward0": [(1, None, None)],
                    "AddBackward0": [(1, None, None)]}
