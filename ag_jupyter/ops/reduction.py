"""Reductions: sum, mean, max/min (whole and along a dim), var, std, norm."""
from __future__ import annotations

import math
from collections import namedtuple

import numpy

from ..autograd.algebra import ARRAYS
from ..autograd.function import Op
from ..backend import array_module
from ..core import TENSOR_TYPES, _wrap
from ..promotion import refuse_bool, require_floating
from .dims import kept_shape, normalize_dim, normalize_dims, reduced_count
from .elementwise import maximum, minimum

_SUMMED_AS_IS = {numpy.dtype(numpy.float32), numpy.dtype(numpy.float64)}  # NumPy sums float16 in float32


class Reduction(Op):
    """Reduces one input over ``dims``; backward broadcasts back through ``spread``."""

    __slots__ = ("dims", "keepdim", "in_shape")

    def setup(self, a, dim, keepdim):
        shape = self.in_shape = a._data.shape
        dims = None if dim is None else normalize_dims(dim, len(shape))
        if not shape:
            dims = None  # dim 0 (or -1) of a 0-d tensor is the tensor itself, as in PyTorch
        self.dims, self.keepdim = dims, keepdim
        return dims

    def spread(self, F, grad):
        """The output's gradient, broadcast back over the reduced dimensions."""
        if not self.keepdim and self.dims is not None:  # a whole reduction's 0-d gradient broadcasts as it is
            grad = F.reshape(grad, kept_shape(self.in_shape, self.dims))
        return F.expand(grad, self.in_shape)

    def name(self) -> str:
        return self.node_name if self.dims is None else self.node_name[:-1] + "1"


class Sum(Reduction):
    __slots__ = ()
    node_name = "SumBackward0"
    symbol = "Σ"
    formula = r"\frac{\partial u}{\partial a_i} = 1"

    def forward(self, a, dim=None, keepdim=False):
        if a._data.dtype.kind == "u":  # NumPy sums uint8 as uint64, a dtype PyTorch refuses; it sums as int64
            return ARRAYS.sum(a._data.astype(numpy.int64), self.setup(a, dim, keepdim), keepdim)
        return ARRAYS.sum(a._data, self.setup(a, dim, keepdim), keepdim)

    def backward(self, F, grad):
        return (self.spread(F, grad),)


class Mean(Reduction):
    __slots__ = ()
    node_name = "MeanBackward0"
    symbol = "mean"
    formula = r"\frac{\partial u}{\partial a_i} = \frac{1}{n}"

    def forward(self, a, dim=None, keepdim=False):
        if a._data.dtype.kind != "f":
            raise RuntimeError(
                f"mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {a.dtype.name.capitalize()}"
            )
        dims = self.setup(a, dim, keepdim)
        x = a._data
        if x.__class__ is numpy.ndarray and x.dtype in _SUMMED_AS_IS and x.size:
            # NumPy's mean is this sum and division behind ~2.5 us of Python (_methods._mean);
            # a float32 quotient comes out the same whether divided in float32 or, as
            # there, in float64 and rounded back. NumPy's own sum, not ARRAYS.sum's BLAS
            # path for leading dims: mean promises NumPy's values bit for bit.
            return numpy.add.reduce(x, dims, None, None, keepdim) / reduced_count(x.shape, dims)
        return x.mean(axis=dims, keepdims=keepdim)

    def backward(self, F, grad):
        spread = self.spread(F, grad)
        # the count as operand's 0-d array: NumPy promotes a Python int again on every call
        # (an empty input's gradient is empty: any divisor will do)
        return (spread / F.operand(reduced_count(self.in_shape, self.dims) or 1, spread),)


class Max(Reduction):
    """``max()`` of all elements (``Min`` is the same op picking the other end): ties share
    the gradient evenly, as in PyTorch."""

    __slots__ = ("out",)
    saves_output = True
    node_name = "MaxBackward1"
    symbol = "max"
    formula = r"\frac{\partial u}{\partial a_i} = \frac{[a_i = u]}{\#\{j : a_j = u\}}"
    pick = "max"

    def name(self) -> str:
        return self.node_name

    def forward(self, a):
        if a._data.size == 0:
            raise RuntimeError(f"{self.pick}(): Expected reduction dim to be specified for input.numel() == 0.")
        self.saved = (a,)
        self.setup(a, None, False)
        out = self.out = getattr(a._data, self.pick)()
        return out

    def backward(self, F, grad):
        a, out = F.value(self.saved[0]), F.output(self)
        hits = (a == out) | ((a != a) & (out != out))  # a NaN result: the NaNs share the gradient
        return (F.masked(self.spread(F, grad), hits) / float(hits.sum()),)


