"""A PyTorch autograd graph, added to trace records node by node.

Used by ``from_torch`` (one static picture) and ``trace_torch`` (the graph of
each backward it watches). The walk is iterative, so graphs of any depth work.

PyTorch's ``grad_fn`` graph holds op nodes and, for leaves, ``AccumulateGrad``
nodes whose ``variable`` is the leaf; the tensors in between are not reachable
from it. So each op gets an output tensor node whose shape is known only where
the node saved its result (``_saved_result``) or for the root tensor itself.
Graph nodes have no weak references; a ``TorchGraph`` holds the ones it has seen,
for as long as it lives, so that their ``id()`` stays theirs.
"""
from __future__ import annotations

import heapq

import numpy

from .op_info import by_torch_name
from .summary import summarize


def is_accumulator(fn) -> bool:
    return hasattr(fn, "variable")


def node_name(fn) -> str:
    return fn.name().rsplit("::", 1)[-1]  # "torch::autograd::AccumulateGrad" -> "AccumulateGrad"


def to_numpy(t) -> numpy.ndarray:
    """A host NumPy array with a tensor's numbers (no copy for a CPU tensor)."""
    import torch  # already imported by whoever handed us a tensor

    t = t.detach()
    if t.device.type != "cpu":
        t = t.cpu()
    if t.is_complex():
        t = t.abs()
    elif t.dtype == torch.bfloat16:  # NumPy has no bfloat16
        t = t.float()
    return t.numpy()


def _meta(t) -> tuple:
    return [int(n) for n in t.shape], str(t.dtype).replace("torch.", ""), str(t.device)


