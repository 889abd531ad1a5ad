"""Batch and layer normalization, one node each as PyTorch draws them
(``NativeBatchNormBackward0``, ``NativeLayerNormBackward0``), with inputs
``(input, weight, bias)``.

Both standardize ``x`` over some dimensions, ``x̂ = (x - mean) / sqrt(var + eps)`` with
the biased variance, then scale and shift per feature: ``y = x̂ * weight + bias``. Batch
norm takes its statistics over every dimension but the channels (dim 1), or uses the
running ones in evaluation; layer norm takes them over the trailing
``normalized_shape`` of each sample. The backward of standardization is

    ā = invstd * (ḡ - mean(ḡ) - x̂ * mean(ḡ * x̂)),  ḡ = ū * weight,

the means over the same dimensions. A plain backward reads ``x̂`` and ``invstd`` saved
by the forward; under ``create_graph`` they are recomputed from ``x`` as tensors, so the
second derivative sees how the statistics move with ``x``.
"""
from __future__ import annotations

import math

import numpy

from ..autograd.function import Op
from ..backend import array_module
from ..dtypes import scalar_type_name
from .dims import normalize_dim


def _work_dtype(x, params, kernel: str):
    """The dtype the statistics are computed in: the parameters', which must be the input's
    (or float32 beside a float16 input, PyTorch's one mixed case on the CPU); float32 for a
    float16 input with none."""
    if x.dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{scalar_type_name(x)}\'')
    kinds = {p.dtype for p in params if p is not None}
    if len(kinds) > 1 or (kinds and kinds != {x.dtype} and not (x.dtype == numpy.float16 and
                                                                 kinds == {numpy.dtype(numpy.float32)})):
        names = ", ".join(sorted({scalar_type_name(p) for p in params if p is not None}))
        raise RuntimeError(f"mixed dtype (CPU): expect parameters ({names}) to have the input's scalar "
                           f"type {scalar_type_name(x)} (or Float beside a Half input)")
    if kinds:
        return kinds.pop()
    return numpy.dtype(numpy.float32) if x.dtype == numpy.float16 else x.dtype


def _standardize(F, x, dims, count: int, eps: float):
    """``(x̂, invstd)`` of ``x`` over ``dims`` (kept), in the algebra ``F``."""
    centred = x - F.sum(x, dims, True) * (1.0 / count)
    variance = F.sum(centred * centred, dims, True) * (1.0 / count)
    invstd = 1 / F.sqrt(variance + eps)
    return centred * invstd, invstd


class _Normalization(Op):
    """Shared by both: ``dims`` are standardized over, ``param_shape`` is how ``weight``
    and ``bias`` broadcast against the input, ``param_dims`` what their gradients sum over."""

    __slots__ = ("dims", "count", "eps", "param_shape", "param_dims", "xhat", "invstd", "fixed",
                 "in_dtype", "work")
    arity = 3
    formula_args = ("a", "w", "b")

    def _finish(self, input, weight, bias, x, xhat, invstd, fixed=None):
        """Scale and shift ``x̂``; keep what backward reads."""
        self.saved = (input, weight, bias)
        self.xhat, self.invstd, self.fixed = xhat, invstd, fixed
        out = xhat
        if weight is not None:
            out = out * weight._data.reshape(self.param_shape)
        if bias is not None:
            out = out + bias._data.reshape(self.param_shape)
        self.in_dtype = x.dtype
        return out.astype(x.dtype, copy=False)

    def backward(self, F, grad):
        input, weight, bias = self.saved
        follow_input, follow_weight, follow_bias = self._next
        grad = F.cast(grad, self.work)
        if F.records and self.fixed is None:  # statistics that move with x: recompute them as tensors
            xhat, invstd = _standardize(F, F.cast(input, self.work), self.dims, self.count, self.eps)
        else:
            xhat, invstd = F.constant(self.xhat), F.constant(self.invstd)
            if F.records:  # evaluation: x̂ is linear in x, with the running statistics as constants
                xhat = (F.cast(input, self.work) - F.constant(self.fixed)) * invstd
        scaled = grad if weight is None else grad * F.reshape(F.value(weight), self.param_shape)
        grad_input = grad_weight = grad_bias = None
        if follow_input is not None:
            if self.fixed is not None:
                grad_input = scaled * invstd
            else:
                mean_scaled = F.sum(scaled, self.dims, True) * (1.0 / self.count)
                mean_along = F.sum(scaled * xhat, self.dims, True) * (1.0 / self.count)
                grad_input = invstd * (scaled - mean_scaled - xhat * mean_along)
            grad_input = F.cast(grad_input, self.in_dtype)
        if weight is not None and follow_weight is not None:
            grad_weight = self._to_param(F, grad * xhat, weight)
        if bias is not None and follow_bias is not None:
            grad_bias = self._to_param(F, grad, bias)
        return grad_input, grad_weight, grad_bias


    def _to_param(self, F, values, param):
        """``values`` summed down to ``param``'s shape (nothing to sum for a single sample)."""
        summed = F.sum(values, self.param_dims, False) if self.param_dims else values
        return F.reshape(summed, tuple(param.shape))


