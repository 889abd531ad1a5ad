"""Summaries: what a trace document holds in place of an array's numbers.

A tensor of at most ``SMALL`` elements keeps all its numbers (``values``, flat and
row-major). A larger one keeps its statistics (min, max, mean, std over the finite
entries, and the count of NaN and inf) and a ``preview``: at most 32x32 entries,
picked at even strides, quantized to 0..255 between ``lo`` and ``hi``. Never a
whole large array, so a trace stays small however big the tensors are.

Summaries are computed while the traced code runs, so they must be cheap: the
statistics take four passes over the data (two BLAS dot products for the sum and
the sum of squares, then min and max), and NaN/inf are counted only when the sum
of squares says there is something to count.

>>> import numpy
>>> summarize(numpy.array([1.0, float("nan")]))["values"]
[1.0, 'NaN']
"""
from __future__ import annotations

import math
import weakref

import numpy

SMALL = 64
PREVIEW = 32

_FLOATS = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))
_ones: dict = {}  # dtype -> the longest ones vector asked for yet (sums are dot products with it)


def _host(array):
    """A NumPy view of ``array`` (CuPy arrays are copied to the host; small ones only)."""
    if isinstance(array, (numpy.ndarray, numpy.generic)):
        return array
    get = getattr(array, "get", None)  # CuPy
    return numpy.asarray(get() if get is not None else array)


def device_name(array) -> str:
    """``"cpu"`` or ``"cuda:N"`` for an array."""
    if isinstance(array, (numpy.ndarray, numpy.generic)):
        return "cpu"
    from ..backend import device_of

    return str(device_of(array))


def _json_number(value: float):
    """A JSON-safe number: NaN and infinities become strings, which JSON can carry."""
    if value != value:
        return "NaN"
    if value in (math.inf, -math.inf):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def _round(value) -> float | None:
    value = float(value)
    return float(f"{value:.6g}") if math.isfinite(value) else None


def summarize(array) -> dict:
    """The summary of one array (NumPy, CuPy or a NumPy scalar)."""
    shape = [int(n) for n in array.shape]
    dtype = array.dtype
    if array.size <= SMALL:
        return _small(_host(array), shape, dtype)
    return _large(array, shape, dtype)


def _small(array, shape: list, dtype) -> dict:
    values = numpy.ravel(array).tolist()
    nan = inf = 0
    if dtype.kind == "f" and not math.isfinite(sum(values)):
        nan = sum(1 for v in values if v != v)
        inf = sum(1 for v in values if v in (math.inf, -math.inf))
        values = [_json_number(v) for v in values]
    return {"shape": shape, "dtype": dtype.name, "values": values, "nan": nan, "inf": inf}


def _unbroadcast(array):
    """The distinct entries of a broadcast view (stride-0 dimensions kept once), and
    how many times each repeats. ``expand`` gradients are views like this."""
    strides = getattr(array, "strides", None)
    if not strides or 0 not in strides:
        return array, 1
    key = tuple(slice(0, 1) if stride == 0 and size > 1 else slice(None)
                for stride, size in zip(strides, array.shape))
    distinct = array[key]
    return distinct, array.size // max(distinct.size, 1)


def _ones_for(n: int, dtype, xp):
    cached = _ones.get((dtype, xp))
    if cached is None or cached.shape[0] < n:
        cached = _ones[(dtype, xp)] = xp.ones(max(n, 1024), dtype=dtype)
    return cached[:n]


