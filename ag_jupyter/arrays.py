"""Data to arrays: what ``ag.tensor(data)`` makes of a number, a list, a NumPy array or a
tensor (``as_array``, with PyTorch's dtype inference and range checks), and the default
device. The array-level rules the tensor factories (``creation.py``), the engine and the
ops build on: this module sits below autograd and imports nothing above ``core``.
"""
from __future__ import annotations

import numpy

from . import backend, dtypes
from .core import TENSOR_TYPES
from .promotion import promote_types

_default_device = backend.CPU


def set_default_device(device) -> None:
    global _default_device
    _default_device = backend.as_device(device)


def get_default_device() -> backend.device:
    return _default_device


def as_array(data, float_dtype, dtype):
    """An array for ``data``: Python floats become the default float, ints int64, as PyTorch."""
    if data.__class__ in TENSOR_TYPES:
        array = data._data.copy()
    elif backend.is_cuda_array(data):
        array = data.copy()
    elif isinstance(data, (numpy.ndarray, numpy.generic)):
        array = numpy.array(data)
        array = dtypes.normalize(array)
    else:
        typed = None
        if isinstance(data, (list, tuple)) and any(
                x.__class__ in TENSOR_TYPES or isinstance(x, numpy.generic) for x in _flat(data)):
            typed = _element_dtype(_flat(data), float_dtype)
            data = _untensor(data)
        array = numpy.asarray(data)
        if typed is not None and dtype is None:  # elements that carry a dtype decide it, as in torch.tensor
            return dtypes.normalize(array.astype(typed))
        if array.dtype.kind in "uO":
            _check_int64_range(data)
        if array.dtype == object:
            raise TypeError(f"can't make a tensor from {type(data).__name__} holding non-numbers")
        if dtype is not None:  # from the Python numbers themselves (0.1 as float64 is 0.1),
            _check_fits(array, dtypes.to_numpy(dtype))  # checked as torch.tensor checks them
            return array.astype(dtypes.to_numpy(dtype))
        if array.dtype.kind == "f":
            array = array.astype(float_dtype)
        array = dtypes.normalize(array)
    if dtype is not None:
        array = array.astype(dtypes.to_numpy(dtype), copy=False)
    return array


def _check_fits(values, target) -> None:
    """PyTorch refuses a number its integer dtype cannot hold (NaN, inf, 2**40 as int32),
    where NumPy's cast gives another number. An array or tensor given as data is cast as it
    is, in both (that is ``.to()``'s behaviour)."""
    if target.kind not in "iu" or values.size == 0 or values.dtype.kind not in "iuf":
        return
    limits = numpy.iinfo(target)
    for end in (values.min(), values.max()):
        if not numpy.isfinite(end) or not limits.min <= end <= limits.max:
            raise RuntimeError(f"value cannot be converted to type {target.name} without overflow "
                               f"(the data holds {end}; {target.name} holds {limits.min} to {limits.max})")


def legacy_array(args: tuple):
    """The array of ``Tensor(*args)``, PyTorch's legacy constructor: sizes give zeros of
    that shape, data gives the default float dtype whatever numbers it holds."""
    float_dtype = dtypes.default_float().numpy
    if args and all(isinstance(n, int) and not isinstance(n, bool) for n in args):
        return numpy.zeros(args, dtype=float_dtype)
    if len(args) > 1:
        raise TypeError(f"Tensor() takes sizes (ints) or one sequence of data, got {len(args)} "
                        f"arguments of types {[type(a).__name__ for a in args]}")
    data = args[0] if args else ()
    if isinstance(data, (float, bool)) or data.__class__ is complex:
        raise TypeError(f"Tensor(): data must be a sequence (got {type(data).__name__}); "
                        f"for a 0-d tensor use ag.tensor({data!r})")
    return as_array(data, float_dtype, float_dtype)


def _element_dtype(values, float_dtype):
    """torch.tensor's inference over a list: each element's own dtype (a tensor's or a NumPy
    scalar's; Python floats the default float, ints int64), promoted together."""
    found = None
    for value in values:
        if value.__class__ in TENSOR_TYPES:
            kind = value._data.dtype
        elif isinstance(value, numpy.generic):
            kind = value.dtype
        elif isinstance(value, bool):
            kind = numpy.dtype(bool)
        elif isinstance(value, int):
            kind = numpy.dtype(numpy.int64)
        else:
            kind = numpy.dtype(float_dtype)
        found = promote_types(found, dtypes.normalize(numpy.empty(0, kind)).dtype)
    return found


def _check_int64_range(data) -> None:
    """PyTorch refuses a Python int outside int64; NumPy would make uint64 (then wrap) or objects."""
    values = _flat(data) if isinstance(data, (list, tuple)) else (data,)
    for value in values:
        if isinstance(value, int) and not -(2 ** 63) <= value < 2 ** 63:
            raise ValueError(f"Overflow when unpacking long long: {value} does not fit in int64 "
                             f"(the widest integer dtype); pass it as a float instead")


def _flat(data):
    for x in data:
        if isinstance(x, (list, tuple)):
            yield from _flat(x)
        else:
            yield x


def _untensor(data):
    return [(_untensor(x) if isinstance(x, (list, tuple)) else x.item() if x.__class__ in TENSOR_TYPES else x)
            for x in data]
