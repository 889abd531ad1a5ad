"""``ag.backends``: the questions tutorials ask of PyTorch's backends, answered truthfully.

``backends.mps`` (Apple's GPU: the engine has no MPS backend, so never available) and
``backends.cudnn`` (the engine's GPU path is CuPy, not cuDNN: its flags ``benchmark`` and
``deterministic`` are accepted and change nothing, as the engine's numbers are already
deterministic for a seed).

>>> import ag_jupyter as ag
>>> ag.backends.mps.is_available()
False
"""
from . import cudnn, mps

__all__ = ["are_deterministic_algorithms_enabled", "cudnn", "mps", "use_deterministic_algorithms"]

_deterministic = {"mode": False, "warn_only": False}


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """``torch.use_deterministic_algorithms``: kept as a flag. Every op here is deterministic
    already (NumPy's and CuPy's kernels, no atomics), so a seed gives the same numbers either way."""
    if not isinstance(mode, bool):
        raise TypeError(f"use_deterministic_algorithms(): argument 'mode' (position 1) must be bool, "
                        f"not {type(mode).__name__}")
    _deterministic.update(mode=mode, warn_only=warn_only)


def are_deterministic_algorithms_enabled() -> bool:
    return _deterministic["mode"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _deterministic["warn_only"]
