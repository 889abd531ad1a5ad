"""The comparison and logical methods of ``Tensor`` (``==``, ``<``, ``&``, ``equal``, ...):
no gradient, as in PyTorch, computed in the promoted dtype as PyTorch compares."""
from __future__ import annotations

import numpy

from . import backend
from .core import TENSOR_TYPES, _wrap
from .ops.dims import normalize_dims
from .promotion import cast_operands, result_type


class TensorCompare:
    __slots__ = ()
    __hash__ = object.__hash__  # == is elementwise, so a tensor hashes by identity, as in PyTorch

    def _compare(self, other, ufunc):
        x = self._data
        value = other._data if other.__class__ in TENSOR_TYPES else other
        if getattr(value, "dtype", x.dtype) != x.dtype:
            x, value, _ = cast_operands(x, value)  # compare as PyTorch does: in the promoted dtype
        return _wrap(ufunc(x, value), False, None)

    def __eq__(self, other):
        return self._compare(other, numpy.equal)

    def __ne__(self, other):
        return self._compare(other, numpy.not_equal)

    def __lt__(self, other):
        return self._compare(other, numpy.less)

    def __le__(self, other):
        return self._compare(other, numpy.less_equal)

    def __gt__(self, other):
        return self._compare(other, numpy.greater)

    def __ge__(self, other):
        return self._compare(other, numpy.greater_equal)

    def _bitwise(self, other, ufunc, name: str):
        """``&``, ``|``, ``^`` as PyTorch's bitwise ops: logical on bools, bit by bit on
        integers (``t & 1`` of an int64 tensor is int64), in the promoted dtype; refused for
        floats, as PyTorch refuses them."""
        value = other._data if other.__class__ in TENSOR_TYPES else other
        if result_type(self._data, value).kind == "f":
            raise NotImplementedError(f"{name} is not implemented for floating-point tensors (here "
                                      f"{self.dtype!r} with {type(other).__name__}): it works on bool "
                                      f"and integer tensors")
        return self._compare(other, ufunc)

    def __and__(self, other):
        return self._bitwise(other, numpy.bitwise_and, "bitwise_and")

    def __or__(self, other):
        return self._bitwise(other, numpy.bitwise_or, "bitwise_or")

    def __xor__(self, other):
        return self._bitwise(other, numpy.bitwise_xor, "bitwise_xor")

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__  # each is symmetric

    def __invert__(self):
        if self._data.dtype.kind == "f":
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors "
                            f"(this one is {self.dtype!r}; for a mask, compare first: ~(x > 0))")
        return _wrap(numpy.logical_not(self._data) if self._data.dtype.kind == "b"
                     else numpy.invert(self._data), False, None)

    def eq(self, other):
        return self.__eq__(other)

    ne, lt, le, gt, ge = __ne__, __lt__, __le__, __gt__, __ge__

    def isnan(self):
        return _wrap(backend.array_module(self._data).isnan(self._data), False, None)

    def isinf(self):
        return _wrap(backend.array_module(self._data).isinf(self._data), False, None)

    def isfinite(self):
        return _wrap(backend.array_module(self._data).isfinite(self._data), False, None)

    def any(self, dim=None, keepdim: bool = False):
        """Whether any entry (along ``dim``) is non-zero: a bool tensor, as in PyTorch."""
        return self._truth(dim, keepdim, "any")

    def all(self, dim=None, keepdim: bool = False):
        return self._truth(dim, keepdim, "all")

    def _truth(self, dim, keepdim: bool, name: str):
        x = self._data
        axis = None if dim is None else normalize_dims(dim, x.ndim)
        if axis is not None and x.ndim == 0:
            axis = None
        xp = backend.array_module(x)
        return _wrap(xp.asarray(getattr(xp, name)(x, axis=axis, keepdims=keepdim)), False, None)

    def equal(self, other) -> bool:
        return self.shape == other.shape and bool((self._data == other._data).all())

    def allclose(self, other, rtol=1e-5, atol=1e-8, equal_nan=False) -> bool:
        return bool(self.isclose(other, rtol, atol, equal_nan).all())

    def isclose(self, other, rtol=1e-5, atol=1e-8, equal_nan=False):
        """``|a - b| <= atol + rtol * |b|`` entry by entry, in the promoted dtype; infinities
        are close only to themselves, NaN only with ``equal_nan``, as in PyTorch."""
        value = other._data if other.__class__ in TENSOR_TYPES else other
        if getattr(value, "dtype", self._data.dtype) != self._data.dtype:
            raise RuntimeError(f"{self.dtype} did not match {other.dtype}")
        if rtol < 0 or atol < 0:
            raise RuntimeError(f"{'rtol' if rtol < 0 else 'atol'} must be greater than or equal to zero, "
                               f"but got {rtol if rtol < 0 else atol}")
        xp = backend.array_module(self._data)
        return _wrap(xp.asarray(xp.isclose(self._data, value, rtol=rtol, atol=atol, equal_nan=equal_nan)),
                     False, None)

    def nonzero(self, *, as_tuple: bool = False):
        """The indices of the non-zero entries: one row per entry (int64, ``(n, ndim)``), or
        with ``as_tuple`` one index tensor per dimension, as in PyTorch."""
        x = self._data
        xp = backend.array_module(x)
        found = xp.nonzero(x.reshape(1) if x.ndim == 0 else x)
        if as_tuple:
            return tuple(_wrap(i.astype(numpy.int64, copy=False), False, None) for i in found)
        rows = xp.stack(found, axis=1) if x.ndim else xp.zeros((found[0].shape[0], 0), dtype=numpy.int64)
        return _wrap(rows.astype(numpy.int64, copy=False), False, None)

    def count_nonzero(self, dim=None):
        x = self._data
        axis = None if dim is None else normalize_dims(dim, x.ndim)
        xp = backend.array_module(x)
        return _wrap(xp.asarray(xp.count_nonzero(x, axis=axis), dtype=numpy.int64), False, None)


def isnan(input):
    return input.isnan()


def isinf(input):
    return input.isinf()


def isfinite(input):
    return input.isfinite()


def any(input, dim=None, keepdim: bool = False):  # noqa: A001 - PyTorch's names
    return input.any(dim, keepdim)


def all(input, dim=None, keepdim: bool = False):  # noqa: A001
    return input.all(dim, keepdim)


def isclose(input, other, rtol=1e-5, atol=1e-8, equal_nan=False):
    return input.isclose(other, rtol, atol, equal_nan)


def allclose(input, other, rtol=1e-5, atol=1e-8, equal_nan=False) -> bool:
    return input.allclose(other, rtol, atol, equal_nan)


def equal(input, other) -> bool:
    return input.equal(other)


def nonzero(input, *, as_tuple: bool = False):
    return input.nonzero(as_tuple=as_tuple)


def count_nonzero(input, dim=None):
    return input.count_nonzero(dim)


def eq(input, other):
    return input == other


def ne(input, other):
    return input != other


def lt(input, other):
    return input < other


def le(input, other):
    return input <= other


def gt(input, other):
    return input > other


def ge(input, other):
    return input >= other