class NativeBatchNorm(_Normalization):
    __slots__ = ()
    node_name = "NativeBatchNormBackward0"
    symbol = "batch norm"
    formula = (r"u = w\,\hat a + b,\ \hat a = \frac{a - \mu_c}{\sqrt{\sigma_c^2 + \epsilon}}:\quad "
               r"\frac{\partial L}{\partial a} = \frac{w}{\sigma}\,(\bar u - \overline{\bar u} - "
               r"\hat a\,\overline{\bar u \hat a})")

    def forward(self, input, weight, bias, running_mean, running_var, training, momentum, eps):
        x = input._data
        params = [t._data if t is not None else None for t in (weight, bias, running_mean, running_var)]
        self.work = work = _work_dtype(x, params, "batch_norm")
        if x.ndim < 2:
            raise ValueError(f"batch_norm: expected an input of 2 or more dimensions (N, C, ...), "
                             f"got {list(x.shape)}")
        channels = x.shape[1]
        for name, p in zip(("weight", "bias", "running_mean", "running_var"), params):
            if p is not None and p.size != channels:  # PyTorch's words: one per channel (dim 1)
                raise RuntimeError(f"{name} should contain {channels} elements not {p.size}")
        self.dims = (0,) + tuple(range(2, x.ndim))
        self.param_dims = self.dims
        self.param_shape = (1, channels) + (1,) * (x.ndim - 2)
        self.count = x.size // channels if channels else 0
        self.eps = eps
        xp = array_module(x)
        values = x.astype(work, copy=False)
        if not training:
            mean = params[2].astype(work).reshape(self.param_shape)
            invstd = 1 / xp.sqrt(params[3].astype(work).reshape(self.param_shape) + eps)
            return self._finish(input, weight, bias, x, (values - mean) * invstd, invstd, fixed=mean)
        mean = values.mean(axis=self.dims, keepdims=True)
        centred = values - mean
        variance = (centred * centred).mean(axis=self.dims, keepdims=True)
        invstd = 1 / xp.sqrt(variance + eps)
        out = self._finish(input, weight, bias, x, centred * invstd, invstd)
        if running_mean is not None:  # last, so a failing call changes no statistic
            unbiased = variance * (self.count / max(self.count - 1, 1)) if self.count > 1 else \
                variance * math.inf
            _blend(running_mean, mean.reshape(channels), momentum)
            _blend(running_var, unbiased.reshape(channels), momentum)
        return out


def _blend(buffer, batch, momentum: float) -> None:
    """``buffer = (1 - momentum) * buffer + momentum * batch``, in the buffer's own memory
    (a ``state_dict`` taken earlier shares it, as in PyTorch)."""
    array = buffer._data
    array[...] = (1 - momentum) * array + momentum * batch.astype(array.dtype, copy=False)


class NativeLayerNorm(_Normalization):
    __slots__ = ()
    node_name = "NativeLayerNormBackward0"
    symbol = "layer norm"
    formula = (r"u = w\,\hat a + b,\ \hat a = \frac{a - \mu}{\sqrt{\sigma^2 + \epsilon}} \text{ per sample}:\quad "
               r"\frac{\partial L}{\partial a} = \frac{1}{\sigma}\,(\bar g - \overline{\bar g} - "
               r"\hat a\,\overline{\bar g \hat a}),\ \bar g = w \bar u")

    def forward(self, input, weight, bias, normalized_shape, eps):
        x = input._data
        params = [t._data if t is not None else None for t in (weight, bias)]
        self.work = work = _work_dtype(x, params, "LayerNormKernelImpl")
        shape = tuple(normalized_shape)
        k = len(shape)
        if k == 0 or x.shape[x.ndim - k:] != shape or x.ndim < k:
            raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                               f"[*, {', '.join(map(str, shape))}], but got input of size{list(x.shape)}")
        for name, p in zip(("weight", "bias"), params):
            if p is not None and p.shape != shape:
                raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of "
                                   f"shape {list(p.shape)} and normalized_shape = {list(shape)}")
        self.dims = tuple(normalize_dim(d, x.ndim) for d in range(-k, 0))
        self.param_dims = tuple(range(x.ndim - k))
        self.param_shape = shape
        self.count = math.prod(shape)
        self.eps = eps
        xp = array_module(x)
        values = x.astype(work, copy=False)
        mean = values.mean(axis=self.dims, keepdims=True)
        centred = values - mean
        invstd = 1 / xp.sqrt((centred * centred).mean(axis=self.dims, keepdims=True) + eps)
        return self._finish(input, weight, bias, x, centred * invstd, invstd)


def batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps):
    return NativeBatchNorm.apply(input, weight, bias, running_mean, running_var, training, momentum, eps)


def layer_norm(input, normalized_shape, weight, bias, eps):
    return NativeLayerNorm.apply(input, weight, bias, normalized_shape, eps)
