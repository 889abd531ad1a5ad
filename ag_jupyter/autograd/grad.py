"""``ag.autograd.grad``: gradients of outputs with respect to chosen inputs, returned
instead of accumulated into ``.grad``."""
from __future__ import annotations

import numpy

from ..core import TENSOR_TYPES, _wrap
from .engine import steps
from .leaves import leaf


def _as_list(x) -> list:
    return [x] if x.__class__ in TENSOR_TYPES else list(x)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=False, materialize_grads=False) -> tuple:
    """
    >>> import ag_jupyter as ag
    >>> x = ag.tensor(3.0, requires_grad=True)
    >>> (dx,) = ag.autograd.grad(x ** 2, x)
    >>> dx.item()
    6.0
    """
    outputs, inputs = _as_list(outputs), _as_list(inputs)
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    else:
        grad_outputs = _as_list(grad_outputs) if grad_outputs.__class__ in TENSOR_TYPES else list(grad_outputs)
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(f"grad requires one grad_output per output: got {len(grad_outputs)} "
                           f"for {len(outputs)} outputs")
    captured = {}
    for index, tensor in enumerate(inputs):
        if not tensor.requires_grad:
            raise RuntimeError(f"One of the differentiated Tensors (input {index}) does not require grad")
        captured[tensor.grad_fn if tensor.grad_fn is not None else tensor] = None
    for _ in steps(outputs, grad_outputs, retain_graph, create_graph, accumulate=False, captured=captured,
                   report=False):
        pass
    result = []
    for index, tensor in enumerate(inputs):
        found = captured[tensor.grad_fn if tensor.grad_fn is not None else tensor]
        if found is None:
            if materialize_grads:
                result.append(leaf(numpy.zeros(tensor.shape, tensor._data.dtype), tensor.device))
                continue
            if not allow_unused:
                raise RuntimeError(
                    f"One of the differentiated Tensors (input {index}) appears to not have been "
                    f"used in the graph. Set allow_unused=True if this is the desired behavior."
                )
            result.append(None)
        elif found.__class__ in TENSOR_TYPES:
            result.append(found)
        else:
            result.append(_wrap(found.copy() if getattr(found, "base", None) is not None else found, False, None))
    return tuple(result)
