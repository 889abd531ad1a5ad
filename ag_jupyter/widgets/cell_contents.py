"""What a ``%%autograd`` cell made: whose graph to draw, and what to say when there is none.

A cell is classified by what it left behind, not by what it imported: the engine's
trace is drawn if it recorded a node, else PyTorch's (``tracing/torch_cell.py``) if
it did, else the cell made no graph and ``NoGraph`` takes the widget's place with
what the cell did make (tensors that do not require grad, plain numbers, nothing),
and how to get a graph from it.
"""
from __future__ import annotations

import ast
import html
import numbers
import sys

import numpy

from ..tensor import TENSOR_TYPES
from ..torch_switch import EngineModule
from .labels import public_names


def snapshot(names) -> dict:
    """The user's variables before the cell runs (the values themselves, for ``is``)."""
    return dict(public_names(names))


def made_by_cell(before: dict, names) -> list:
    """``(name, value)`` of each variable the cell bound or rebound."""
    return [(name, value) for name, value in public_names(names) if before.get(name, _UNBOUND) is not value]


_UNBOUND = object()  # a variable the cell created


def is_torch_tensor(value) -> bool:
    """Whether ``value`` is PyTorch's own tensor (under the switch, ``torch`` is the engine)."""
    torch = sys.modules.get("torch")  # never import torch just to ask
    return torch is not None and not isinstance(torch, EngineModule) and isinstance(value, torch.Tensor)


def imports_torch(tree: ast.Module) -> bool:
    """Whether the cell's code imports PyTorch (``import torch``, ``from torch import nn``...)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "torch" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "torch" and not node.level:
            return True
    return False


class NoGraph:
    """Shown in the widget's place by a cell that made no graph: what it saw, what to do."""

    def __init__(self, message: str):
        self.message = message

    def __repr__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        return ('<div class="ag-jupyter-no-graph" style="border:1px dashed #999;padding:8px 12px;'
                f'color:#444;font-family:sans-serif;font-size:13px">{html.escape(self.message)}</div>')


def no_graph(made: list) -> NoGraph:
    """The note for a cell whose variables ``made`` hold no tensor that requires grad."""
    # by name: the namespace's order is that of each name's first binding in the session, not in this cell
    tensors = sorted(name for name, value in made if value.__class__ in TENSOR_TYPES or is_torch_tensor(value))
    plain = sorted(name for name, value in made if isinstance(value, (numbers.Number, numpy.ndarray)))
    start = "%%autograd: no graph to draw. "
    if tensors:
        return NoGraph(start + f"The cell made only tensors that do not require grad ({', '.join(tensors)}), "
                       "so autograd recorded no operation. Make a leaf ask for its gradient, e.g. "
                       "`w = torch.tensor([1.0, 2.0], requires_grad=True)` (or ag.tensor), or call "
                       "`x.requires_grad_()` before computing with x (and compute outside no_grad()).")
    if plain:
        return NoGraph(start + f"The cell made only plain numbers ({', '.join(plain)}), no tensor: autograd "
                       "records operations on tensors that require grad. Start from one, e.g. "
                       "`a = torch.tensor(2.0, requires_grad=True)` (or ag.tensor).")
    return NoGraph(start + "The cell left no tensor and no number in its variables: create a tensor "
                   "with requires_grad=True and compute with it.")
