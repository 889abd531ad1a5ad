"""``ag.show(obj, names=...)`` for every kind of ``obj``: the same names everywhere.

A variable holding a tensor names its node; a variable holding a module names its
parameters with their dotted names (``fc_1.weight``); for an ``ag.trace``, a
variable holding the outermost module also names its scope (``model.fc_1``
instead of the class name ``TwoLayer.fc_1``), as ``%%autograd`` does. In marimo,
which has no magics, this is how nodes get names: ``ag.show(tr, names=globals())``.

What cannot be named, and why:

- a trace document (a dict) holds ids, not tensors, so ``names`` has nothing to
  match: ``show`` says so instead of ignoring it;
- in an ``ag.trace_torch``, only leaves (parameters, inputs) and the tensors
  ``backward()`` was called on: PyTorch's graph nodes cannot be referenced weakly,
  so once the block has ended nothing leads from an intermediate tensor to its node.
"""
from __future__ import annotations

import sys
from collections.abc import Mapping

from .labels import label_trace
from .scopes import rename_root_scopes


def name_trace(tr, names: Mapping) -> dict:
    """Label an ``ag.trace`` after ``names`` (tensors, parameters, root module scopes);
    return ``{node id: label}`` for the labels written."""
    written = label_trace(tr, names)
    rename_root_scopes(tr, names)
    return written


def name_torch_trace(tr, names: Mapping) -> dict:
    """Label an ``ag.trace_torch``'s leaves and backward roots after ``names``
    (PyTorch tensors, and PyTorch modules' parameters by dotted name)."""
    torch = sys.modules.get("torch")
    if torch is None:
        return {}
    return label_trace(tr, names, lambda value: isinstance(value, torch.Tensor), torch.nn.Module)
