"""Adopting a graph the recorder did not see being built.

A backward pass inside a trace may start from a tensor made before the trace
began (or a tensor made before it may be used inside it). The recorder then
walks back from the roots, without recursion, to every graph node it does not
know yet, and gives each one an op node, an output tensor node and edges, in the
order the nodes were created. Shapes and values of the adopted intermediate
tensors are known only where a node kept its output; otherwise they are null.
"""
from __future__ import annotations

from ..autograd.node import Node
from ..tensor import TENSOR_TYPES
from .op_info import describe
from .summary import device_name, dtype_name, record


def _unknown(recorder, fn) -> bool:
    entry = recorder.ops.get(fn._seq)
    return entry is None or entry[0] is None


def adopt(recorder, roots, nodes=()) -> None:
    """Record the unknown part of the graph behind ``roots`` (tensors) and ``nodes``."""
    root_of = {}
    starts = list(nodes)
    for root in roots:
        if root.grad_fn is not None:
            root_of[id(root.grad_fn)] = root
            starts.append(root.grad_fn)
    found = {id(fn): fn for fn in starts if _unknown(recorder, fn)}
    stack = list(found.values())
    while stack:
        fn = stack.pop()
        for follow in fn._next:
            if isinstance(follow, Node) and id(follow) not in found and _unknown(recorder, follow):
                found[id(follow)] = follow
                stack.append(follow)
    for fn in sorted(found.values(), key=lambda n: n._seq):  # creation order: inputs first
        _adopt_node(recorder, fn, root_of.get(id(fn)))


def _adopt_node(recorder, fn, root) -> None:
    input_ids = []
    for follow in fn._next:
        if follow is None:
            input_ids.append(None)
        elif isinstance(follow, Node):
            input_ids.append(recorder.ops[follow._seq][1])
        else:
            input_ids.append(recorder.tensor_id(follow))
    name, symbol, formula = describe(fn)
    op = recorder.op(name, symbol, formula, "walked")
    op_id = op["id"]
    entry = recorder.ops.get(fn._seq)
    if entry is not None:
        out_id = entry[1]  # its output was met before as a tensor of unknown origin
    else:
        data = root._data if root is not None else getattr(fn, "out", None) if fn.saves_output else None
        if data is None:
            out = recorder.tensor(None, None, None, True, False, "walked")
        else:
            out = recorder.tensor([int(n) for n in data.shape], dtype_name(data.dtype), device_name(data), True,
                                  False, "walked", record(data, recorder.exact))
        out_id = out["id"]
    saved = [{"node": recorder.tensor_id(x)} for x in (fn.saved or ())
             if x.__class__ in TENSOR_TYPES]
    if fn.saves_output:
        saved.append({"node": out_id, "output": True})
    op["saved"] = saved
    for arg, tensor_id in enumerate(input_ids):
        if tensor_id is not None:
            recorder.edge(tensor_id, op_id, arg)
    recorder.edge(op_id, out_id, 0)
    recorder.consumed(op_id, input_ids)
    recorder.ops[fn._seq] = (op_id, out_id)