def _large(array, shape: list, dtype) -> dict:
    xp = numpy if isinstance(array, numpy.ndarray) else _array_module(array)
    distinct, repeats = _unbroadcast(array)
    flat = distinct.reshape(-1)
    if flat.dtype not in _FLOATS:  # ints, bools, float16: statistics in a float type BLAS knows
        flat = flat.astype(numpy.float64 if flat.dtype.kind in "iu" else numpy.float32)
    n = flat.shape[0]
    total = float(xp.dot(flat, _ones_for(n, flat.dtype, xp)))
    squares = float(xp.dot(flat, flat))
    nan = inf = 0
    if math.isfinite(squares) and math.isfinite(total):
        finite, count = flat, n  # x*x summed is finite only if every x is
        low, high = float(flat.min()), float(flat.max())
    else:
        ok = xp.isfinite(flat)
        nan = int(xp.isnan(flat).sum()) * repeats
        inf = int((~ok).sum()) * repeats - nan
        finite = flat[ok].astype(numpy.float64)
        count = finite.shape[0]
        if count:
            total, squares = float(finite.sum()), float(xp.dot(finite, finite))
            low, high = float(finite.min()), float(finite.max())
    summary = {"shape": shape, "dtype": dtype.name, "nan": nan, "inf": inf,
               "min": None, "max": None, "mean": None, "std": None}
    if count:
        mean = total / count
        variance = squares / count - mean * mean
        if variance < 1e-4 * mean * mean:  # the one-pass formula cancels: do it the slow way
            centered = finite.astype(numpy.float64) - mean
            variance = float(xp.dot(centered, centered)) / count
        summary.update(min=_round(low), max=_round(high), mean=_round(mean),
                       std=_round(math.sqrt(max(variance, 0.0))))
        summary["preview"] = _preview(array, low, high)
    return summary


def _array_module(array):
    from ..backend import array_module

    return array_module(array)


def _preview(array, low: float, high: float) -> dict:
    """At most PREVIEW x PREVIEW entries at even strides, as 0..255 between low and high.
    The array is seen as 2-D: a vector is one row; leading dimensions fold into rows."""
    shape = array.shape
    cols = shape[-1] if shape else 1
    rows = array.size // max(cols, 1)
    row_step, col_step = -(-rows // PREVIEW), -(-cols // PREVIEW)
    picked_rows = range(0, rows, row_step)
    if array.ndim <= 1:
        sample = array.reshape(1, -1)[:, ::col_step]
    elif array.ndim == 2:
        sample = array[::row_step, ::col_step]
    else:  # index the leading dimensions directly: reshaping a view could copy it all
        lead = numpy.unravel_index(numpy.asarray(picked_rows), shape[:-1])
        sample = array[tuple(_host_index(i, array) for i in lead) + (slice(None, None, col_step),)]
    sample = _host(sample).astype(numpy.float64)
    span = high - low
    scaled = (sample - low) * (255.0 / span) if span > 0 else sample * 0.0
    codes = numpy.rint(numpy.clip(numpy.nan_to_num(scaled, nan=0.0, posinf=255.0, neginf=0.0), 0, 255))
    q = codes.astype(numpy.int16).ravel().tolist()
    if not numpy.isfinite(sample).all():
        q = [None if v != v else c for v, c in zip(sample.ravel().tolist(), q)]
    return {"rows": int(sample.shape[0]), "cols": int(sample.shape[1]), "step": [row_step, col_step],
            "lo": _round(low), "hi": _round(high), "q": q}


def _host_index(index, array):
    if isinstance(array, numpy.ndarray):
        return index
    return _array_module(array).asarray(index)


def nonfinite(summary: dict | None) -> bool:
    """Whether a summary counted any NaN or inf."""
    return summary is not None and (summary["nan"] > 0 or summary["inf"] > 0)


class SummaryCache:
    """Summaries of the arrays seen lately, by identity, held through weak references.

    One gradient array often appears several times in a backward pass (sent by one
    step, arriving at the next, stored as a leaf's ``.grad``); it is summarized once.
    Small arrays and NumPy scalars are not cached (cheap, and scalars have no weakref).
    """

    __slots__ = ("_entries",)

    def __init__(self):
        self._entries: dict = {}

    def get(self, array) -> dict:
        if array.size <= SMALL:
            return summarize(array)
        key = id(array)
        entry = self._entries.get(key)
        if entry is not None and entry[0]() is array:
            return entry[1]
        summary = summarize(array)
        try:
            self._entries[key] = (weakref.ref(array), summary)
        except TypeError:  # no weak references to this kind of array
            pass
        return summary

    def clear(self) -> None:
        self._entries.clear()
