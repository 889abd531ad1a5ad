"""Running and whole products and sums: ``cumsum``, ``cumprod``, ``prod``, ``logsumexp``."""
from __future__ import annotations

import numpy

from ..autograd.function import Op
from ..backend import array_module
from ..core import TENSOR_TYPES
from ..dtypes import to_numpy
from ..promotion import floating
from .dims import kept_shape, normalize_dim
from .reduction import Reduction


def _integers_widened(x):
    """PyTorch sums and multiplies bool and integer data in int64 (NumPy would keep int32)."""
    return x.astype(numpy.int64) if x.dtype.kind in "biu" else x


def _cast(x, dtype):
    """The ``dtype=`` argument of cumsum/cumprod/prod: the input is converted first."""
    return x if dtype is None else x.astype(to_numpy(dtype))


def _positions(x, dim: int):
    """0, 1, ... along ``dim``, shaped to broadcast against ``x``."""
    shape = [1] * x.ndim
    shape[dim] = x.shape[dim]
    return array_module(x).arange(x.shape[dim]).reshape(shape)


def _raw(x):
    """The array behind a value of either algebra (a tensor under create_graph)."""
    return x._data if x.__class__ in TENSOR_TYPES else x


def _reverse_cumsum(F, x, dim: int):
    return F.flip(F.cumsum(F.flip(x, (dim,)), dim), (dim,))


def cumprod_gradient(F, x, out, grad, dim: int, has_zero: bool):
    """The gradient of ``cumprod(x, dim)`` for the output's gradient ``grad``. Without a zero
    in ``x`` it is the reverse running sum of ``grad * out`` divided by ``x``; with one,
    each position's own product of the others, one position at a time (as PyTorch, which
    divides only where it may)."""
    if not has_zero:
        return _reverse_cumsum(F, grad * out, dim) / x
    raw = _raw(x)
    positions, dtype = _positions(raw, dim), raw.dtype
    total = None
    for i in range(x.shape[dim]):
        here = F.constant((positions == i).astype(dtype))
        after = F.constant((positions >= i).astype(dtype))
        others = F.cumprod(x * (1 - here) + here, dim)  # x with position i set to 1
        part = F.sum(grad * others * after, (dim,), True) * here
        total = part if total is None else total + part
    return total


class Cumsum(Op):
    __slots__ = ("dim",)
    node_name = "CumsumBackward0"
    symbol = "cumsum"
    formula = (r"u_j = \textstyle\sum_{i \le j} a_i:\quad "
               r"\frac{\partial L}{\partial a_i} = \sum_{j \ge i} \frac{\partial L}{\partial u_j}")

    def forward(self, a, dim, dtype=None):
        x = _integers_widened(_cast(a._data, dtype))
        self.dim = normalize_dim(dim, x.ndim) if x.ndim else None
        return x.copy() if self.dim is None else array_module(x).cumsum(x, axis=self.dim, dtype=x.dtype)

    def backward(self, F, grad):
        return (grad if self.dim is None else _reverse_cumsum(F, grad, self.dim),)


class Cumprod(Op):
    __slots__ = ("dim", "out", "has_zero")
    saves_output = True
    node_name = "CumprodBackward0"
    symbol = "cumprod"
    formula = (r"u_j = \textstyle\prod_{i \le j} a_i:\quad \frac{\partial L}{\partial a_i} = "
               r"\sum_{j \ge i} \frac{\partial L}{\partial u_j} \prod_{k \le j, k \ne i} a_k")

    def forward(self, a, dim, dtype=None):
        x = _integers_widened(_cast(a._data, dtype))
        self.saved = (a,)
        self.dim = normalize_dim(dim, x.ndim) if x.ndim else None
        self.has_zero = not bool((x != 0).all())
        out = self.out = x.copy() if self.dim is None else array_module(x).cumprod(x, axis=self.dim, dtype=x.dtype)
        return out

    def backward(self, F, grad):
        if self.dim is None:
            return (grad,)
        return (cumprod_gradient(F, F.value(self.saved[0]), F.output(self), grad, self.dim, self.has_zero),)


