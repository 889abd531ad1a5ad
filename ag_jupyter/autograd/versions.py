"""Version counters for in-place safety, kept off the per-op path.

PyTorch gives every tensor a version counter that in-place ops bump and that
backward checks for every saved tensor. Here a counter lives only where an
in-place op has happened: keyed by the array that owns the memory, so views
(which NumPy and CuPy chain through ``.base``) share it. A recorded node keeps
the value of a global clock; backward looks at versions only if the clock moved
since, so a program without in-place ops pays one integer store per op.
"""
from __future__ import annotations

import weakref

_history: dict[int, list[int]] = {}  # id(owning array) -> clock value of each in-place change
clock = 0


def _owner(array):
    while getattr(array, "base", None) is not None and hasattr(array.base, "shape"):
        array = array.base
    return array


def bump(array) -> None:
    """Record an in-place change of ``array`` (and of every view of its memory)."""
    global clock
    clock += 1
    owner = _owner(array)
    key = id(owner)
    changes = _history.get(key)
    if changes is None:
        changes = _history[key] = []
        weakref.finalize(owner, _history.pop, key, None)
    changes.append(clock)


def version(array) -> int:
    return len(_history.get(id(_owner(array)), ()))


def version_at(array, moment: int) -> int:
    """The version ``array`` had when the clock read ``moment``."""
    return sum(1 for when in _history.get(id(_owner(array)), ()) if when <= moment)
