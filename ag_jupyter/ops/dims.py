"""Dimension arguments as PyTorch accepts them (int, tuple, negative), checked once."""
from __future__ import annotations


def normalize_dim(dim: int, ndim: int) -> int:
    bound = max(ndim, 1)
    if not -bound <= dim < bound:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-bound}, {bound - 1}], but got {dim})"
        )
    return dim % bound


def normalize_dims(dim, ndim: int) -> tuple | None:
    """``None`` for all dimensions, else a sorted tuple of non-negative dims."""
    if dim is None:
        return None
    if isinstance(dim, int):
        return (normalize_dim(dim, ndim),)
    dims = tuple(sorted(normalize_dim(d, ndim) for d in dim))
    if len(set(dims)) != len(dims):
        raise RuntimeError(f"dim {tuple(dim)} appears multiple times in the list of dims")
    return dims if dims else None


def kept_shape(shape: tuple, dims: tuple | None) -> tuple:
    """The shape of a reduction over ``dims`` with keepdim=True."""
    if dims is None:
        return (1,) * len(shape)
    return tuple(1 if i in dims else s for i, s in enumerate(shape))


def reduced_count(shape: tuple, dims: tuple | None) -> int:
    count = 1
    for i, s in enumerate(shape):
        if dims is None or i in dims:
            count *= s
    return count
