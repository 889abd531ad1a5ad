"""Renaming a root module's scope after the user's variable (``TwoLayer.fc_1`` -> ``model.fc_1``).

The engine names the outermost module running by its class (``nn/hooks.py``);
only the cell's namespace knows that the user calls it ``model``. The trace notes
each call of an outermost module (its scope path, the module, the nodes recorded
during the call), so afterwards the first scope segment of exactly those nodes can
take the variable's name, given through the trace's own interface (``root_modules``,
``name_module``): two models of one class in one cell get their own names.
``%%autograd`` and ``ag.show(tr, names=...)`` both do it here.
"""
from __future__ import annotations

from collections.abc import Mapping


def rename_root_scopes(tr, names: Mapping) -> dict:
    """Give each outermost module call's scope the name of the variable holding its
    module; return ``{old path: new name}`` for those renamed."""
    renamed = {}
    for module in tr.root_modules():
        holders = [name for name, value in list(names.items())
                   if value is module and isinstance(name, str) and not name.startswith("_")]
        if holders:
            renamed.update((path, holders[0]) for path in tr.name_module(module, holders[0]))
    return renamed


def rename_torch_root_scopes(tr, names: Mapping) -> dict:
    """The same for a ``TorchCellTrace`` (``%%autograd`` over PyTorch code): each outermost
    module call's scope takes the name of the variable holding the module."""
    renamed = {}
    for index, module in tr.root_modules():
        holders = [name for name, value in list(names.items())
                   if value is module and isinstance(name, str) and not name.startswith("_")]
        if holders:
            tr.rename_root(index, holders[0])
            renamed[index] = holders[0]
    return renamed
