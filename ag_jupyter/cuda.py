"""``ag.cuda``: is a GPU usable, and how many. Never imports CuPy until asked."""
from __future__ import annotations

from . import backend


def is_available() -> bool:
    """True only when CuPy imports and a real array operation on the GPU succeeds."""
    return backend.cuda_is_available()


def device_count() -> int:
    return backend.cuda_device_count()


def synchronize() -> None:
    if backend.cuda_is_available():
        backend.require_cupy().cuda.Stream.null.synchronize()
