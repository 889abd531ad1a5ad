"""softmax and log_softmax along a dimension, computed stably."""
from __future__ import annotations

import numpy

from .. import gpu_kernels
from ..autograd.function import Op
from ..backend import array_module
from ..promotion import require_floating
from .dims import normalize_dim


class Softmax(Op):
    __slots__ = ("out", "dim")
    saves_output = True
    node_name = "SoftmaxBackward0"
    symbol = "softmax"
    formula = (r"\frac{\partial u_i}{\partial a_j} = u_i(\delta_{ij} - u_j),\quad "
               r"\bar a = u \odot (\bar u - \textstyle\sum_j \bar u_j u_j)")

    def forward(self, a, dim):
        x = a._data
        self.dim = _axis(dim, x)
        if x.size == 0:  # nothing to compute: PyTorch returns an empty tensor of any dtype
            out = self.out = x.copy()
            return out
        require_floating(x, "softmax")
        xp = array_module(x)
        e = xp.exp(x - x.max(axis=self.dim, keepdims=True))
        out = self.out = e / e.sum(axis=self.dim, keepdims=True)
        return out

    def backward(self, F, grad):
        out = F.output(self)
        return (out * (grad - F.sum(grad * out, _dims(self.dim), True)),)


class LogSoftmax(Op):
    __slots__ = ("out", "dim")
    saves_output = True
    node_name = "LogSoftmaxBackward0"
    symbol = "log softmax"
    formula = (r"\frac{\partial u_i}{\partial a_j} = \delta_{ij} - \operatorname{softmax}(a)_j,\quad "
               r"\bar a = \bar u - e^{u} \textstyle\sum_j \bar u_j")

    def forward(self, a, dim):
        x = a._data
        self.dim = _axis(dim, x)
        if x.size == 0:
            out = self.out = x.copy()
            return out
        require_floating(x, "log_softmax")
        if x.__class__ is numpy.ndarray and x.ndim == 2 and self.dim == 1:
            out = self.out = _log_softmax_rows(x)
            return out
        xp = array_module(x)
        shifted = x - x.max(axis=self.dim, keepdims=True)
        out = self.out = shifted - xp.log(xp.exp(shifted).sum(axis=self.dim, keepdims=True))
        return out

    def backward(self, F, grad):
        out = F.output(self)
        summed = F.sum(grad, _dims(self.dim), True)
        if grad.__class__ is not numpy.ndarray and not F.records and gpu_kernels.fusable(grad, out, summed):
            return (gpu_kernels.log_softmax_backward(grad, out, summed),)  # one launch for exp, *, -
        return (grad - F.exp(out) * summed,)


def _log_softmax_rows(x):
    """``log_softmax`` of (N, C) class scores over C, on NumPy, writing into the arrays it made.
    The rows are short, and NumPy reduces each row separately (a cost per row): their maxima
    come from the columns of a transposed copy, their sums from a product with ones, each half
    the cost of the row-wise reduction."""
    largest = numpy.maximum.reduce(numpy.ascontiguousarray(x.T), 0)[:, None]
    shifted = numpy.subtract(x, largest)
    total = numpy.dot(numpy.exp(shifted), _ones(x.shape[1], x.dtype))[:, None]
    return numpy.subtract(shifted, numpy.log(total, out=total), out=shifted)


_ONES: dict = {}


def _ones(length: int, dtype):
    ones = _ONES.get((length, dtype))
    if ones is None:
        ones = _ONES[length, dtype] = numpy.ones(length, dtype)
        ones.flags.writeable = False
    return ones


def _axis(dim, x):
    """The axis to normalise over; None for a 0-d tensor (its dim 0 is the tensor itself)."""
    axis = normalize_dim(dim, x.ndim)
    return axis if x.ndim else None


def _dims(axis):
    return None if axis is None else (axis,)


def softmax(input, dim):
    return Softmax.apply(input, dim)


def log_softmax(input, dim):
    return LogSoftmax.apply(input, dim)
