"""Naming the nodes of a graph after the user's variables.

The tracer knows tensors, not the names a cell gave them. After a cell has run,
its namespace says which variable holds which tensor; these functions write
those names into the document as node labels:

- a variable holding a tensor names that tensor's node (``e``); several
  variables holding one tensor give ``a, b``;
- a variable holding an ``nn.Module`` names its parameters with their dotted
  names (``fc_1.weight``), unless a variable names the parameter itself. The
  largest module goes first, so ``fc_1.weight`` wins over ``weight`` when both
  ``model`` and ``layer = model.fc_1`` exist;
- names starting with ``_`` are IPython's (``_``, ``_i3``, ``_5``) and are skipped.
"""
from __future__ import annotations

import sys
from collections.abc import Mapping

from ..nn import Module
from ..tensor import TENSOR_TYPES


def public_names(names: Mapping) -> list:
    return [(name, value) for name, value in list(names.items())
            if isinstance(name, str) and not name.startswith("_")]


def _is_ours(value) -> bool:
    return value.__class__ in TENSOR_TYPES


def label_trace(tr, names: Mapping, is_tensor=_is_ours, module_type=Module) -> dict:
    """Label the nodes of trace ``tr`` after the variables in ``names``; return
    ``{node id: label}`` for the labels written. ``is_tensor`` and ``module_type`` say
    what a tensor and a module are (ours by default; PyTorch's for an ``ag.trace_torch``)."""
    items = public_names(names)
    by_node: dict = {}
    for name, value in items:
        if is_tensor(value):
            node_id = tr.node_id(value)
            if node_id is not None:
                by_node.setdefault(node_id, []).append(name)
    written = {node_id: ", ".join(found) for node_id, found in by_node.items()}
    modules = [value for _, value in items if isinstance(value, module_type)]
    modules.sort(key=lambda m: -sum(1 for _ in m.parameters()))
    for module in modules:
        for dotted, param in module.named_parameters():
            node_id = tr.node_id(param)
            if node_id is not None and node_id not in written:
                written[node_id] = dotted
    for node_id, label in written.items():
        tr.set_label(node_id, label)
    return written


def torch_params(names: Mapping) -> dict:
    """``{name: leaf}`` for ``from_torch``'s ``params``: PyTorch leaf tensors held by
    variables, and the parameters of PyTorch modules by their dotted names."""
    torch = sys.modules.get("torch")
    if torch is None:  # nobody imported torch, so no torch tensor can be in the namespace
        return {}
    found: dict = {}
    for _, value in public_names(names):
        if isinstance(value, torch.nn.Module):
            for dotted, param in value.named_parameters():
                found.setdefault(dotted, param)
    for name, value in public_names(names):  # a variable's own name wins over a dotted one
        if isinstance(value, torch.Tensor) and value.is_leaf:
            for dotted in [k for k, v in found.items() if v is value]:
                del found[dotted]
            found[name] = value
    return found


def label_root(doc: dict, root, names: Mapping) -> None:
    """Label the output of a PyTorch document with the variable that holds ``root``:
    the tensor node nothing consumes, made last (PyTorch keeps no other tensor names)."""
    holders = [name for name, value in public_names(names) if value is root]
    if not holders:
        return
    sources = {e["src"] for e in doc["edges"]}
    sinks = [n for n in doc["nodes"] if n["kind"] == "tensor" and n["id"] not in sources]
    if sinks:
        sinks[-1]["label"] = ", ".join(holders)
