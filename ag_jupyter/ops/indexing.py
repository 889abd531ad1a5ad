"""Indexing: basic (ints, slices, None, Ellipsis) and integer-array / boolean-mask."""
from __future__ import annotations

import numpy

from .. import deferred_checks, gpu_kernels
from ..autograd.algebra import provide
from ..autograd.function import Op
from ..autograd.views import ViewOp
from ..backend import array_module, is_cuda_array, scatter_add
from ..core import TENSOR_TYPES


def array_key(key):
    """The index with tensors and lists turned into arrays, as NumPy wants it."""
    if isinstance(key, tuple):
        return tuple(_part(k) for k in key)
    return _part(key)


def _part(k):
    if k.__class__ in TENSOR_TYPES:
        data = k._data
        if data.ndim == 0 and data.dtype.kind in "iu":
            # PyTorch takes a 0-d integer tensor as the int it holds: x[i] is a view, and a
            # write through it reaches x (NumPy would copy for a 0-d array)
            return int(data)
        return data
    if isinstance(k, list):
        array = numpy.asarray(k)
        return array.astype(numpy.int64) if array.size == 0 else array  # x[[]]: no rows, as torch
    return k


def ints_first(parts: tuple):
    """PyTorch's reading of a key that mixes ints with index arrays: the ints (and slices,
    ``None``) select first, then the arrays index what is left, so ``x[0, :, [1, 2]]`` of a
    (2, 3, 4) tensor is (3, 2). NumPy makes the int an index array too and moves the
    indexed dimensions to the front: (2, 3). ``parts``: a tuple key as ``array_key`` gives it.
    Returns ``(first key, then key)``, or None for any other key (most: nothing to split)."""
    ints = arrays = False
    for part in parts:
        if part.__class__ is int or _is_int_scalar(part):
            ints = True
        elif getattr(part, "ndim", 0) or _is_mask(part):
            arrays = True
    if not (ints and arrays):
        return None
    first, then = [], []
    for part in parts:
        if part.__class__ is int or _is_int_scalar(part):
            first.append(part)
        elif part is Ellipsis:
            first.append(part)
            then.append(part)
        elif part is None or part.__class__ is slice:
            first.append(part)
            then.append(slice(None))  # applied already: the dimension it left is skipped
        else:
            first.extend([slice(None)] * (part.ndim if _is_mask(part) else 1))
            then.append(part)
    return tuple(first), tuple(then)


def without_empty_ellipsis(key, ndim: int):
    """PyTorch expands an Ellipsis before it looks at where the index arrays are, so one that
    stands for no dimension does not separate them: ``x[:, [0, 1], ..., [1, 2]]`` of a
    (5, 3, 4) tensor is (5, 2), where NumPy, which sees an Ellipsis between the arrays,
    moves the indexed dimension to the front: (2, 5). Such an Ellipsis is dropped."""
    if key.__class__ is not tuple or not any(part is Ellipsis for part in key):
        return key
    arrays = [part for part in key if getattr(part, "ndim", 0) or _is_mask(part)]
    consumed = sum(part.ndim if _is_mask(part) else 1 for part in key if part is not None and part is not Ellipsis)
    if len(arrays) < 2 or consumed != ndim:
        return key
    return tuple(part for part in key if part is not Ellipsis)


def _is_int_scalar(part) -> bool:
    return getattr(part, "ndim", None) == 0 and getattr(getattr(part, "dtype", None), "kind", None) in ("i", "u")


def check_gpu_bounds(x, key) -> None:
    """CuPy wraps an out-of-range integer index around where NumPy and PyTorch raise, and
    would hand back a wrong number: on the GPU the index arrays are checked first (their
    minima and maxima come back in one transfer, the one wait for the GPU this costs). For
    a write, which would change the wrong entry for good."""
    if not is_cuda_array(x):
        return
    indexed = list(_index_arrays(x, key))
    if not indexed:
        return
    xp = array_module(x)
    ends = xp.stack([xp.asarray(end, dtype=xp.int64) for _, part in indexed
                     for end in (part.min(), part.max())]).tolist()
    for (dim, _), low, high in zip(indexed, ends[::2], ends[1::2]):
        size = x.shape[dim]
        bad = low if low < -size else high if high >= size else None
        if bad is not None:
            raise IndexError(_out_of_bounds(dim, size).format(bad))


def defer_gpu_bounds_check(x, key) -> None:
    """The same check for a read, queued on the GPU without a wait: it raises at the latest
    when a value next comes back to the host (``deferred_checks.py``)."""
    if not is_cuda_array(x):
        return
    xp = array_module(x)
    for dim, part in _index_arrays(x, key):
        size = x.shape[dim]
        if not is_cuda_array(part):  # a CPU index tensor, as PyTorch takes: checked here, no wait
            low, high = int(part.min()), int(part.max())
            if low < -size or high >= size:
                raise IndexError(_out_of_bounds(dim, size).format(low if low < -size else high))
            continue
        deferred_checks.defer(xp, part, -size, size - 1, _out_of_bounds(dim, size))


