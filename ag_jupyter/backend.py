"""The one module that knows NumPy and CuPy.

Everything else asks this module for the array module of an array (``xp``) and
for devices. CuPy is imported only when a user asks for a GPU, so a CPU-only
install never touches it.
"""
from __future__ import annotations

import warnings

import numpy

from . import deferred_checks

# PyTorch computes log(0) = -inf, 1 / 0 = inf and sqrt's gradient at 0 = inf silently;
# NumPy warns about each, and a learner sees the RuntimeWarning in red under the cell.
# Only what NumPy warns inside this package is silenced: the user's own NumPy code warns.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"ag_jupyter(\.|$)")

_cupy = None  # the cupy module once a GPU has been asked for and found
_cuda_checked = False
_cuda_error: str | None = None

_GPU_HELP = (
    "ag_jupyter found no usable GPU: {why}. Install the GPU extra with "
    "`pip install \"ag_jupyter[gpu]\"` (CuPy for CUDA 12) on a machine with an NVIDIA "
    "driver, or use device=\"cpu\"."
)


class device:
    """Where a tensor lives: ``device("cpu")``, ``device("cuda")``, ``device("cuda:1")``."""

    __slots__ = ("type", "index")

    def __init__(self, spec: "str | device", index: int | None = None):
        if isinstance(spec, device):
            self.type, self.index = spec.type, spec.index
            return
        if not isinstance(spec, str):
            raise TypeError(f"device must be a string such as 'cpu' or 'cuda:0', got {spec!r}")
        kind, _, number = spec.partition(":")
        if kind not in ("cpu", "cuda"):
            raise RuntimeError(
                f"Expected one of cpu, cuda device type at start of device string: {spec!r}"
            )
        if number:
            if kind == "cpu" or not number.isdigit():
                raise RuntimeError(f"Invalid device string: {spec!r}")
            index = int(number)
        self.type = kind
        self.index = index

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        if isinstance(other, str):
            other = device(other)
        if not isinstance(other, device):
            return NotImplemented
        return self.type == other.type and (self.index or 0) == (other.index or 0)

    def __hash__(self) -> int:
        return hash((self.type, self.index or 0))


CPU = device("cpu")


def _load_cupy():
    """Import CuPy and prove one real operation works; remember why not otherwise."""
    global _cupy, _cuda_checked, _cuda_error
    if _cuda_checked:
        return _cupy
    _cuda_checked = True
    try:
        import cupy  # noqa: PLC0415 - optional, imported only on request
    except Exception as exc:  # ImportError, or a broken CUDA toolkit install
        _cuda_error = f"CuPy could not be imported ({type(exc).__name__}: {exc})"
        return None
    try:
        probe = cupy.arange(4, dtype=cupy.float32) * 2
        float(probe.sum())
        cupy.cuda.Stream.null.synchronize()
    except Exception as exc:  # CuPy imports without a driver and fails here
        _cuda_error = f"CuPy is installed but no CUDA device answered ({type(exc).__name__}: {exc})"
        return None
    _cupy = cupy
    return cupy


def cuda_is_available() -> bool:
    return _load_cupy() is not None


def cuda_device_count() -> int:
    cp = _load_cupy()
    return 0 if cp is None else int(cp.cuda.runtime.getDeviceCount())


def require_cupy():
    cp = _load_cupy()
    if cp is None:
        raise RuntimeError(_GPU_HELP.format(why=_cuda_error))
    return cp


def array_module(array):
    """NumPy or CuPy, whichever owns ``array`` (the ``xp`` of Chainer)."""
    if _cupy is not None and isinstance(array, _cupy.ndarray):
        return _cupy
    return numpy


def is_cuda_array(array) -> bool:
    return _cupy is not None and isinstance(array, _cupy.ndarray)


def device_of(array) -> device:
    if _cupy is not None and isinstance(array, _cupy.ndarray):
        return device("cuda", array.device.id)
    return CPU


def as_device(spec) -> device:
    return spec if isinstance(spec, device) else device(spec)


def move(array, target: device):
    """Return ``array`` on ``target``: the same object when it is already there."""
    if target.type == "cpu":
        if _cupy is not None and isinstance(array, _cupy.ndarray):
            deferred_checks.raise_pending()  # the GPU's queued index checks, before a number is read
            return _cupy.asnumpy(array)
        return array
    cp = require_cupy()
    index = target.index or 0
    count = cp.cuda.runtime.getDeviceCount()
    if index >= count:
        raise RuntimeError(
            f"CUDA error: invalid device ordinal: asked for cuda:{index}, "
            f"but only {count} GPU(s) are visible"
        )
    if isinstance(array, cp.ndarray) and array.device.id == index:
        return array
    with cp.cuda.Device(index):
        return cp.asarray(array)


def scatter_add(out, key, values) -> None:
    """``out[key] += values`` with repeated indices adding up (``add.at``; CuPy has it too)."""
    if out.__class__ is numpy.ndarray and _rows_by_product(out, key, values):
        return
    array_module(out).add.at(out, key, values)


_ONE_HOT_LIMIT = 1 << 16  # elements of the one-hot matrix: an embedding table's rows x the lookups


def _rows_by_product(out, key, values) -> bool:
    """``out[rows] += values`` for a small table of floats as one product, ``one_hot(rows).T @
    values``: NumPy's ``add.at`` costs twice that for an embedding's gradient (``C[X]``). An
    infinite or NaN value would spread through the product's zeros to every row, so a result
    that is not all finite is left to ``add.at``. Returns whether it wrote ``out``."""
    if key.__class__ is not numpy.ndarray or key.dtype.kind not in "iu" or out.dtype not in _PRODUCT_DTYPES \
            or not out.ndim or not 0 < key.size * out.shape[0] <= _ONE_HOT_LIMIT \
            or values.__class__ is not numpy.ndarray or values.shape != key.shape + out.shape[1:]:
        return False
    rows = key.reshape(-1)
    one_hot = numpy.zeros((out.shape[0], rows.size), out.dtype)
    one_hot[rows, numpy.arange(rows.size)] = 1  # a negative row counts from the end, as in add.at
    summed = numpy.dot(one_hot, values.astype(out.dtype, copy=False).reshape(rows.size, -1))
    if not numpy.isfinite(summed).all():
        return False
    out += summed.reshape(out.shape)
    return True


_PRODUCT_DTYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


def same_device_error(first: device, second: device) -> RuntimeError:
    return RuntimeError(f"Expected all tensors to be on the same device, but found at least two "
                        f"devices, {_full_name(first)} and {_full_name(second)}! Move them to one "
                        f"device first, with .to(device), .cuda() or .cpu().")


def _full_name(where: device) -> str:
    return "cpu" if where.type == "cpu" else f"cuda:{where.index or 0}"


def require_same_device(first, second) -> None:
    """PyTorch's refusal of two arrays on different devices, for an op whose backend would
    mix them silently (CuPy takes a NumPy array as an index, for one)."""
    if _cupy is not None and device_of(first) != device_of(second):
        raise same_device_error(device_of(first), device_of(second))
