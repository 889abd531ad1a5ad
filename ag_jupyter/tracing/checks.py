"""Check a gradient by hand, on the recorded graph: nudge a leaf, or step every leaf downhill.

Both re-evaluate the graph with the engine (``replay.Tape.evaluate``) and compare with
what backward said:

- ``nudge``: the output at ``x + h`` and ``x - h`` (one entry of ``x``), the central
  difference ``(L(x+h) - L(x-h)) / 2h`` beside ``x.grad`` at that entry, their relative
  error and how many significant digits agree.
- ``downhill``: every leaf moved by ``-lr * grad``, the output replayed, beside the
  first-order prediction ``L - lr * ||grad||^2``.

The numbers are Python floats in dicts (JSON-ready: the widget sends them to the page).
"""
from __future__ import annotations

import math

import numpy

from .replay import to_host


def default_h(value: numpy.ndarray) -> float:
    """About 1e-3 of the value's scale (1e-3 for a value near 0)."""
    scale = float(numpy.max(numpy.abs(value))) if value.size else 0.0
    return 1e-3 * scale if scale > 1e-3 and math.isfinite(scale) else 1e-3


def agreeing_digits(a: float, b: float) -> int:
    """Significant digits ``a`` and ``b`` share (0..16); 16 when they are equal."""
    if a == b:
        return 16
    error = relative_error(a, b)
    if not math.isfinite(error) or error >= 1:
        return 0
    return min(16, int(math.floor(-math.log10(error))))


def relative_error(a: float, b: float) -> float:
    scale = max(abs(a), abs(b))
    return abs(a - b) / scale if scale else 0.0


def _scalar(array) -> float:
    host = to_host(array)
    if host.size != 1:
        raise ValueError(f"a check needs a scalar output (a loss); this one has shape {list(host.shape)}")
    return float(host.reshape(()))


def nudge(tape, root: int, leaf: int, grad, h: float | None = None, index=None) -> dict:
    """The finite-difference check of ``leaf``'s gradient at entry ``index`` (a flat index or
    a tuple; None for a one-entry leaf); ``grad`` is the leaf's gradient (an array)."""
    value = tape.recorded_value(leaf)
    host = to_host(value)
    flat = _flat_index(host.shape, index)
    h = default_h(host) if h is None else float(h)
    if not (math.isfinite(h) and h > 0):
        raise ValueError(f"h must be a finite number > 0, got {h!r}")
    outputs = {}
    for sign in (1, -1):
        moved = value.copy()
        _add_at(moved, flat, sign * h)
        outputs[sign] = _scalar(tape.evaluate(root, {leaf: moved}))
    base = _scalar(tape.evaluate(root))
    slope = (outputs[1] - outputs[-1]) / (2 * h)
    gradient = float(to_host(grad).reshape(-1)[flat])
    return {"h": h, "index": list(numpy.unravel_index(flat, host.shape)) if host.shape else [],
            "x": float(host.reshape(-1)[flat]), "L": base, "L_plus": outputs[1], "L_minus": outputs[-1],
            "slope": slope, "grad": gradient, "relative_error": relative_error(slope, gradient),
            "digits": agreeing_digits(slope, gradient)}


def downhill(tape, root: int, grads: dict, lr: float) -> dict:
    """``grads``: leaf index -> gradient array, for every leaf that requires grad. The
    output before and after each moves by ``-lr * grad``, and the first-order prediction."""
    lr = float(lr)
    if not math.isfinite(lr):
        raise ValueError(f"lr must be a finite number, got {lr!r}")
    moved, squared = {}, 0.0
    for leaf, grad in grads.items():
        value = tape.recorded_value(leaf)
        moved[leaf] = value - lr * grad.astype(value.dtype, copy=False)
        squared += float(numpy.sum(numpy.square(to_host(grad).astype(numpy.float64))))
    before = _scalar(tape.evaluate(root))
    after = _scalar(tape.evaluate(root, moved))
    predicted = before - lr * squared
    return {"lr": lr, "L": before, "L_new": after, "predicted": predicted, "grad_norm_squared": squared,
            "change": after - before, "predicted_change": predicted - before}


def _flat_index(shape: tuple, index) -> int:
    size = int(numpy.prod(shape)) if shape else 1
    if index is None:
        if size != 1:
            raise ValueError(f"this leaf has shape {list(shape)}: say which entry to nudge (index=(i, j) or a "
                             f"flat index 0..{size - 1})")
        return 0
    if isinstance(index, (list, tuple)):
        if len(index) != len(shape):
            raise ValueError(f"index {tuple(index)} does not fit shape {list(shape)}")
        try:
            return int(numpy.ravel_multi_index(tuple(int(i) for i in index), shape))
        except ValueError:
            raise ValueError(f"index {tuple(index)} is outside shape {list(shape)}") from None
    flat = int(index)
    if not 0 <= flat < size:
        raise ValueError(f"flat index {flat} is outside 0..{size - 1} (shape {list(shape)})")
    return flat


def _add_at(array, flat: int, amount: float) -> None:
    if array.ndim == 0:
        array[...] = array + amount
    else:
        array.reshape(-1)[flat] += amount