def _out_of_bounds(dim: int, size: int) -> str:
    return f"index {{}} is out of bounds for dimension {dim} with size {size}"


def _index_arrays(x, key):
    """``(dim, array)`` for each non-empty integer index array in ``key``."""
    parts = key if isinstance(key, tuple) else (key,)
    consumed = sum(p.ndim if _is_mask(p) else 1 for p in parts if p is not None and p is not Ellipsis)
    dim = 0
    for part in parts:
        if part is Ellipsis:
            dim += x.ndim - consumed
        elif _is_mask(part):
            dim += part.ndim
        elif part is not None:
            if hasattr(part, "dtype") and part.size and dim < x.ndim:
                yield dim, part
            dim += 1


def _is_mask(part) -> bool:
    return getattr(getattr(part, "dtype", None), "kind", None) == "b"


def _refuse_negative_step(part) -> None:
    if part.step is not None and part.step <= 0:
        raise ValueError(f"step must be greater than zero (got {part.step}); PyTorch has no "
                         f"negative-step slices: index with a reversed index tensor instead")


def _is_basic(key) -> bool:
    parts = key if isinstance(key, tuple) else (key,)
    return all(p is None or p is Ellipsis or (isinstance(p, (int, slice)) and not isinstance(p, bool))
               for p in parts)


class Index(ViewOp):
    """``x[key]``: a view for basic keys (ints, slices, None, ...), a copy otherwise, as in PyTorch."""

    __slots__ = ("key", "in_shape", "pairs")
    node_name = "IndexBackward0"
    symbol = "[·]"
    formula = r"\frac{\partial u}{\partial a} = \text{the selected entries, zero elsewhere}"

    def name(self) -> str:
        # PyTorch shows basic indexing as a view (SliceBackward0/SelectBackward0).
        if _is_basic(self.key):
            parts = self.key if isinstance(self.key, tuple) else (self.key,)
            return "SelectBackward0" if any(isinstance(p, int) for p in parts) else "SliceBackward0"
        return "IndexBackward0"

    def forward(self, a, key):
        x = a._data
        kind = key.__class__
        if kind is int:
            key = (key, Ellipsis)  # with an Ellipsis NumPy gives x[i] as a 0-d view, not a scalar
        elif kind is slice:
            _refuse_negative_step(key)
        else:
            key = without_empty_ellipsis(array_key(key), x.ndim)
            defer_gpu_bounds_check(x, key)
            if _is_basic(key):
                parts = key if isinstance(key, tuple) else (key,)
                for part in parts:
                    if part.__class__ is slice:
                        _refuse_negative_step(part)
                key = parts if any(p is Ellipsis for p in parts) else parts + (Ellipsis,)
        self.key = key
        self.in_shape = x.shape
        self.pairs = kind is tuple and x.__class__ is not numpy.ndarray and gpu_kernels.pairs_key(x, key)
        if self.pairs:  # x[rows, cols] on the GPU: one kernel where CuPy's indexing took several
            return gpu_kernels.pick_pairs(x, key)
        try:
            return x[self.key]
        except IndexError as error:
            raise IndexError(f"{error} (indexing a tensor of shape {list(x.shape)})") from None

    def backward(self, F, grad):
        if self.pairs and not F.records and gpu_kernels.fusable(grad):
            return (gpu_kernels.add_at_pairs(grad, self.key, self.in_shape),)
        return (F.index_add(grad, self.key, self.in_shape),)


class IndexAdd(Op):
    """Scatter-add ``grad`` into zeros of ``shape``: Index's backward, differentiable."""

    __slots__ = ("key",)
    node_name = "IndexPutBackward0"
    symbol = "scatter"
    formula = r"\frac{\partial u}{\partial g} = \text{the entries at the index}"

    def forward(self, grad, key, shape):
        self.key = key
        out = array_module(grad._data).zeros(shape, dtype=grad._data.dtype)
        scatter_add(out, key, grad._data)
        return out

    def backward(self, F, grad):
        return (grad[self.key],)


provide("index_add", IndexAdd.apply)  # Index's gradient under create_graph (autograd/algebra.py)


def index(input, key):
    if key.__class__ is tuple:
        key = array_key(key)  # once: Index.forward finds the lists already arrays
        split = ints_first(key)
        if split is not None:
            return Index.apply(Index.apply(input, split[0]), split[1])
    return Index.apply(input, key)
