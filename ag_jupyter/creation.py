"""Creation functions: ag.tensor, zeros, ones, randn, ... with PyTorch's defaults."""
from __future__ import annotations

import numpy

from . import backend, dtypes
from .autograd import state
from .tensor import TENSOR_TYPES, Tensor, _wrap

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
    from .promotion import promote_types

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


def _finish(array, device, requires_grad: bool) -> Tensor:
    target = _default_device if device is None else backend.as_device(device)
    t = _wrap(backend.move(array, target), False, None)
    if requires_grad:
        t.requires_grad = True  # the property says why integer tensors can't
    if state.listener is not None:
        state.listener.on_leaf(t)
    return t


def tensor(data, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Make a leaf tensor from a number, a (nested) list, a NumPy array or a tensor.

    >>> import ag_jupyter as ag
    >>> ag.tensor([1.0, 2.0], requires_grad=True)
    tensor([1., 2.], requires_grad=True)
    """
    return _finish(as_array(data, dtypes.default_float().numpy, dtype), device, requires_grad)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    if data.__class__ in TENSOR_TYPES and dtype is None and device is None:
        return data
    return tensor(data, dtype=dtype, device=device)


def from_numpy(array: numpy.ndarray) -> Tensor:
    """A tensor sharing ``array``'s memory."""
    return _wrap(dtypes.normalize(array), False, None)


def _sizes(size) -> tuple:
    if len(size) == 1 and not isinstance(size[0], int):
        return tuple(size[0])
    return tuple(size)


def _float_or(dtype):
    return dtypes.to_numpy(dtype) if dtype is not None else dtypes.default_float().numpy


def _filled(size, value, dtype, device, requires_grad):
    target = _float_or(dtype)
    if isinstance(value, float):  # an int too large: NumPy's OverflowError says so already
        _check_fits(numpy.asarray(value), target)
    return _finish(numpy.full(_sizes(size), value, dtype=target), device, requires_grad)


def _require(kind: str, dtype, op: str) -> None:
    """PyTorch defines random floats only for floating dtypes, and arange and linspace for
    numbers, not bools: refused as it refuses them, where NumPy would cast its floats."""
    numpy_dtype = _float_or(dtype)
    if numpy_dtype.kind not in kind:
        wanted = "a floating dtype (float32, float64)" if kind == "f" else "a number dtype"
        raise NotImplementedError(f'"{op}" is not implemented for {numpy_dtype.name}: ask for {wanted}'
                                  + (", or use randint for integers" if kind == "f" else ""))


def zeros(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _filled(size, 0, dtype, device, requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _filled(size, 1, dtype, device, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _filled(size, 0, dtype, device, requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False) -> Tensor:
    if dtype is None and isinstance(fill_value, bool):
        dtype = dtypes.bool_
    elif dtype is None and isinstance(fill_value, int):
        dtype = dtypes.int64
    return _filled((tuple(size),), fill_value, dtype, device, requires_grad)


def _like(t: Tensor, dtype, device):
    return (dtype if dtype is not None else t.dtype), (device if device is not None else t.device)


def zeros_like(input: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    dtype, device = _like(input, dtype, device)
    return zeros(input.shape, dtype=dtype, device=device, requires_grad=requires_grad)


def ones_like(input: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    dtype, device = _like(input, dtype, device)
    return ones(input.shape, dtype=dtype, device=device, requires_grad=requires_grad)


def full_like(input: Tensor, fill_value, dtype=None, device=None, requires_grad=False) -> Tensor:
    dtype, device = _like(input, dtype, device)
    return full(input.shape, fill_value, dtype=dtype, device=device, requires_grad=requires_grad)


def eye(n: int, m: int | None = None, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _finish(numpy.eye(n, m, dtype=_float_or(dtype)), device, requires_grad)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False) -> Tensor:
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("arange: step must be nonzero")
    _check_int64_range([start, end, step])
    if dtype is not None:
        _require("iuf", dtype, "arange")
        if dtypes.to_numpy(dtype).kind in "iu" and any(float(v) != int(v) for v in (start, end, step)):
            # PyTorch truncates them first for int64 and not for int32; NumPy counts in floats
            raise ValueError(f"arange({start}, {end}, {step}) with an integer dtype: give it integers, "
                             f"or make it in a float dtype and convert with .long()")
    values = numpy.arange(start, end, step)
    if dtype is None:
        dtype = dtypes.int64 if values.dtype.kind in "iu" else dtypes.default_float()
    return _finish(values.astype(dtypes.to_numpy(dtype)), device, requires_grad)


def linspace(start, end, steps: int, dtype=None, device=None, requires_grad=False) -> Tensor:
    _require("iuf", dtype, "linspace")
    return _finish(numpy.linspace(start, end, steps, dtype=_float_or(dtype)), device, requires_grad)
