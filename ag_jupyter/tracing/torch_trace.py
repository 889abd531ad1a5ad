"""``with ag.trace_torch() as tr: loss.backward()``: PyTorch's real backward order.

While the block runs, a ``TorchFunctionMode`` sees each ``Tensor.backward``,
``torch.autograd.backward`` and ``torch.autograd.grad`` call. Before letting it
run, it adds the graph to the trace and puts a post-hook on every node
(``Node.register_hook``); the hooks fire in the order PyTorch's engine runs the
nodes and become ``backward_step`` events (``accumulate`` for AccumulateGrad).
The hooks are removed when the call returns.

The trace holds the graph nodes it saw (PyTorch's nodes have no weak
references, and ids must stay unique) until the block ends; then it holds only
summaries and ids.
"""
from __future__ import annotations

import weakref

from . import document
from .chain import RunningTotals, local_derivative
from .records import Records
from .summary import nonfinite, summarize
from .torch_graph import TorchGraph, is_accumulator, to_numpy
from .torch_import import require_torch

_mode_class = None


def _summary(t):
    return None if t is None else summarize(to_numpy(t))


class trace_torch:  # noqa: N801 - a context manager named like the function users call
    """Record the graphs and backward order of PyTorch backward calls in the block."""

    watches_forward = False  # whether each function's result goes to ``forward_ran`` (torch_cell.py)

    def __init__(self, title: str | None = None, params=None):
        """``params`` names leaves, as ``from_torch``'s does (``model.named_parameters()``)."""
        self.torch = require_torch("ag.trace_torch")
        self.records = Records(title, "torch")
        self.params = dict(params.items() if hasattr(params, "items") else (params or ()))
        self.graph = TorchGraph(self.records, self.params)
        self._mode = None
        self._totals = RunningTotals()
        self._edges_counted = 0
        # id(tensor) -> (weak reference, tensor id) for leaves and backward roots, so
        # ``ag.show(tr, names=...)`` can name them after the block (PyTorch's graph
        # nodes cannot be referenced weakly, so intermediate tensors cannot be named)
        self._named: dict = {}

    def __enter__(self) -> "trace_torch":
        self._mode = _make_mode_class(self.torch)(self)
        self._mode.__enter__()
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        self._mode.__exit__(exc_type, exc, tb)
        self._mode = None
        for leaf, tensor_id in self.graph.leaves.values():
            self._remember(leaf, tensor_id)
        self.graph = TorchGraph(self.records)  # let go of PyTorch's nodes and leaves
        self.params = {}
        if exc is not None:
            self.records.events.append({"type": "error", "error_type": type(exc).__name__,
                                        "message": str(exc)})
        return False

    def to_dict(self) -> dict:
        return document.build(self.records)

    def to_json(self, **kwargs) -> str:
        import json  # only here: importing ag_jupyter stays light

        return json.dumps(self.to_dict(), **kwargs)

    # ----- naming nodes after the fact -----------------------------------------------
    def node_id(self, tensor) -> str | None:
        """The id of a leaf's or a backward root's node, or None (also for intermediate tensors)."""
        entry = self._named.get(id(tensor)) or self.graph.leaves.get(id(tensor))
        if entry is None:
            return None
        held = entry[0]() if isinstance(entry[0], weakref.ref) else entry[0]
        return entry[1] if held is tensor else None

    def set_label(self, node_id: str, label: str) -> None:
        self.records.name_node(node_id, label)

    def _remember(self, tensor, tensor_id: str) -> None:
        try:
            self._named[id(tensor)] = (weakref.ref(tensor), tensor_id)
        except TypeError:  # not weakly referable: it cannot be named later, nothing else changes
            pass

    # ----- one backward -----------------------------------------------------------
    def run_backward(self, func, roots, args, kwargs):
        graph, events = self.graph, self.records.events
        root_ids = graph.add(roots)
        for root in roots:
            if isinstance(root, self.torch.Tensor) and root.grad_fn is not None:
                self._remember(root, graph.ops[id(root.grad_fn)][2])
        events.append({"type": "backward_begin", "roots": root_ids})
        # counted from the edges added since the last backward only: a loop stays linear
        self._totals.count((src,) for src, dst, _ in self.records.edges[self._edges_counted:] if dst[0] == "o")
        self._edges_counted = len(self.records.edges)
        # PyTorch accumulates .grad in place: the values from before must be copied
        priors = {tensor_id: to_numpy(t.grad).copy() for t, tensor_id in graph.leaves.values()
                  if t.requires_grad and t.grad is not None}
        self._totals.begin(priors)
        handles = [fn.register_hook(self._hook(fn)) for fn in graph.reachable(roots)]
        completed = False
        try:
            result = func(*args, **kwargs)
            completed = True
            return result
        finally:
            for handle in handles:
                handle.remove()
            grad_none = [tensor_id for t, tensor_id in graph.leaves.values()
                         if t.requires_grad and t.grad is None]
            events.append({"type": "backward_end", "completed": completed, "grad_none": grad_none})

    def _hook(self, fn):
        graph, records = self.graph, self.records
        if is_accumulator(fn):
            leaf = fn.variable
            tensor_id = graph.leaves[id(leaf)][1]

            def accumulated(grad_inputs, grad_outputs):
                try:
                    summary = _summary(leaf.grad)
                    records.by_id[tensor_id]["grad"] = summary
                    records.events.append({"type": "accumulate", "node": tensor_id, "grad": summary})
                except Exception as error:  # noqa: BLE001 - never break PyTorch's backward
                    records.warn(f"the tracer failed in a PyTorch hook: {type(error).__name__}: {error}")
            return accumulated

        op_id = graph.ops[id(fn)][1]

        def stepped(grad_inputs, grad_outputs):
            try:
                record(grad_inputs, grad_outputs)
            except Exception as error:  # noqa: BLE001 - never break PyTorch's backward
                records.warn(f"the tracer failed in a PyTorch hook: {type(error).__name__}: {error}")

        def record(grad_inputs, grad_outputs):
            received = to_numpy(grad_outputs[0]) if grad_outputs and grad_outputs[0] is not None else None
            grad_output = None if received is None else summarize(received)
            input_ids = graph.inputs[op_id]
            grads = []
            for arg, g in enumerate(grad_inputs):
                target = input_ids[arg] if arg < len(input_ids) else None
                entry = {"arg": arg, "node": target, "grad": None}
                if g is not None:
                    array = to_numpy(g)
                    entry["grad"] = summarize(array)
                    local = local_derivative(received, array)
                    if local is not None:
                        entry["local"] = local
                    # copied: PyTorch may add the next contribution into this very buffer
                    total = None if target is None else self._totals.add(target, array.copy())
                    if total is not None:
                        entry["total"] = summarize(total)
                grads.append(entry)
            event = {"type": "backward_step", "node": op_id, "grad_output": grad_output,
                     "grad_inputs": grads, "formula": records.by_id[op_id]["formula"]}
            if any(nonfinite(g["grad"]) for g in grads) and not nonfinite(grad_output):
                event["nonfinite_origin"] = True
            records.events.append(event)
        return stepped


def _make_mode_class(torch):
    """The TorchFunctionMode subclass, made once torch is imported."""
    global _mode_class
    if _mode_class is not None:
        return _mode_class
    from torch.overrides import TorchFunctionMode

    watched = {torch.Tensor.backward: "tensor", torch.autograd.backward: "tensors",
               torch.autograd.grad: "outputs"}

    class _BackwardWatch(TorchFunctionMode):
        def __init__(self, tracer):
            super().__init__()
            self.tracer = tracer

        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if func not in watched:
                result = func(*args, **kwargs)
                if self.tracer.watches_forward:
                    self.tracer.forward_ran(result)
                return result
            roots = args[0] if args else kwargs.get(watched[func])
            roots = [roots] if isinstance(roots, torch.Tensor) else list(roots)
            return self.tracer.run_backward(func, roots, args, kwargs)

    _mode_class = _BackwardWatch
    return _mode_class
