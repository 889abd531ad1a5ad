"""Reading and writing along a dimension by an index tensor: ``gather``, ``scatter``,
``scatter_add``, ``index_select``, and ``masked_fill``.

Each is NumPy's advanced indexing with one key (``along_dim_key``), so its backward is
the same key read, or scattered back through the shared ``F.index_add``.
"""
from __future__ import annotations

import numpy

from ..autograd.function import Op
from ..backend import array_module
from ..backend import scatter_add as add_at
from ..core import TENSOR_TYPES
from ..dtypes import scalar_type_name
from .dims import normalize_dim


def along_dim_key(indices, dim: int) -> tuple:
    """The NumPy key that reads ``x[i][indices[i][j][k]][k]`` (for dim 1), broadcast to
    ``indices``' shape: what gather reads, scatter writes, and sort and topk pick."""
    xp = array_module(indices)
    key = []
    for axis, size in enumerate(indices.shape):
        if axis == dim:
            key.append(indices)
        else:
            shape = [1] * indices.ndim
            shape[axis] = size
            key.append(xp.arange(size).reshape(shape))
    return tuple(key)


def _checked_key(x, dim: int, index, op: str) -> tuple:
    """``along_dim_key`` for an index tensor, checked as PyTorch checks it."""
    if index.__class__ not in TENSOR_TYPES:
        raise TypeError(f"{op}(): argument 'index' must be Tensor, not {type(index).__name__}")
    array = index._data
    if array.dtype.kind not in "iu":
        raise RuntimeError(f"{op}(): Expected dtype int64 for index")
    ndim = max(x.ndim, 1)
    dim = normalize_dim(dim, ndim)
    if max(array.ndim, 1) != ndim:
        raise RuntimeError(f"Index tensor must have the same number of dimensions as input tensor "
                           f"(index of shape {list(array.shape)}, input of shape {list(x.shape)})")
    shape = x.shape if x.ndim else (1,)
    if array.size:
        low, high = int(array.min()), int(array.max())
        if low < -shape[dim] or high >= shape[dim]:
            raise RuntimeError(f"index {high if high >= shape[dim] else low} is out of bounds for "
                               f"dimension {dim} with size {shape[dim]}")
    array = array.reshape(array.shape or (1,))
    for axis in range(ndim):
        if axis != dim and array.shape[axis] > shape[axis]:
            raise RuntimeError(f"Size does not match at dimension {axis} expected index {list(index.shape)} to "
                               f"be no larger than self {list(x.shape)} apart from dimension {dim}")
    return along_dim_key(array.astype("int64", copy=False), dim)


def _as_1d(x):
    """0-d inputs are indexed as 1-d ones of one entry (and given back 0-d)."""
    return x.reshape(1) if x.ndim == 0 else x


def _written_part(src, key):
    """``src`` cut to the index's shape: scatter reads only ``src[:i, :j, ...]``."""
    shape = key[0].shape if len(key) == 1 else tuple(max(p.shape[k] for p in key) for k in range(len(key)))
    return tuple(slice(0, s) for s in shape)


class Gather(Op):
    __slots__ = ("key", "in_shape")
    node_name = "GatherBackward0"
    symbol = "gather"
    formula = (r"u_{ij} = a_{i,\,\mathrm{idx}_{ij}}:\quad \frac{\partial L}{\partial a} = "
               r"\text{each gathered entry's gradient at its place, summed}")

    def forward(self, a, dim, index):
        x = a._data
        self.key = _checked_key(x, dim, index, "gather")
        self.in_shape = x.shape
        out = _as_1d(x)[self.key]
        return out.reshape(index._data.shape)

    def backward(self, F, grad):
        flat = F.reshape(grad, self.key[0].shape) if grad.ndim == 0 else grad
        return (F.reshape(F.index_add(flat, self.key, self.in_shape or (1,)), self.in_shape),)