class Min(Max):
    __slots__ = ()
    node_name = "MinBackward1"
    symbol = "min"
    pick = "min"
    formula = Max.formula


class MaxAlongDim(Reduction):
    """The values of ``max(dim)`` (``MinAlongDim``: of ``min(dim)``); the gradient goes to
    the chosen index only."""

    __slots__ = ("picked",)
    node_name = "MaxBackward0"
    symbol = "max"
    formula = r"\frac{\partial u_j}{\partial a_{ij}} = [i = \operatorname{argmax}_i a_{ij}]"

    def name(self) -> str:
        return self.node_name

    def forward(self, a, dim, keepdim, indices):
        self.setup(a, dim, True)
        self.keepdim = keepdim
        xp = array_module(a._data)
        axis = self.dims[0]
        picked = indices if keepdim else xp.expand_dims(indices, axis)
        values = xp.take_along_axis(a._data, picked, axis=axis)
        positions = xp.arange(a._data.shape[axis]).reshape(
            tuple(-1 if i == axis else 1 for i in range(a._data.ndim)))
        self.picked = positions == picked
        return values if keepdim else values.squeeze(axis)

    def backward(self, F, grad):
        return (F.masked(self.spread(F, grad), F.constant(self.picked)),)


class MinAlongDim(MaxAlongDim):
    __slots__ = ()
    node_name = "MinBackward0"
    symbol = "min"
    formula = r"\frac{\partial u_j}{\partial a_{ij}} = [i = \operatorname{argmin}_i a_{ij}]"


class Var(Reduction):
    __slots__ = ("correction",)
    node_name = "VarBackward0"
    symbol = "var"
    formula = r"\frac{\partial u}{\partial a_i} = \frac{2(a_i - \bar a)}{n - c}"

    def name(self) -> str:
        return self.node_name

    def forward(self, a, dim=None, correction=1, keepdim=False):
        require_floating(a._data, "std and var")
        dims = self.setup(a, dim, keepdim)
        self.saved = (a,)
        self.correction = correction
        return a._data.var(axis=dims, ddof=correction, keepdims=keepdim)

    def centered(self, F):
        a = F.value(self.saved[0])
        return a - F.sum(a, self.dims, True) / reduced_count(self.in_shape, self.dims)

    def backward(self, F, grad):
        return (self.var_backward(F, self.spread(F, grad)),)

    def var_backward(self, F, grad):
        """PyTorch's ``var_backward`` (``FunctionsManual.cpp``) term for term, ``grad`` spread
        to the input's shape. Its cases with no degrees of freedom left (``correction >= n``)
        are kept too: over the whole tensor, inf, NaN where an entry is the mean; along dims,
        ``2 / (n - correction)`` as it is, negative (a finite gradient) or inf."""
        dof = reduced_count(self.in_shape, self.dims) - self.correction
        centered = self.centered(F)
        if self.dims is None and dof <= 0:
            return F.where(centered == 0, grad * math.nan, grad * math.inf)
        return (2.0 / dof if dof else math.inf) * grad * centered


class Std(Var):
    __slots__ = ("out",)
    saves_output = True
    node_name = "StdBackward0"
    symbol = "std"
    formula = r"\frac{\partial u}{\partial a_i} = \frac{a_i - \bar a}{(n - c)\,u}"

    def forward(self, a, dim=None, correction=1, keepdim=False):
        out = self.out = Var.forward(self, a, dim, correction, keepdim) ** 0.5
        return out.astype(a._data.dtype, copy=False)

    def backward(self, F, grad):
        # PyTorch's std_backward: var's of grad / (2 std), 0 where the std is 0 (constant
        # data: 0, not 0/0)
        out = F.output(self)
        return (self.var_backward(F, self.spread(F, F.masked(grad / (out * 2), out != 0))),)


