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

from .labels import label_trace, public_names
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
    items = public_names(names)
    by_node: dict = {}
    for name, value in items:
        if isinstance(value, torch.Tensor):
            node_id = tr.node_id(value)
            if node_id is not None:
                by_node.setdefault(node_id, []).append(name)
    written = {node_id: ", ".join(found) for node_id, found in by_node.items()}
    modules = [value for _, value in items if isinstance(value, torch.nn.Module)]
    modules.sort(key=lambda m: -sum(1 for _ in m.parameters()))
    for module in modules:
        for dotted, param in module.named_parameters():
            node_id = tr.node_id(param)
            if node_id is not None and node_id not in written:
                written[node_id] = dotted
    for node_id, label in written.items():
        tr.set_label(node_id, label)
    return written
