"""How an op node is drawn: its PyTorch name, a short symbol, its local derivative.

Every engine primitive (an ``Op`` subclass) declares ``node_name``, ``symbol`` and
``formula`` (LaTeX) next to its forward and backward. A custom ``Function`` may
declare ``symbol`` and ``formula`` too; otherwise its class name stands in.
PyTorch graphs (``from_torch``) reuse the same table by node name, plus a few
nodes PyTorch has and the engine does not.
"""
from __future__ import annotations

import importlib
import pkgutil

from .. import ops
from ..autograd.function import FunctionCtx, Op
from ..autograd.node import Node

_TORCH_ONLY = {  # nodes PyTorch has and the engine does not (ours draw from the op classes)
    "AccumulateGrad": ("∑grad", r"\text{.grad} \mathrel{+}= \bar u"),
}


def op_classes() -> list:
    """Every ``Op`` subclass the engine defines, found recursively (ops/ is imported whole)."""
    for module in pkgutil.iter_modules(ops.__path__):
        importlib.import_module(f"{ops.__name__}.{module.name}")
    found, stack = [], list(Op.__subclasses__())
    while stack:
        cls = stack.pop()
        found.append(cls)
        stack.extend(cls.__subclasses__())
    return found


def concrete(cls) -> bool:
    """A primitive that makes nodes: a leaf of the class tree, or a class naming its own
    node. Family bases (``Binary``, ``Reduction``...) are neither."""
    return not cls.__subclasses__() or "node_name" in cls.__dict__


_described: dict = {}  # node class -> (name, symbol, formula), for classes that name every node alike


def class_description(cls) -> tuple | None:
    """``describe``'s answer for every node of ``cls`` once it described one, or None where
    each node has its own (a custom ``Function``'s, a node that names itself)."""
    return _described.get(cls)


def describe(node) -> tuple:
    """``(name, symbol, formula)`` for an engine node."""
    described = _described.get(node.__class__)
    if described is not None:
        return described
    name = node.name()
    if isinstance(node, FunctionCtx):
        function = node._function
        symbol = getattr(function, "symbol", None) or function.__name__
        formula = getattr(function, "formula", None) or (
            rf"\text{{custom backward: }}\texttt{{{function.__name__}.backward}}")
        return name, symbol, formula
    cls = type(node)
    described = (name, getattr(cls, "symbol", None) or name, getattr(cls, "formula", None))
    if cls.name is Node.name:  # the name is the class's node_name, not the node's own
        _described[cls] = described
    return described


_by_name: dict | None = None
_letters: dict = {}  # node name -> the letters its formula calls its inputs by


def by_torch_name(name: str) -> tuple:
    """``(symbol, formula)`` for a PyTorch node name; formula None when unknown."""
    global _by_name
    if _by_name is None:
        table = dict(_TORCH_ONLY)
        for cls in op_classes():
            if concrete(cls) and getattr(cls, "formula", None):
                # PyTorch numbers the variants of one op (SumBackward0/1, PowBackward0/1).
                stem = cls.node_name.rstrip("0123456789")
                for variant in (cls.node_name, stem + "0", stem + "1"):
                    table.setdefault(variant, (cls.symbol, cls.formula))
                    _letters.setdefault(variant, list(cls.formula_args))
        for variant in ("DotBackward0", "MvBackward0", "BmmBackward0"):
            table.setdefault(variant, table["MmBackward0"])
            _letters.setdefault(variant, _letters["MmBackward0"])
        _by_name = table
    if name in _by_name:
        return _by_name[name]
    return name.replace("Backward", "").rstrip("0123456789").lower() or name, None


def formula_letters(name: str) -> list | None:
    """The letters the formula of node ``name`` calls its inputs by, where they are not
    the usual ``a, b, c`` (None then, or for a node we do not know)."""
    by_torch_name(name)  # builds the table once
    letters = _letters.get(name)
    return letters if letters and letters != ["a", "b", "c"][:len(letters)] else None