class Scatter(Op):
    """``a`` with ``src`` written at the index (``scatter``); ``ScatterAdd`` adds it, repeats
    adding up. ``a`` keeps the gradient where nothing was written; ``src`` reads it at the index."""

    __slots__ = ("key", "part", "src_shape", "kept")
    arity = 2
    node_name = "ScatterBackward0"
    symbol = "scatter"
    formula = (r"\frac{\partial L}{\partial a} = \text{the gradient where nothing was written},\quad "
               r"\frac{\partial L}{\partial \mathrm{src}} = \text{the gradient read at the index}")
    adds = False

    def forward(self, a, src, dim, index):
        x, values = a._data, src._data
        if values.dtype != x.dtype:
            raise RuntimeError(f"scatter(): Expected self.dtype to be equal to src.dtype "
                               f"(self is {a.dtype}, src is {src.dtype})")
        key = self.key = _checked_key(x, dim, index, "scatter_add" if self.adds else "scatter")
        self.part = _written_part(values, key)
        self.src_shape = values.shape
        out = _as_1d(x).copy()
        chosen = _as_1d(values)[self.part]
        if self.adds:
            add_at(out, key, chosen)
            self.kept = None
        else:
            out[key] = chosen
            kept = array_module(out).ones(out.shape, dtype=bool)
            kept[key] = False
            self.kept = kept
        return out.reshape(x.shape)

    def backward(self, F, grad):
        follow_a, follow_src = self._next
        flat = F.reshape(grad, (1,)) if grad.ndim == 0 else grad
        grad_a = grad_src = None
        if follow_a is not None:
            grad_a = grad if self.kept is None else F.reshape(F.masked(flat, F.constant(self.kept)), grad.shape)
        if follow_src is not None:
            grad_src = F.reshape(F.index_add(flat[self.key], self.part, self.src_shape or (1,)), self.src_shape)
        return grad_a, grad_src


class ScatterAdd(Scatter):
    __slots__ = ()
    node_name = "ScatterAddBackward0"
    symbol = "scatter+"
    formula = (r"\frac{\partial L}{\partial a} = \frac{\partial L}{\partial u},\quad "
               r"\frac{\partial L}{\partial \mathrm{src}} = \text{the gradient read at the index}")
    adds = True


class ScatterValue(Op):
    """``scatter(dim, index, value)`` with a number: ``a`` keeps the gradient where nothing was written."""

    __slots__ = ("kept",)
    node_name = "ScatterBackward1"
    symbol = "scatter"
    formula = r"\frac{\partial L}{\partial a} = \text{the gradient where nothing was written}"

    def forward(self, a, dim, index, value):
        x = a._data
        key = _checked_key(x, dim, index, "scatter")
        out = _as_1d(x).copy()
        out[key] = value
        kept = self.kept = array_module(out).ones(out.shape, dtype=bool)
        kept[key] = False
        return out.reshape(x.shape)

    def backward(self, F, grad):
        flat = F.reshape(grad, (1,)) if grad.ndim == 0 else grad
        return (F.reshape(F.masked(flat, F.constant(self.kept)), grad.shape),)


class IndexSelect(Op):
    __slots__ = ("key", "in_shape")
    node_name = "IndexSelectBackward0"
    symbol = "index_select"
    formula = (r"u = a[\ldots, \mathrm{idx}, \ldots]:\quad \frac{\partial L}{\partial a} = "
               r"\text{each row's gradient at its row, summed}")

    def forward(self, a, dim, index):
        x = a._data
        if index.__class__ not in TENSOR_TYPES or index._data.dtype.kind not in "iu" or index.ndim > 1:
            raise RuntimeError("index_select(): Index is supposed to be a vector of int64 "
                               f"(got {index.dtype if index.__class__ in TENSOR_TYPES else type(index).__name__})")
        dim = normalize_dim(dim, max(x.ndim, 1))
        rows = index._data.reshape(-1)
        size = x.shape[dim] if x.ndim else 1
        if rows.size and (int(rows.min()) < -size or int(rows.max()) >= size):
            raise IndexError(f"index out of range in self (index_select of dimension {dim} with size {size})")
        self.key = (slice(None),) * dim + (rows,)
        self.in_shape = x.shape
        out = _as_1d(x)[self.key]
        return out.reshape(()) if x.ndim == 0 and index.ndim == 0 else out

    def backward(self, F, grad):
        flat = F.reshape(grad, (1,)) if grad.ndim == 0 else grad
        return (F.reshape(F.index_add(flat, self.key, self.in_shape or (1,)), self.in_shape),)


