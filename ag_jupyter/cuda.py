"""``ag.cuda``: is a GPU usable, and how many. Never imports CuPy until asked."""
from __future__ import annotations

from . import backend, deferred_checks


def is_available() -> bool:
    """True only when CuPy imports and a real array operation on the GPU succeeds."""
    return backend.cuda_is_available()


def device_count() -> int:
    return backend.cuda_device_count()


def synchronize() -> None:
    if backend.cuda_is_available():
        backend.require_cupy().cuda.Stream.null.synchronize()
        deferred_checks.raise_pending()  # as PyTorch's synchronize reports a device-side assert


def manual_seed(seed: int) -> None:
    """Accepted, and changes nothing: the engine has one random source for CPU and GPU,
    seeded by ``ag.manual_seed`` (which seeds PyTorch's CUDA generators too), so a seeding
    helper that calls both keeps its numbers, and this call cannot reseed the CPU's mid-program."""
    int(seed)  # a seed that is no number is still an error, as in PyTorch


manual_seed_all = manual_seed
