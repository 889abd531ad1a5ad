"""Sorting and the extremes along dims: ``sort``, ``topk``, ``argsort``, ``amax``, ``amin``,
``aminmax``. The values are a differentiable pick; the indices are plain int64 tensors."""
from __future__ import annotations

from collections import namedtuple

from ..autograd.function import Op
from ..backend import array_module
from ..core import _wrap
from .dims import normalize_dim
from .gather import along_dim_key
from .reduction import Reduction, ReturnTypes

MinMax = namedtuple("MinMax", ["min", "max"])


def _order(x, dim: int, descending: bool):
    """Indices that sort ``x`` along ``dim``, stable (equal entries keep their order, also
    descending, as PyTorch's stable sort)."""
    xp = array_module(x)
    if not descending:
        return xp.argsort(x, axis=dim, kind="stable")
    keys = ~x if x.dtype.kind == "b" else -x.astype("int64") if x.dtype.kind == "u" else -x
    return xp.argsort(keys, axis=dim, kind="stable")


class Pick(Op):
    """The entries of ``a`` at ``indices`` along ``dim``; the gradient goes back to them."""

    __slots__ = ("key", "in_shape")
    formula = r"\frac{\partial L}{\partial a} = \text{each picked entry's gradient, at its place}"

    def pick(self, a, indices, dim: int):
        x = a._data
        if x.ndim == 0:
            self.key, self.in_shape = None, ()
            return x.copy()
        self.key = along_dim_key(indices, dim)
        self.in_shape = x.shape
        return x[self.key]

    def backward(self, F, grad):
        return (grad if self.key is None else F.index_add(grad, self.key, self.in_shape),)


class Sort(Pick):
    __slots__ = ()
    node_name = "SortBackward0"
    symbol = "sort"

    def forward(self, a, dim, indices):
        return self.pick(a, indices, dim)


class Topk(Pick):
    __slots__ = ()
    node_name = "TopkBackward0"
    symbol = "topk"

    def forward(self, a, dim, indices):
        return self.pick(a, indices, dim)


class Amax(Reduction):
    """The largest entry over ``dims``; ties share the gradient evenly, as PyTorch's amax."""

    __slots__ = ("share",)
    node_name = "AmaxBackward0"
    symbol = "amax"
    formula = r"\frac{\partial u}{\partial a_i} = \frac{[a_i = u]}{\#\{j : a_j = u\}}"
    pick = "max"

    def name(self) -> str:
        return self.node_name

    def forward(self, a, dim=(), keepdim=False):
        x = a._data
        dims = self.setup(a, dim if dim != () else None, keepdim)
        if x.size == 0 and (dims is None or any(x.shape[d] == 0 for d in dims)):
            raise IndexError(f"a{self.pick}(): Expected reduction dim to have non-zero size.")
        kept = getattr(x, self.pick)(axis=dims, keepdims=True)
        hits = (x == kept) | ((x != x) & (kept != kept))  # a NaN extreme: the NaNs share it
        share = hits / hits.sum(axis=dims, keepdims=True)  # ties share the gradient evenly
        self.share = share.astype(x.dtype, copy=False) if x.dtype.kind == "f" else share
        return kept if keepdim else kept.reshape(tuple(s for i, s in enumerate(x.shape)
                                                     if dims is not None and i not in dims))

    def backward(self, F, grad):
        return (self.spread(F, grad) * F.constant(self.share),)


class Amin(Amax):
    __slots__ = ()
    node_name = "AminBackward0"
    symbol = "amin"
    pick = "min"


def sort(input, dim=-1, descending=False, *, stable=False):
    x = input._data
    axis = normalize_dim(dim, max(x.ndim, 1))
    indices = _order(x, axis, descending) if x.ndim else array_module(x).zeros((), dtype="int64")
    values = Sort.apply(input, axis, indices)
    return ReturnTypes(values, _wrap(indices.astype("int64", copy=False), False, None))


def argsort(input, dim=-1, descending=False, *, stable=False):
    return sort(input, dim, descending, stable=stable).indices


def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002 - PyTorch's name
    x = input._data
    if x.dtype.kind == "b":
        raise RuntimeError("\"topk_cpu\" not implemented for 'Bool'")
    axis = normalize_dim(dim, max(x.ndim, 1))
    size = x.shape[axis] if x.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError(f"selected index k out of range (k={k}, dimension {axis} has size {size})")
    if x.ndim == 0:
        return sort(input, dim)
    indices = _order(x, axis, largest)[(slice(None),) * axis + (slice(0, k),)]
    values = Topk.apply(input, axis, indices)
    return ReturnTypes(values, _wrap(indices.astype("int64", copy=False), False, None))


def amax(input, dim=(), keepdim=False):
    return Amax.apply(input, dim, keepdim)


def amin(input, dim=(), keepdim=False):
    return Amin.apply(input, dim, keepdim)


def aminmax(input, *, dim=None, keepdim=False):
    """``(min, max)``: PyTorch's one AminmaxBackward0 node is two nodes here, Amin and Amax."""
    return MinMax(amin(input, () if dim is None else dim, keepdim), amax(input, () if dim is None else dim, keepdim))



