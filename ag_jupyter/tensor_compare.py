"""The comparison and logical methods of ``Tensor`` (``==``, ``<``, ``&``, ``equal``, ...):
no gradient, as in PyTorch, computed in the promoted dtype as PyTorch compares."""
from __future__ import annotations

import numpy

from . import backend
from .core import TENSOR_TYPES, _wrap


class TensorCompare:
    __slots__ = ()
    __hash__ = object.__hash__  # == is elementwise, so a tensor hashes by identity, as in PyTorch

    def _compare(self, other, ufunc):
        x = self._data
        value = other._data if other.__class__ in TENSOR_TYPES else other
        if getattr(value, "dtype", x.dtype) != x.dtype:
            from .promotion import cast_operands

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

    def __and__(self, other):
        return self._compare(other, numpy.logical_and)

    def __or__(self, other):
        return self._compare(other, numpy.logical_or)

    def __invert__(self):
        return _wrap(numpy.logical_not(self._data) if self._data.dtype.kind == "b"
                     else numpy.invert(self._data), False, None)

    def eq(self, other):
        return self.__eq__(other)

    def equal(self, other) -> bool:
        return self.shape == other.shape and bool((self._data == other._data).all())

    def allclose(self, other, rtol=1e-5, atol=1e-8) -> bool:
        return bool(numpy.allclose(backend.move(self._data, backend.CPU),
                                   backend.move(other._data, backend.CPU), rtol=rtol, atol=atol))