class Prod(Reduction):
    """``prod()`` of all entries (ProdBackward0) or along one dim (ProdBackward1)."""

    __slots__ = ("out", "has_zero")
    saves_output = True
    node_name = "ProdBackward0"
    symbol = "∏"
    formula = r"\frac{\partial u}{\partial a_i} = \textstyle\prod_{j \ne i} a_j"

    def forward(self, a, dim=None, keepdim=False, dtype=None):
        x = _integers_widened(_cast(a._data, dtype))
        if dim is not None and not isinstance(dim, int):
            raise TypeError(f"prod(): argument 'dim' must be int, not {type(dim).__name__}")
        self.setup(a, dim, keepdim)
        self.saved = (a,)
        self.has_zero = not bool((x != 0).all())
        out = self.out = x.prod(axis=self.dims, keepdims=keepdim)
        return out

    def backward(self, F, grad):
        x = F.value(self.saved[0])
        if not self.has_zero:
            return (self.spread(F, grad) * self.spread(F, F.output(self)) / x,)
        # a product is the last entry of the running product: its gradient, with the
        # output's gradient at the last position and 0 elsewhere
        if self.dims is None:
            flat = F.reshape(x, (-1,))
            last = F.constant((_positions(_raw(flat), 0) == flat.shape[0] - 1).astype(_raw(flat).dtype))
            spread = F.reshape(grad, (1,)) * last
            return (F.reshape(cumprod_gradient(F, flat, None, spread, 0, True), self.in_shape),)
        (dim,) = self.dims
        kept = grad if self.keepdim else F.reshape(grad, kept_shape(self.in_shape, self.dims))
        last = F.constant((_positions(_raw(x), dim) == x.shape[dim] - 1).astype(_raw(x).dtype))
        return (cumprod_gradient(F, x, None, kept * last, dim, True),)


class Logsumexp(Reduction):
    __slots__ = ("out",)
    saves_output = True
    node_name = "LogsumexpBackward0"
    symbol = "logΣexp"
    formula = r"u = \log \textstyle\sum_i e^{a_i}:\quad \frac{\partial u}{\partial a_i} = e^{a_i - u}"

    def name(self) -> str:
        return self.node_name

    def forward(self, a, dim, keepdim=False):
        x = floating(a._data)
        dims = self.setup(a, dim, keepdim)
        self.saved = (a,)
        xp = array_module(x)
        if x.size == 0:
            out = xp.log(xp.exp(x).sum(axis=dims, keepdims=keepdim))
        else:
            top = x.max(axis=dims, keepdims=True)
            top = xp.where(xp.isfinite(top), top, 0)  # all -inf (or an inf) stays as log gives it
            with numpy.errstate(divide="ignore"):  # all -inf: log(0) = -inf, as PyTorch gives it
                out = xp.log(xp.exp(x - top).sum(axis=dims, keepdims=True)) + top
            if not keepdim:
                out = out.reshape(tuple(s for i, s in enumerate(x.shape) if dims is not None and i not in dims))
        self.out = out = out.astype(x.dtype, copy=False)
        return out

    def backward(self, F, grad):
        x = F.value(self.saved[0])
        return (self.spread(F, grad) * F.exp(x - self.spread(F, F.output(self))),)


def cumsum(input, dim=None, *, dtype=None, axis=None):
    dim = dim if axis is None else axis
    if dim is None:
        raise TypeError("cumsum() missing 1 required positional arguments: \"dim\"")
    return Cumsum.apply(input, dim, dtype)


def cumprod(input, dim, *, dtype=None):
    return Cumprod.apply(input, dim, dtype)


def prod(input, dim=None, keepdim=False, *, dtype=None):
    return Prod.apply(input, dim, keepdim, dtype)


def logsumexp(input, dim, keepdim=False):
    return Logsumexp.apply(input, dim, keepdim)