class Norm(Reduction):
    __slots__ = ("out",)
    saves_output = True
    node_name = "LinalgVectorNormBackward0"
    symbol = "‖·‖"
    formula = r"\frac{\partial u}{\partial a_i} = \frac{a_i}{\lVert a \rVert}"

    def name(self) -> str:
        return self.node_name

    def forward(self, a, dim=None, keepdim=False):
        require_floating(a._data, "linalg.vector_norm")
        dims = self.setup(a, dim, keepdim)
        self.saved = (a,)
        x = a._data
        if x.dtype.itemsize < 4:  # float16's squares overflow at 256: PyTorch sums them in float32
            x = x.astype("float32")
        out = self.out = (((x * x).sum(axis=dims, keepdims=keepdim)) ** 0.5).astype(a._data.dtype, copy=False)
        return out

    def backward(self, F, grad):
        a = F.value(self.saved[0])
        out = F.output(self)
        if not self.keepdim:
            out = F.reshape(out, kept_shape(self.in_shape, self.dims))
        safe = F.where(out == 0, out * 0 + 1, out)  # the subgradient 0 at the origin, as PyTorch
        return (self.spread(F, grad) * a / safe,)


# ----- the functions users call ----------------------------------------------------

ReturnTypes = namedtuple("ReturnTypes", ["values", "indices"])


def sum(input, dim=None, keepdim=False, *, keepdims=None, dtype=None):  # noqa: A001
    return input.sum(dim, keepdim, keepdims=keepdims, dtype=dtype)


def mean(input, dim=None, keepdim=False, *, keepdims=None, dtype=None):
    return input.mean(dim, keepdim, keepdims=keepdims, dtype=dtype)


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return Var.apply(input, dim, _correction(unbiased, correction), keepdim)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return Std.apply(input, dim, _correction(unbiased, correction), keepdim)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """``(std, mean)``: PyTorch's one StdMeanBackward0 node is two nodes here, Std and Mean."""
    return std(input, dim, unbiased, keepdim, correction=correction), Mean.apply(input, dim, keepdim)


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """``(var, mean)``: two nodes, Var and Mean, where PyTorch draws one VarMeanBackward0."""
    return var(input, dim, unbiased, keepdim, correction=correction), Mean.apply(input, dim, keepdim)


def _correction(unbiased, correction) -> int:
    if correction is not None:
        return correction
    return 0 if unbiased is False else 1


def norm(input, p=2, dim=None, keepdim=False):
    if p != 2:
        raise NotImplementedError(f"norm: only p=2 is implemented, got p={p}")
    return Norm.apply(input, dim, keepdim)


def _extreme(kind, whole, along, input, dim, keepdim):
    if dim.__class__ in TENSOR_TYPES:  # ag.max(a, b) is the elementwise maximum, as in PyTorch
        return (maximum if kind == "max" else minimum)(input, dim)
    if dim is None:
        return whole.apply(input)
    axis = normalize_dim(dim, input.ndim)
    if input.ndim == 0:  # along dim 0 of a 0-d tensor: the value itself, at index 0
        values, indices = _extreme(kind, whole, along, input.reshape(1), 0, False)
        return ReturnTypes(values, indices)
    xp = array_module(input._data)
    pick = xp.argmax if kind == "max" else xp.argmin
    if input._data.shape and input._data.shape[axis] == 0:
        raise IndexError(f"{kind}(): Expected reduction dim {dim} to have non-zero size.")
    indices = pick(input._data, axis=axis, keepdims=keepdim).astype("int64", copy=False)
    values = along.apply(input, axis, keepdim, indices)
    return ReturnTypes(values, _wrap(indices, False, None))


def max(input, dim=None, keepdim=False):  # noqa: A001
    return _extreme("max", Max, MaxAlongDim, input, dim, keepdim)


def min(input, dim=None, keepdim=False):  # noqa: A001
    return _extreme("min", Min, MinAlongDim, input, dim, keepdim)


def argmax(input, dim=None, keepdim=False):
    return _arg("argmax", input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return _arg("argmin", input, dim, keepdim)


def _arg(kind, input, dim, keepdim):
    refuse_bool(input._data, kind)
    if input._data.size == 0:
        if dim is None:
            raise RuntimeError(f"{kind}(): Expected reduction dim to be specified for input.numel() == 0.")
        if input.ndim and input._data.shape[normalize_dim(dim, input.ndim)] == 0:
            raise IndexError(f"{kind}(): Expected reduction dim {dim} to have non-zero size.")
    xp = array_module(input._data)
    if dim is None:
        found = getattr(xp, kind)(input._data)
        if keepdim:
            found = xp.asarray(found).reshape((1,) * input.ndim)
    else:
        found = getattr(xp, kind)(input._data, axis=normalize_dim(dim, input.ndim), keepdims=keepdim)
    return _wrap(xp.asarray(found, dtype="int64"), False, None)