class MaskedFill(Op):
    """``a`` with ``value`` where ``mask`` is true: its gradient is 0 there."""

    __slots__ = ("mask", "shape")
    node_name = "MaskedFillBackward0"
    symbol = "masked_fill"
    formula = r"\frac{\partial u}{\partial a} = [\lnot \mathrm{mask}]"

    def forward(self, a, mask, value):
        x = a._data
        if mask.__class__ not in TENSOR_TYPES or mask._data.dtype.kind != "b":
            raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                               f"{mask.dtype if mask.__class__ in TENSOR_TYPES else type(mask).__name__}")
        m = mask._data
        xp = array_module(x)
        if numpy.broadcast_shapes(m.shape, x.shape) != x.shape:
            raise RuntimeError(f"The size of the mask {list(m.shape)} must be broadcastable to the input's "
                               f"shape {list(x.shape)}")
        self.mask, self.shape = m, x.shape
        fill = value._data if value.__class__ in TENSOR_TYPES else value
        if value.__class__ in TENSOR_TYPES and fill.ndim != 0:
            raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                               f"with {fill.ndim} dimension(s).")
        return xp.where(m, xp.asarray(fill).astype(x.dtype), x)

    def backward(self, F, grad):
        return (F.masked(grad, F.constant(~self.mask)),)


class MaskedFillTensor(MaskedFill):
    """``masked_fill`` with a 0-d tensor value that takes the gradient of every filled place."""

    __slots__ = ()
    arity = 2
    node_name = "MaskedFillBackward1"
    formula = (r"\frac{\partial u}{\partial a} = [\lnot \mathrm{mask}],\quad "
               r"\frac{\partial L}{\partial v} = \textstyle\sum_{\mathrm{mask}} \frac{\partial L}{\partial u}")

    def forward(self, a, value, mask):
        if a._data.dtype.kind != "f":  # the output would carry the value's gradient
            raise RuntimeError(f"Autograd not support dtype: {scalar_type_name(a._data)}")
        return MaskedFill.forward(self, a, mask, value)

    def backward(self, F, grad):
        follow_a, follow_value = self._next
        kept = F.masked(grad, F.constant(~self.mask)) if follow_a is not None else None
        filled = F.sum(F.masked(grad, F.constant(self.mask)), None, False) if follow_value is not None else None
        return kept, filled


def gather(input, dim, index, *, sparse_grad=False):
    return Gather.apply(input, dim, index)


def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    if reduce is not None:
        raise NotImplementedError(f"scatter(reduce={reduce!r}) is not implemented here; use scatter_add "
                                  f"(or scatter_reduce in PyTorch)")
    source = value if src is None else src
    if source.__class__ in TENSOR_TYPES:
        return Scatter.apply(input, source, dim, index)
    return ScatterValue.apply(input, dim, index, source)


def scatter_add(input, dim, index, src):
    return ScatterAdd.apply(input, src, dim, index)


def index_select(input, dim, index):
    return IndexSelect.apply(input, dim, index)


def masked_fill(input, mask, value):
    if value.__class__ in TENSOR_TYPES:
        if value._requires_grad or value.grad_fn is not None:
            return MaskedFillTensor.apply(input, value, mask)
        value = value._data[()] if value._data.ndim == 0 else value
    return MaskedFill.apply(input, mask, value)
