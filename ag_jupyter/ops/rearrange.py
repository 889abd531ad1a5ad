"""Rearranging entries without arithmetic: ``flip``, ``roll``, ``repeat``/``tile``, the
pieces of ``split``/``chunk``/``unbind``, ``narrow``, ``repeat_interleave``, ``meshgrid``.
Backward moves the gradient back to where each entry came from (summed for repeats)."""
from __future__ import annotations

import math
import warnings

from ..autograd.function import Op
from ..backend import array_module
from ..core import TENSOR_TYPES, _wrap
from .dims import normalize_dim
from .gather import IndexSelect
from .indexing import Index
from .shape import Expand, Reshape


def _dims_tuple(dims, ndim: int) -> tuple:
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    return tuple(normalize_dim(d, max(ndim, 1)) for d in dims)


class Flip(Op):
    __slots__ = ("dims",)
    node_name = "FlipBackward0"
    symbol = "flip"
    formula = r"\frac{\partial L}{\partial a} = \text{the gradient flipped back}"

    def forward(self, a, dims):
        x = a._data
        self.dims = _dims_tuple(dims, x.ndim) if x.ndim else ()
        if len(set(self.dims)) != len(self.dims):
            raise RuntimeError(f"dims has duplicates, original flip dims size={len(self.dims)}, "
                               f"but unique flip dims size={len(set(self.dims))}")
        # a copy, as PyTorch's flip: NumPy's is a view with negative strides
        return array_module(x).flip(x, axis=self.dims).copy() if self.dims else x.copy()

    def backward(self, F, grad):
        return (F.flip(grad, self.dims) if self.dims else grad,)


class Roll(Op):
    __slots__ = ("shifts", "dims", "shape")
    node_name = "RollBackward0"
    symbol = "roll"
    formula = r"\frac{\partial L}{\partial a} = \text{the gradient rolled back}"

    def forward(self, a, shifts, dims=None):
        x = a._data
        shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
        self.shape = x.shape
        xp = array_module(x)
        if dims is None or dims == ():
            if len(shifts) != 1:
                raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
            self.shifts, self.dims = shifts, None
            return xp.roll(x.reshape(-1), shifts[0]).reshape(x.shape)
        dims = _dims_tuple(dims, x.ndim)
        if len(shifts) != len(dims):
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
        self.shifts, self.dims = shifts, dims
        return xp.roll(x, shifts, axis=dims) if x.ndim else x.copy()

    def backward(self, F, grad):
        back = tuple(-s for s in self.shifts)
        if self.dims is None:
            return (F.reshape(F.roll(F.reshape(grad, (-1,)), back, (0,)), self.shape),)
        return (F.roll(grad, back, self.dims) if grad.ndim else grad,)


class Repeat(Op):
    """``repeat``/``tile``: copies of ``a`` side by side; each copy's gradient adds up."""

    __slots__ = ("padded", "sizes", "in_shape")
    node_name = "RepeatBackward0"
    symbol = "repeat"
    formula = r"\frac{\partial L}{\partial a} = \textstyle\sum_{\text{copies}} \frac{\partial L}{\partial u}"

    def forward(self, a, sizes):
        x = a._data
        if len(sizes) < x.ndim:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of "
                               f"dimensions of tensor (repeat dims {list(sizes)}, tensor of shape {list(x.shape)})")
        if any(s < 0 for s in sizes):
            raise RuntimeError(f"Trying to create tensor with negative dimension: repeat{tuple(sizes)}")
        self.in_shape = x.shape
        self.padded = (1,) * (len(sizes) - x.ndim) + x.shape
        self.sizes = tuple(sizes)
        return array_module(x).tile(x.reshape(self.padded), self.sizes)

    def backward(self, F, grad):
        pairs = tuple(n for size, count in zip(self.padded, self.sizes) for n in (count, size))
        summed = F.sum(F.reshape(grad, pairs), tuple(range(0, len(pairs), 2)), False)
        return (F.reshape(summed, self.in_shape),)


class SplitPiece(Index):
    """One piece of ``split``/``chunk``: a slice along a dim, a view as in PyTorch."""

    __slots__ = ()
    node_name = "SplitBackward0"
    symbol = "split"

    def name(self) -> str:
        return self.node_name


