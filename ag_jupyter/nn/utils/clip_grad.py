"""Gradient clipping, as PyTorch's ``torch.nn.utils``: scale every gradient down so that
their total norm is at most ``max_norm`` (``clip_grad_norm_``), or clamp each entry
(``clip_grad_value_``). Both change the gradients in place, after ``backward()`` and
before ``optimizer.step()``."""
from __future__ import annotations

import math
import types
import warnings

import numpy

from ... import dtypes
from ...autograd.grad_mode import no_grad
from ...backend import array_module, move
from ...tensor import TENSOR_TYPES, Tensor, _wrap


def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach=None) -> Tensor:
    """Scale the gradients of ``parameters`` (a tensor or an iterable of them) by
    ``max_norm / (total_norm + 1e-6)`` when that is below 1, where ``total_norm`` is the
    ``norm_type`` norm (``inf`` for the largest entry) of all gradients together, as if
    they were one vector. Returns ``total_norm`` (before clipping), a 0-d tensor.
    ``foreach`` is accepted and changes nothing here (PyTorch's fused kernels).

    >>> import ag_jupyter as ag
    >>> w = ag.nn.Parameter(ag.zeros(2))
    >>> w.grad = ag.tensor([3.0, 4.0])
    >>> ag.nn.utils.clip_grad_norm_([w], max_norm=1.0)
    tensor(5.)
    >>> [round(g, 4) for g in w.grad.tolist()]
    [0.6, 0.8]
    """
    if parameters.__class__ in TENSOR_TYPES:
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and not parameters:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=2)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite)
    clip_grads_with_norm_(parameters, max_norm, total_norm)
    return total_norm


def get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False, foreach=None) -> Tensor:
    """The ``norm_type`` norm of ``tensors`` taken together as one vector: the norm of
    their norms, on the first tensor's device, as PyTorch computes it."""
    tensors = [tensors] if tensors.__class__ in TENSOR_TYPES else list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return _wrap(numpy.array(0.0, dtypes.get_default_dtype().numpy), False, None)
    first_device = tensors[0].device
    norms = [move(_vector_norm(t._data, norm_type), first_device) for t in tensors]
    stacked = array_module(norms[0]).stack(norms)
    total_norm = _wrap(_vector_norm(stacked, norm_type), False, None)
    if error_if_nonfinite and not math.isfinite(float(total_norm._data)):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot be "
            "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
            "`error_if_nonfinite=False`")
    return total_norm


def clip_grads_with_norm_(parameters, max_norm: float, total_norm: Tensor, foreach=None) -> None:
    """Multiply every gradient by ``min(max_norm / (total_norm + 1e-6), 1)`` in place."""
    if parameters.__class__ in TENSOR_TYPES:
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return
    max_norm = float(max_norm)
    with no_grad():
        clip_coef_clamped = (max_norm / (total_norm + 1e-6)).clamp(max=1.0)
        for grad in grads:
            grad.mul_(clip_coef_clamped.to(grad.device))


def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    """Clamp every gradient entry of ``parameters`` into ``[-clip_value, clip_value]`` in place.

    >>> import ag_jupyter as ag
    >>> w = ag.nn.Parameter(ag.zeros(3))
    >>> w.grad = ag.tensor([-3.0, 0.5, 2.0])
    >>> ag.nn.utils.clip_grad_value_(w, 1.0)
    >>> w.grad
    tensor([-1.0000,  0.5000,  1.0000])
    """
    if parameters.__class__ in TENSOR_TYPES:
        parameters = [parameters]
    clip_value = float(clip_value)
    with no_grad():
        for param in parameters:
            if param.grad is not None:
                param.grad.clamp_(min=-clip_value, max=clip_value)


def _vector_norm(array, norm_type: float):
    """``linalg.vector_norm(array, norm_type)`` of an array, in its own float dtype;
    float16 is summed in float32, as PyTorch does (300 in four entries squared is past
    float16's range, and the norm, 600, is not)."""
    xp = array_module(array)
    array = xp.asarray(array)
    if array.dtype == numpy.float16:
        return _vector_norm(array.astype(numpy.float32), norm_type).astype(numpy.float16)
    magnitudes = xp.abs(array.reshape(-1))
    if norm_type in (math.inf, -math.inf):
        if magnitudes.size == 0:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {norm_type} norm on an empty tensor "
                               "because the operation does not have an identity")
        return magnitudes.max() if norm_type > 0 else magnitudes.min()
    if norm_type == 0:
        return xp.asarray(xp.count_nonzero(magnitudes), dtype=magnitudes.dtype)
    if norm_type == 1:
        return magnitudes.sum()
    if norm_type == 2:
        return xp.sqrt((magnitudes * magnitudes).sum())
    return (magnitudes ** norm_type).sum() ** (1.0 / norm_type)
