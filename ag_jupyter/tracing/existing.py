"""``trace_graph``: the document of a graph that was built before any trace began.

``ag.show(loss)`` and ``%autograd_show loss`` draw a graph nobody traced while it
was built, without running its backward (like torchviz's ``make_dot``). The
graph is walked back from its roots with the same code a traced backward uses
for a graph made before the trace (``walk.adopt``): op nodes and their output
tensors get ``origin: "walked"``, leaves ``origin: "seen"``, each with a create
event in creation order. Intermediate values are known only where a node kept
its output (see ``walk.py``).

The result is a closed ``trace``: it can be entered again, or handed to a
``backward_stepper`` made inside it, to record the backward pass too.

>>> import ag_jupyter as ag
>>> from ag_jupyter.tracing import trace_graph
>>> x = ag.tensor(2.0, requires_grad=True)
>>> doc = trace_graph((x * 3).exp()).to_dict()
>>> [n.get("op") for n in doc["nodes"] if n["kind"] == "op"]
['MulBackward0', 'ExpBackward0']
"""
from __future__ import annotations

from ..tensor import TENSOR_TYPES
from .tracer import trace
from .walk import adopt


def trace_graph(roots, title: str | None = None) -> trace:
    """A trace holding the graph behind ``roots`` (a tensor, or a list/tuple of them)."""
    roots = list(roots) if isinstance(roots, (list, tuple)) else [roots]
    for root in roots:
        if root.__class__ not in TENSOR_TYPES:
            raise TypeError(f"trace_graph takes ag_jupyter tensors, got {type(root).__name__}")
    tr = trace(title)
    recorder = tr.recorder
    adopt(recorder, [r for r in roots if r.grad_fn is not None])
    for root in roots:
        recorder.tensor_id(root)  # a leaf root is a node too (a computed one was adopted above)
    return tr
