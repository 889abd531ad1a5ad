"""Creation functions: ag.tensor, zeros, ones, randn, ... with PyTorch's defaults."""
from __future__ import annotations

import numpy

from . import dtypes
from .arrays import _check_fits, _check_int64_range, as_array
from .autograd.leaves import leaf as _finish  # a factory's last step: the leaf, on its device
from .core import TENSOR_TYPES, _wrap
from .tensor import Tensor


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
