"""PyTorch's type promotion (``torch.result_type``), not NumPy's.

Operands fall in three groups: tensors with dimensions, 0-d tensors, and Python
numbers. A group only decides the result when its *category* (bool < integer <
floating) is higher than every group before it, so ``float32[2] * float64[]`` is
float32 and ``int32[2] * 2.5`` is the default float, while ``int32[2] * float64[]``
is float64 (a 0-d tensor of a higher category does count). Within a category the
wider type wins; float16 with any integer type is float16.

Ops call ``binary_result`` only when the operands' dtypes differ, so the per-op path
of same-dtype code is unchanged. ``tests/test_promotion.py`` checks the whole table
against ``torch.result_type``.
"""
from __future__ import annotations

import numpy

from . import dtypes

_BOOL, _INT, _FLOAT = 0, 1, 2
_ORDER = {numpy.dtype(numpy.bool_): 0, numpy.dtype(numpy.uint8): 1, numpy.dtype(numpy.int8): 1,
          numpy.dtype(numpy.int16): 2, numpy.dtype(numpy.int32): 3, numpy.dtype(numpy.int64): 4,
          numpy.dtype(numpy.float16): 5, numpy.dtype(numpy.float32): 6, numpy.dtype(numpy.float64): 7}
_SIGNED_AND_UNSIGNED_BYTE = {numpy.dtype(numpy.uint8), numpy.dtype(numpy.int8)}
_cache: dict = {}


def category(numpy_dtype) -> int:
    kind = numpy_dtype.kind
    return _FLOAT if kind == "f" else _BOOL if kind == "b" else _INT


def promote_types(a, b):
    """The smallest of our dtypes both ``a`` and ``b`` fit in (``torch.promote_types``)."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    category_a, category_b = category(a), category(b)
    if category_a != category_b:
        return a if category_a > category_b else b
    if {a, b} == _SIGNED_AND_UNSIGNED_BYTE:  # neither holds the other: the next wider type does
        return numpy.dtype(numpy.int16)
    return a if _ORDER[a] > _ORDER[b] else b


def _combine(higher, lower):
    """torch's ``combine_categories``: a lower group counts only with a higher category."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if category(higher) == _FLOAT:
        return higher
    if higher.kind == "b" or category(lower) == _FLOAT:
        return promote_types(higher, lower)
    return higher


def _number_dtype(value):
    if isinstance(value, bool):
        return numpy.dtype(numpy.bool_)
    if isinstance(value, int):
        return numpy.dtype(numpy.int64)
    if isinstance(value, float):
        return dtypes.default_float().numpy
    raise TypeError(f"unsupported operand type for a tensor op: {type(value).__name__}")


def result_type(*operands):
    """The NumPy dtype PyTorch gives an op on ``operands`` (arrays or Python numbers)."""
    dimensioned = zero_dim = numbers = None
    for x in operands:
        dtype = getattr(x, "dtype", None)
        if dtype is None:
            numbers = promote_types(numbers, _number_dtype(x))
        elif x.ndim:
            dimensioned = promote_types(dimensioned, dtype)
        else:
            zero_dim = promote_types(zero_dim, dtype)
    return _combine(dimensioned, _combine(zero_dim, numbers))


def binary_result(x, y):
    """``result_type(x, y)`` for the common pair, memoised by what decides it."""
    key = (_describe(x), _describe(y), dtypes.default_float().numpy)
    found = _cache.get(key)
    if found is None:
        found = _cache[key] = result_type(x, y)
    return found


def _describe(x):
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        return type(x)
    return dtype, x.ndim == 0


def cast_operands(x, y):
    """``x`` and ``y`` (arrays or numbers) as the result dtype; numbers stay numbers
    (NumPy keeps a Python number weak), an array of another dtype is cast."""
    target = binary_result(x, y)
    if getattr(x, "dtype", target) != target:
        x = x.astype(target)
    if getattr(y, "dtype", target) != target:
        y = y.astype(target)
    return x, y, target


def check_python_int(value) -> None:
    """PyTorch raises for an integer that int64 cannot hold; NumPy would wrap or go object."""
    if not -(2 ** 63) <= value < 2 ** 63:
        raise OverflowError(f"int too big to convert: {value} does not fit in int64")


def floating(array):
    """The input of exp, log, sin, ...: integer and bool data become the default float, as
    PyTorch computes them (NumPy would pick float16 for bool and float64 for integers)."""
    if array.dtype.kind == "f":
        return array
    return array.astype(dtypes.default_float().numpy)


def require_floating(array, op: str) -> None:
    """Ops PyTorch defines only on floating-point data (softmax, var, norm, ...)."""
    if array.dtype.kind != "f":
        raise RuntimeError(
            f"{op}: expected a floating point tensor, got {dtypes.of_array(array).name} "
            f"(convert it with .float() first)"
        )


def refuse_bool(array, op: str) -> None:
    if array.dtype.kind == "b":
        raise RuntimeError(f"{op} is not supported for bool tensors "
                           f"(convert it with .int() or .float() first)")


def kernel_for(array, kernel: str, kinds: str) -> None:
    """PyTorch's ``NotImplementedError`` for a kernel without a version for this dtype
    (``"hypot_cpu" not implemented for 'Long'``): ``kinds`` are the dtype kinds it has."""
    if array.dtype.kind not in kinds:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{dtypes.scalar_type_name(array)}'")
