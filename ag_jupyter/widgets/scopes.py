"""Renaming a root module's scope after the user's variable (``TwoLayer.fc_1`` -> ``model.fc_1``).

The engine names the outermost module running by its class (``nn/hooks.py``);
only the cell's namespace knows that the user calls it ``model``. So while a
cell runs, ``RootModules`` listens *outside* the cell's trace (the trace passes
every callback on to the listener it replaced, see ``tracing/tracer.py``) and
notes each call of an outermost module: the module, its scope path, and which
nodes the trace recorded during the call. Afterwards ``rename`` swaps the first
scope segment of exactly those nodes, so two models of one class in one cell get
their own names.
"""
from __future__ import annotations

import contextlib
from collections.abc import Mapping

from ..autograd import state


class RootModules:
    """A listener that notes calls of outermost modules and passes everything on."""

    def __init__(self, tr):
        self.trace = tr
        self.parent = None  # the listener this one replaced (normally None)
        self.calls: list = []  # [path, module, first node index, stop node index]
        self._depth = 0

    # ----- what this listener is for ------------------------------------------------
    def on_module_enter(self, path, module) -> None:
        if self._depth == 0:
            self.calls.append([path, module, self.trace.node_count, None])
        self._depth += 1
        if self.parent is not None:
            self.parent.on_module_enter(path, module)

    def on_module_exit(self, path, module) -> None:
        self._depth = max(0, self._depth - 1)
        if self._depth == 0 and self.calls and self.calls[-1][3] is None:
            self.calls[-1][3] = self.trace.node_count
        if self.parent is not None:
            self.parent.on_module_exit(path, module)

    def rename(self, names: Mapping) -> dict:
        """Give each noted call's scope the name of the variable holding its module;
        return ``{old path: new name}`` for those renamed. Drops the modules it held."""
        renamed = {}
        for path, module, first, stop in self.calls:
            holders = [name for name, value in list(names.items())
                       if value is module and isinstance(name, str) and not name.startswith("_")]
            if holders and path:
                self.trace.rename_scope(path, holders[0], first, stop)
                renamed[path] = holders[0]
        self.calls.clear()
        return renamed

    # ----- the rest of the listener protocol (autograd/state.py): pass on -------------
    def on_leaf(self, tensor) -> None:
        if self.parent is not None:
            self.parent.on_leaf(tensor)

    def on_op(self, node, inputs, output) -> None:
        if self.parent is not None:
            self.parent.on_op(node, inputs, output)

    def on_op_error(self, op_name, inputs, error) -> None:
        if self.parent is not None:
            self.parent.on_op_error(op_name, inputs, error)

    def on_backward_begin(self, roots) -> None:
        if self.parent is not None:
            self.parent.on_backward_begin(roots)

    def on_backward_step(self, step) -> None:
        if self.parent is not None:
            self.parent.on_backward_step(step)

    def on_accumulate(self, tensor, grad) -> None:
        if self.parent is not None:
            self.parent.on_accumulate(tensor, grad)

    def on_backward_end(self, completed) -> None:
        if self.parent is not None:
            self.parent.on_backward_end(completed)


@contextlib.contextmanager
def watching_root_modules(tr):
    """Put a ``RootModules`` for trace ``tr`` in the engine's seam (enter ``tr`` inside
    this block); the previous listener is back afterwards, exception or not."""
    watcher = RootModules(tr)
    watcher.parent = state.listener
    state.listener = watcher
    try:
        yield watcher
    finally:
        state.listener = watcher.parent
        watcher.parent = None
