"""``%%autograd`` over a cell of real PyTorch code: PyTorch's graph, as the engine's is drawn.

``trace_torch`` records PyTorch's graph when a backward runs. A cell is more than its
backward calls, so ``TorchCellTrace`` also watches the forward pass: the same
``TorchFunctionMode`` hands it each function's result, and global module hooks say
which module's ``forward`` is running. Each node made is noted with the cell's line
that made it and its module scope (``Net.fc1``, as the engine names scopes; the
widget layer renames the root after the cell's variable, ``model.fc1``). The notes
are written into the records when the node joins the graph: at a backward, or at
``finish``, which adds the graphs of the tensors the cell left in its variables that
no backward drew. Until the block ends, ``node_id`` also finds intermediate tensors
(``h``, ``loss``) through their ``grad_fn``: the only time they can be named.
"""
from __future__ import annotations

import os
import sys
import weakref

from .torch_graph import is_accumulator
from .torch_trace import trace_torch

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class TorchCellTrace(trace_torch):
    """A ``trace_torch`` that also notes lines and module scopes of the forward pass."""

    watches_forward = True

    def __init__(self, title: str | None = None):
        super().__init__(title)
        self._library = (_PACKAGE, os.path.dirname(os.path.abspath(self.torch.__file__)) + os.sep)
        self._inside: dict = {}  # file name -> whether it is torch's or ours (not the user's)
        self._made: dict = {}  # id(grad_fn) -> (grad_fn, line, root index, scope), not yet in the graph
        self._running: list = []  # (root index, scope) of each module call under way
        self._paths: dict = {}  # id(module) -> scope path, under the outermost module running
        self._roots: list = []  # (weak reference to an outermost module called, its scope path)
        self._scoped: dict = {}  # node id -> root index, for each node given a scope
        self._hooks: list = []

    def __enter__(self) -> "TorchCellTrace":
        hooks = self.torch.nn.modules.module
        self._hooks = [hooks.register_module_forward_pre_hook(self._module_enter),
                       hooks.register_module_forward_hook(self._module_exit, always_call=True)]
        return super().__enter__()

    def __exit__(self, exc_type, exc, tb) -> bool:
        for handle in self._hooks:
            handle.remove()
        self._hooks, self._made = [], {}
        return super().__exit__(exc_type, exc, tb)

    # ----- the forward pass ---------------------------------------------------------
    def _module_enter(self, module, args) -> None:
        if not self._running:
            root = type(module).__name__
            self._paths = {id(m): f"{root}.{name}" if name else root for name, m in module.named_modules()}
            self._roots.append((weakref.ref(module), root))
            index = len(self._roots) - 1
        else:
            index = self._running[-1][0]
        scope = self._paths.get(id(module))
        if scope is None:  # a module from outside the root's tree, called inside it
            scope = f"{self._running[-1][1]}.{type(module).__name__}"
        self._running.append((index, scope))

    def _module_exit(self, module, args, output) -> None:
        if self._running:
            self._running.pop()

    def forward_ran(self, result) -> None:
        """Note the node behind a function's result (or results), if it is new."""
        for t in result if isinstance(result, (tuple, list)) else (result,):
            fn = getattr(t, "grad_fn", None)
            if fn is None or id(fn) in self._made or id(fn) in self.graph.ops:
                continue
            index, scope = self._running[-1] if self._running else (None, None)
            self._made[id(fn)] = (fn, self._user_line(), index, scope)

    def _user_line(self):
        """``(code, offset)`` of the nearest frame outside torch and ag_jupyter: the cell's line."""
        frame = sys._getframe(2)
        while frame is not None:
            name = frame.f_code.co_filename
            inside = self._inside.get(name)
            if inside is None:
                inside = self._inside[name] = os.path.abspath(name).startswith(self._library)
            if not inside:
                return frame.f_code, frame.f_lasti
            frame = frame.f_back
        return None

    # ----- into the records -----------------------------------------------------------
    def run_backward(self, func, roots, args, kwargs):
        start = len(self.records.nodes)
        try:
            return super().run_backward(func, roots, args, kwargs)
        finally:
            self._note(start)
            self._made = {}  # what this graph did not take is not kept alive past its backward

    def finish(self, tensors) -> None:
        """Add the graphs behind ``tensors`` (the cell's variables) that no backward drew:
        leaves that require grad and tensors with a ``grad_fn``."""
        roots = [t for t in tensors if t.requires_grad and (t.grad_fn is None or id(t.grad_fn) not in self.graph.ops)]
        start = len(self.records.nodes)
        if roots:
            self.graph.add(roots)
        self._note(start)

    def _note(self, start: int) -> None:
        """Write the line and scope noted for each op node added since ``start``. A node made
        inside one PyTorch function (``linear``'s ``TBackward0`` under its ``AddmmBackward0``)
        was never a result the mode saw: it takes the note of the node that consumes it."""
        new_ops = sum(1 for n in self.records.nodes[start:] if n["kind"] == "op")
        added = []
        for fn, op_id, out_id in reversed(self.graph.ops.values()):
            if new_ops == 0:
                break
            if op_id is not None:  # not a leaf's AccumulateGrad
                new_ops -= 1
                added.append((fn, op_id, out_id))
        new = {id(fn): (op_id, out_id) for fn, op_id, out_id in added}
        new_leaves = {n["id"] for n in self.records.nodes[start:] if n["kind"] == "tensor" and n["is_leaf"]}
        for fn, _, _ in added:  # consumers first: the graph adds inputs before their users
            made = self._made.get(id(fn))
            if made is None or made[0] is not fn:
                continue
            leaves = []
            for follow, _ in fn.next_functions:
                if follow is not None and id(follow) in new and id(follow) not in self._made:
                    self._made[id(follow)] = (follow,) + made[1:]
                elif is_accumulator(follow) and self.graph.leaves[id(follow.variable)][1] in new_leaves:
                    leaves.append(self.graph.leaves[id(follow.variable)][1])
            self._write_note(new[id(fn)], made)
            # a parameter sits in the module that first used it, as the engine draws it (so it
            # does not cut the module's run of nodes in two); the last write is the first user
            self._write_note(leaves, (None, None) + made[2:])

    def _write_note(self, node_ids, made) -> None:
        _, line, index, scope = made
        for node_id in node_ids:
            record = self.records.by_id[node_id]
            if line is not None:
                record["line"] = self.records.lines.json(line)
            if scope is not None:
                record["scope"] = scope
                self._scoped[node_id] = index

    # ----- naming -------------------------------------------------------------------
    def node_id(self, tensor) -> str | None:
        """Also an intermediate tensor's node, while the graph is held (until the block ends)."""
        found = super().node_id(tensor)
        if found is None and getattr(tensor, "grad_fn", None) is not None:
            entry = self.graph.ops.get(id(tensor.grad_fn))
            if entry is not None and entry[0] is tensor.grad_fn:
                found = entry[2]
        return found

    def root_modules(self) -> list:
        """``(index, module)`` of each outermost module called in the block and still alive."""
        return [(index, ref()) for index, (ref, _) in enumerate(self._roots) if ref() is not None]

    def rename_root(self, index: int, name: str) -> None:
        """Give the scopes under outermost call ``index`` the name ``name`` (``Net.fc1`` -> ``model.fc1``)."""
        old = self._roots[index][1]
        for node_id, root in self._scoped.items():
            record = self.records.by_id[node_id]
            if root == index and record["scope"].split(".", 1)[0] == old:
                record["scope"] = name + record["scope"][len(old):]