class TorchGraph:
    """Adds PyTorch graph nodes to ``records``; remembers what it has added."""

    def __init__(self, records, params=None):
        self.records = records
        self.ops: dict = {}  # id(fn) -> (fn, op id, output tensor id)
        self.leaves: dict = {}  # id(leaf tensor) -> (leaf, tensor id)
        self.inputs: dict = {}  # op id -> tensor id (or None) per next_functions entry
        items = params.items() if hasattr(params, "items") else (params or ())
        self.names = {id(t): name for name, t in items}
        self._saved_names: dict = {}  # node type -> its _saved_* attribute names

    # ----- tensors ----------------------------------------------------------------
    def leaf_id(self, t, origin: str = "walked") -> str:
        entry = self.leaves.get(id(t))
        if entry is not None:
            return entry[1]
        shape, dtype, device = _meta(t)
        record = self.records.tensor(shape, dtype, device, bool(t.requires_grad), True, origin,
                                     summarize(to_numpy(t)))
        name = self.names.get(id(t))
        if name is not None:
            record["label"] = name
            record["param"] = name
        self.leaves[id(t)] = (t, record["id"])
        return record["id"]

    # ----- the walk ---------------------------------------------------------------
    def add(self, roots) -> list:
        """Add what is new in the graphs behind ``roots`` (tensors or nodes); return
        the root ids (a tensor's own node, or a node's output tensor)."""
        starts, root_tensor, ids = [], {}, []
        for root in roots:
            fn = getattr(root, "grad_fn", root) if hasattr(root, "requires_grad") else root
            if fn is None:
                ids.append(self.leaf_id(root, "seen"))
                continue
            starts.append(fn)
            if fn is not root:
                root_tensor[id(fn)] = root
        for fn in self._new_in_order(starts):
            if is_accumulator(fn):
                self._add_accumulator(fn)  # a leaf given as a root itself
            else:
                self._add_op(fn, root_tensor.get(id(fn)))
        ids.extend(self.ops[id(fn)][2] for fn in starts)
        return ids

    def _add_accumulator(self, fn) -> str:
        entry = self.ops.get(id(fn))
        if entry is None:
            entry = self.ops[id(fn)] = (fn, None, self.leaf_id(fn.variable))
        return entry[2]

    def _new_in_order(self, starts) -> list:
        """The op nodes not added yet, inputs before consumers, in creation order where
        PyTorch tells it (``_sequence_nr``); Kahn's algorithm, so no recursion. Leaves
        (AccumulateGrad) are left out: each is added just before its first consumer."""
        found = {id(fn): fn for fn in starts if id(fn) not in self.ops}
        stack = list(found.values())
        waiting: dict = {}  # id -> number of new inputs not placed yet
        users: dict = {}
        while stack:
            fn = stack.pop()
            count = 0
            for follow, _ in fn.next_functions:
                if follow is None or id(follow) in self.ops or is_accumulator(follow):
                    continue
                count += 1
                users.setdefault(id(follow), []).append(fn)
                if id(follow) not in found:
                    found[id(follow)] = follow
                    stack.append(follow)
            waiting[id(fn)] = count
        ready = [(_sequence(fn), n, fn) for n, fn in enumerate(found.values()) if waiting[id(fn)] == 0]
        heapq.heapify(ready)
        order, tie = [], len(found)
        while ready:
            fn = heapq.heappop(ready)[2]
            order.append(fn)
            for user in users.get(id(fn), ()):
                waiting[id(user)] -= 1
                if waiting[id(user)] == 0:
                    tie += 1
                    heapq.heappush(ready, (_sequence(user), tie, user))
        return order

    def _add_op(self, fn, root) -> None:
        input_ids = []
        for follow, _ in fn.next_functions:
            if follow is None:
                input_ids.append(None)
            elif is_accumulator(follow):
                input_ids.append(self._add_accumulator(follow))
            else:
                input_ids.append(self.ops[id(follow)][2])
        name = node_name(fn)
        symbol, formula = by_torch_name(name)
        saved, result = self._saved(fn)
        op = self.records.op(name, symbol, formula, "walked")
        source = root if root is not None else result
        if source is not None:
            shape, dtype, device = _meta(source)
            out = self.records.tensor(shape, dtype, device, True, False, "walked",
                                      summarize(to_numpy(source)))
        else:
            out = self.records.tensor(None, None, None, True, False, "walked")
        for entry in saved:
            if entry.get("output"):
                entry["node"] = out["id"]
        op["saved"] = saved
        for arg, tensor_id in enumerate(input_ids):
            if tensor_id is not None:
                self.records.edge(tensor_id, op["id"], arg)
        self.records.edge(op["id"], out["id"], 0)
        self.inputs[op["id"]] = input_ids
        self.ops[id(fn)] = (fn, op["id"], out["id"])

    def _saved(self, fn) -> tuple:
        """The tensors a node saved for backward (torchviz's ``show_saved``), and its
        saved result if it kept one."""
        kind = type(fn)
        names = self._saved_names.get(kind)
        if names is None:
            names = self._saved_names[kind] = [a for a in dir(fn) if a.startswith("_saved_")]
        saved, result = [], None
        for attr in names:
            try:
                value = getattr(fn, attr)
            except RuntimeError:  # freed by an earlier backward
                continue
            if not hasattr(value, "grad_fn") or not hasattr(value, "detach"):
                continue
            label = attr[len("_saved_"):]
            if label == "result":
                result = value
                saved.append({"node": None, "output": True, "name": label})
            elif id(value) in self.leaves:
                saved.append({"node": self.leaves[id(value)][1], "name": label})
            else:
                saved.append({"node": None, "name": label, "value": summarize(to_numpy(value))})
        return saved, result

    def reachable(self, roots) -> list:
        """Every node behind ``roots`` (for hooks), known or not."""
        stack = [getattr(r, "grad_fn", r) if hasattr(r, "requires_grad") else r for r in roots]
        stack = [fn for fn in stack if fn is not None]
        seen = {id(fn): fn for fn in stack}
        while stack:
            for follow, _ in stack.pop().next_functions:
                if follow is not None and id(follow) not in seen:
                    seen[id(follow)] = follow
                    stack.append(follow)
        return list(seen.values())


def _sequence(fn) -> int:
    get = getattr(fn, "_sequence_nr", None)
    return get() if get is not None else 0
