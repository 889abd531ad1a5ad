"""Version counters for in-place safety, kept off the per-op path.

PyTorch gives every tensor a version counter that in-place ops bump and that
backward checks for every saved tensor. Here a counter lives only where an
in-place op has happened: keyed by the array that owns the memory, so views
(which NumPy and CuPy chain through ``.base``) share it. A recorded node keeps
the value of a global clock; backward looks at versions only if the clock moved
since, so a program without in-place ops pays one integer store per op.

Only the most recent changes of an array are remembered (older ones are counted),
so a training loop that updates its weights in place for hours keeps a bounded
history. A node older than every remembered change still sees that its saved
value changed; only the exact "expected version" in the message is then a bound.
"""
from __future__ import annotations

import weakref

from ..core import TENSOR_TYPES
from ..dtypes import from_numpy

# id(owning array) -> [changes forgotten, clock value of each remembered change...]
_history: dict[int, list[int]] = {}
_KEEP = 16  # remembered changes per array, after pruning
_LONGEST = 2 * _KEEP + 1  # a history pruned when it grows past this
clock = 0


# Arrays that count their own versions though they view another's memory: what ``.data``
# hands out. PyTorch's ``.data`` shares the storage but not the version counter, so
# ``w.data -= lr * w.grad`` does not trip the check of a graph that saved ``w``. A view
# taken of ``w.data`` (``w.data[0].fill_(1)``) still counts as ``w``'s: NumPy and CuPy point
# every view's ``.base`` at the memory's owner, so nothing leads back to the marked array.
# id -> (a weak reference whose callback forgets the array's counter and history when it dies,
# id of the array it views). One dict, no ``weakref.finalize``: ``p.data += -lr * p.grad``
# makes a new view each step, and each extra registration was a visible part of that update.
_own_counters: dict = {}


def _forget(key: int) -> None:
    _own_counters.pop(key, None)
    _history.pop(key, None)


def own_counter(view, origin):
    """Give ``view`` (a fresh view of all of ``origin``) a version counter of its own; return it."""
    key = id(view)
    _own_counters[key] = (weakref.ref(view, lambda _, key=key: _forget(key)), id(origin))
    return view


def is_data_view(array) -> bool:
    """Whether ``array`` is a view ``own_counter`` made (what ``.data`` hands out)."""
    entry = _own_counters.get(id(array))
    return entry is not None and entry[0]() is array


def counts_for(array, origin) -> bool:
    """Whether ``array`` is a view ``own_counter`` made of all of ``origin`` (``w.data``)."""
    entry = _own_counters.get(id(array))
    return entry is not None and entry[1] == id(origin) and entry[0]() is array


def _owner(array):
    while getattr(array, "base", None) is not None and hasattr(array.base, "shape") \
            and not is_data_view(array):
        array = array.base
    return array


def bump(array, own: bool = False) -> None:
    """Record an in-place change of ``array`` (and of every view of its memory); ``own``: the
    caller knows ``array`` is a ``.data`` view, which counts its own versions."""
    global clock
    clock += 1
    owner = array if own or getattr(array, "base", None) is None else _owner(array)  # most own their memory
    key = id(owner)
    changes = _history.get(key)
    if changes is None:
        changes = _history[key] = [0]
        if not own and not is_data_view(owner):  # a .data view's weak reference forgets it (own_counter)
            weakref.finalize(owner, _history.pop, key, None)
    changes.append(clock)
    if len(changes) > _LONGEST:
        del changes[1:_KEEP + 1]
        changes[0] += _KEEP


def version(array) -> int:
    changes = _history.get(id(_owner(array)))
    return 0 if changes is None else changes[0] + len(changes) - 1


def version_at(array, moment: int) -> int:
    """The version ``array`` had when the clock read ``moment`` (for a moment before the
    remembered changes: the count of forgotten ones, still less than ``version``)."""
    changes = _history.get(id(_owner(array)))
    if changes is None:
        return 0
    return changes[0] + sum(1 for when in changes[1:] if when <= moment)


def check(node) -> None:
    """Refuse a backward whose saved values were modified in place since ``node`` saved them."""
    saved = [t._data for t in node.saved if t.__class__ in TENSOR_TYPES]
    owners = [(t.grad_fn.name() if t.grad_fn is not None else None) for t in node.saved
              if t.__class__ in TENSOR_TYPES]
    if node.saves_output and node.out is not None:
        saved.append(node.out)
        owners.append(node.name())
    for array, owner in zip(saved, owners):
        now, then = version(array), version_at(array, node._versions)
        if now != then:
            described = f"[ag.{from_numpy(array.dtype).tensor_type} {list(array.shape)}]"
            made_by = f", which is output 0 of {owner}," if owner else ""
            raise RuntimeError(
                f"one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: {described}{made_by} is at version {now}; expected version "
                f"{then} instead. Hint: the backward of {node.name()} needs the value it saved; "
                f"modify a clone() instead, or do the in-place change after backward."
            )