class SplitWithSizesPiece(SplitPiece):
    __slots__ = ()
    node_name = "SplitWithSizesBackward0"


class UnbindPiece(SplitPiece):
    """One tensor of ``unbind``: an index along a dim, a view."""

    __slots__ = ()
    node_name = "UnbindBackward0"
    symbol = "unbind"


def flip(input, dims):
    return Flip.apply(input, dims)


def roll(input, shifts, dims=None):
    return Roll.apply(input, shifts, dims)


def tile(input, dims):
    dims = tuple(dims)
    return Repeat.apply(input, (1,) * (input.ndim - len(dims)) + dims)


def _along(dim: int, part) -> tuple:
    return (slice(None),) * dim + (part,)


def split(tensor, split_size_or_sections, dim=0):
    size = tensor.shape[normalize_dim(dim, tensor.ndim)] if tensor.ndim else 0
    if tensor.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    dim = normalize_dim(dim, tensor.ndim)
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        if step <= 0 and size:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
        starts = range(0, size, step) if size else [0]
        return tuple(SplitPiece.apply(tensor, _along(dim, slice(s, s + step))) for s in starts)
    sections = list(split_size_or_sections)
    if sum(sections) != size or any(s < 0 for s in sections):
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size "
                           f"at dimension {dim}), but got split_sizes={sections}")
    ends = [sum(sections[: i + 1]) for i in range(len(sections))]
    return tuple(SplitWithSizesPiece.apply(tensor, _along(dim, slice(end - n, end))) for n, end in zip(sections, ends))


def chunk(input, chunks, dim=0):
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    dim = normalize_dim(dim, input.ndim)
    size = input.shape[dim]
    return split(input, max(math.ceil(size / chunks), 1) if size else 1, dim)


def unbind(input, dim=0):
    dim = normalize_dim(dim, input.ndim)
    return tuple(UnbindPiece.apply(input, _along(dim, i)) for i in range(input.shape[dim]))


def narrow(input, dim, start, length):
    dim = normalize_dim(dim, input.ndim)
    size = input.shape[dim]
    start = int(start)
    if not -size <= start <= size or start % max(size, 1) + length > size and not (start == size and length == 0):
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    start = start + size if start < 0 else start
    return Index.apply(input, _along(dim, slice(start, start + length)))


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    if dim is None:
        input, dim = Reshape.apply(input, (-1,)), 0
    dim = normalize_dim(dim, max(input.ndim, 1))
    if repeats.__class__ in TENSOR_TYPES and repeats.ndim == 1 and repeats.numel() != 1:
        counts = repeats._data
        if counts.shape[0] != input.shape[dim]:
            raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                               f"repeats.size(0) = {counts.shape[0]} and input.size({dim}) = {input.shape[dim]}")
        xp = array_module(counts)
        rows = xp.repeat(xp.arange(counts.shape[0]), counts)
        return IndexSelect.apply(input, dim, _wrap(rows.astype("int64", copy=False), False, None))
    count = int(repeats)
    shape = tuple(input.shape)
    widened = Reshape.apply(input, shape[: dim + 1] + (1,) + shape[dim + 1:])
    copies = Expand.apply(widened, shape[: dim + 1] + (count,) + shape[dim + 1:])
    return Reshape.apply(copies, shape[:dim] + (shape[dim] * count,) + shape[dim + 1:])


def meshgrid(*tensors, indexing=None):
    if len(tensors) == 1 and tensors[0].__class__ not in TENSOR_TYPES:
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
                      "argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {indexing}")
    sizes = [t.numel() for t in tensors]
    order = list(range(len(tensors)))
    if indexing == "xy" and len(tensors) >= 2:
        order[0], order[1] = 1, 0
    shape = tuple(sizes[i] for i in order)
    grids = []
    for i, t in enumerate(tensors):
        axis = order.index(i)
        view = Reshape.apply(t, tuple(-1 if k == axis else 1 for k in range(len(tensors))))
        grids.append(Expand.apply(view, shape))
    return tuple(grids)
