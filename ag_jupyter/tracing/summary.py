"""Summaries: what a trace document holds in place of an array's numbers.

A tensor of at most ``SMALL`` (64) elements keeps all its numbers (``values``,
flat, row-major). A larger one keeps statistics and a ``preview`` of at most
32x32 entries for a heatmap: never a whole large array.

Summaries are taken while the traced code runs, where every NumPy call counts
(on a slow machine a call costs microseconds whatever its size). An array of at
most 1,024 elements (not a broadcast view) is only copied then, one memcpy, and
summarized when the document is built (``Deferred``, made by ``record``). A
larger one cannot be copied for nothing, nor kept, so it is summarized in two
steps:

- **now**, in at most three NumPy calls: one BLAS dot product over every entry
  gives the exact L2 ``norm`` and tells whether any entry is NaN or inf (x*x summed
  is finite only if every x is; only then are NaN and inf counted, exactly), and
  one or two gathers (``take`` of an index cached per shape) keep at most 32x32
  entries for the preview and, when those are fewer than 512, up to 1,024 for the
  statistics. The copies belong to the summary; the array is not kept.
- **when the document is built**: min, max, mean and std from the kept entries,
  and the preview quantized to bytes (``statistics.py``). They are exact when the
  array has at most 1,024 elements (``"sampled": false``), min and max up to 65,536
  (two reductions, now: ``"exact_extrema": true``), else estimates from the kept entries,
  unless the trace asked for ``exact_stats``, which takes them over every entry, now.

>>> import numpy
>>> summarize(numpy.array([1.0, float("nan")]))["values"]
[1.0, 'NaN']
>>> s = to_json(summarize(numpy.arange(100.0)))
>>> s["min"], s["max"], s["mean"], s["sampled"]
(0.0, 99.0, 49.5, False)
"""
from __future__ import annotations

import math

import numpy

from .. import deferred_checks
from ..backend import CPU, array_module, device_of, move
from .copies import CopyBlocks
from .statistics import (
    CHANNELS,
    channel_previews,
    channel_steps,
    extrema,
    finished_one,
    norm_of_finite,
    preview,
    sample_stats,
    stat,
)

SMALL = 64
SAMPLE = 1024
EXACT_EXTREMA = 65536  # min and max over every entry up to here: ~30 us; 200k entries cost W2 ~10%
PREVIEW = 32

# vdot, not dot: the same BLAS call (bit for bit), but NumPy's dot warns "overflow encountered
# in dot" when the squares of huge entries (float32 past ~1e19) overflow, which would put a
# RuntimeWarning in the learner's cell for the tracer's own arithmetic; vdot does not.
_dot = numpy.vdot
_names: dict = {}  # dtype -> its name (NumPy computes dtype.name in Python, slowly)
_BLAS = {numpy.dtype(numpy.float32): True, numpy.dtype(numpy.float64): True}  # dot-able as they are


def dtype_name(dtype) -> str:
    """``dtype.name``, cached."""
    name = _names.get(dtype)
    if name is None:
        name = _names[dtype] = dtype.name
    return name


def device_name(array) -> str:
    """``"cpu"`` or ``"cuda:N"`` for an array."""
    if isinstance(array, (numpy.ndarray, numpy.generic)):
        return "cpu"
    return str(device_of(array))


def _host(array):
    """A NumPy array with the entries of ``array`` (a CuPy array is copied to the host, after
    the GPU's queued index checks: ``backend.move``)."""
    return array if isinstance(array, (numpy.ndarray, numpy.generic)) else numpy.asarray(move(array, CPU))


def _json_number(value: float):
    """A JSON-safe number: NaN and infinities become strings, which JSON can carry."""
    if value != value:
        return "NaN"
    if value in (math.inf, -math.inf):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def summarize(array, exact: bool = False):
    """The summary of one array (NumPy, CuPy or a NumPy scalar): a dict for a small
    one, a ``Large`` (finished by ``to_json``) for a larger one."""
    if array.size <= SMALL:
        return _small(_host(array), array.dtype)
    return Large(array, exact)


def small_summary(shape, dtype: str, values: list, nan: int = 0, inf: int = 0) -> dict:
    """A small array's summary as the document holds it: its numbers, flat, row-major."""
    return {"shape": list(shape), "dtype": dtype, "values": values, "nan": nan, "inf": inf}


def _small(array, dtype) -> dict:
    values = array.ravel().tolist()
    nan = inf = 0
    if dtype.kind == "f" and not math.isfinite(sum(values)):
        nan = sum(1 for v in values if v != v)
        inf = sum(1 for v in values if v in (math.inf, -math.inf))
        values = [_json_number(v) for v in values]
    return small_summary(array.shape, dtype_name(dtype), values, nan, inf)


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


class Large:
    """The summary of an array of more than ``SMALL`` elements (see the module doc)."""

    __slots__ = ("shape", "dtype", "nan", "inf", "norm", "repeats", "sample", "grid", "step", "stats",
                 "sampled", "channel_grid", "extrema", "_json")

    def __init__(self, array, exact: bool):
        # Written for speed: this runs for every large tensor while the traced code runs,
        # so shape and dtype are kept as they are and turned into JSON later.
        shape = self.shape = array.shape
        self.dtype = array.dtype
        self.nan = self.inf = 0
        self.stats = self._json = self.extrema = None
        # an image batch is drawn as its first sample's channels, not one smear of every row
        self.channel_grid = _channel_grid(array, shape) if len(shape) == 4 and shape[0] else None
        if 0 in array.strides:
            distinct, repeats = _unbroadcast(array)
        else:
            distinct, repeats = array, 1
        self.repeats = repeats
        flat = distinct.reshape(-1)
        if not _BLAS.get(flat.dtype, False):  # ints, bools, float16: statistics in a type BLAS knows
            flat = flat.astype(numpy.float64 if flat.dtype.kind in "iu" else numpy.float32)
        n = flat.shape[0]
        on_host = flat.__class__ is numpy.ndarray
        if n <= SAMPLE:  # one small copy serves everything, exactly
            self.sampled = False
            sample = self.sample = _kept(flat)
            squares = float(_dot(sample, sample))
            if squares - squares == 0.0:
                self.norm = math.sqrt(squares * repeats)
            else:  # not finite: some entry is NaN or inf, or huge
                self.norm = norm_of_finite(self._count_nonfinite(sample, repeats, numpy), numpy, repeats)
            if repeats == 1:
                self.grid, self.step = _grid(sample.reshape(shape), shape, True)
            else:
                self.grid, self.step = _grid(array, shape, False)
            return
        self.sampled = True
        xp = numpy if on_host else _array_module(flat)
        squares = float(xp.vdot(flat, flat))
        every_entry = squares - squares == 0.0  # finite: no entry is NaN or inf, or huge
        if every_entry:
            self.norm = math.sqrt(squares * repeats)
        else:
            flat = self._count_nonfinite(flat, repeats, xp)  # its finite entries alone
            self.norm = norm_of_finite(flat, xp, repeats)
        if repeats == 1 and on_host and every_entry:  # flat is the array's entries in order: take them by position
            index, self.step, sample_index = _places.get(shape) or _plan(shape)  # _plan's look-up, inlined
            grid = self.grid = _copies.taken(flat, index)
            self.sample = grid if sample_index is None else _copies.taken(flat, sample_index)
        else:
            grid, self.step = _grid(array, shape, False)
            self.grid = grid
            few = _plan(shape)[2] is not None  # the preview's entries are too few a sample
            self.sample = _kept(flat[::_sample_stride(n)]) if few else grid
        self.extrema = None if exact or n > EXACT_EXTREMA else extrema(flat)  # see EXACT_EXTREMA
        if exact:
            self._exact(flat, xp)

    def _exact(self, flat, xp) -> None:
        """min, max, mean and std over every (finite) entry: the ``exact_stats`` option."""
        count = flat.shape[0]
        if count:
            wide = flat.astype(numpy.float64)  # in float32, sums of entries past ~1e19 (or their squares) overflow
            mean = float(xp.vdot(wide, xp.ones(count, dtype=wide.dtype))) / count
            centered = wide - mean
            self.stats = (float(flat.min()), float(flat.max()), mean,
                          math.sqrt(float(xp.vdot(centered, centered)) / count))
        self.sampled = False

    def _count_nonfinite(self, flat, repeats: int, xp):
        """Count NaN and inf exactly (called when the sum of squares is not finite, which
        a huge finite entry can cause too); return the finite entries."""
        ok = xp.isfinite(flat)
        nan = int(xp.isnan(flat).sum())
        self.nan = nan * repeats
        self.inf = (int(flat.shape[0] - int(ok.sum())) - nan) * repeats
        return flat[ok]

    def to_json(self) -> dict:
        """The document's form: statistics and the preview, computed once."""
        if self._json is None:
            self._json = self._finish()
        return self._json

    def _finish(self) -> dict:
        finite = not self.nan and not self.inf  # the counts are exact
        if finite and self.stats is None and self.grid is not None:  # as summary_batch finishes a stack
            out = finished_one(self.sample, self.grid, self.step, self.norm, self.sampled)
            if out is not None:  # else the preview's range overflows: preview() below handles it
                out["shape"], out["dtype"] = list(self.shape), dtype_name(self.dtype)
                if self.extrema:  # taken over every entry (EXACT_EXTREMA), not the sample's
                    low, high = self.extrema
                    out.update(min=stat(low), max=stat(high), exact_extrema=True)
                if self.channel_grid is not None:
                    out["channels"] = channel_previews(self.channel_grid, self.shape, finite)
                return out
        out = {"shape": list(self.shape), "dtype": dtype_name(self.dtype), "nan": self.nan, "inf": self.inf,
               "min": None, "max": None, "mean": None, "std": None, "norm": None, "sampled": self.sampled}
        if self.stats is not None:
            low, high, mean, std = self.stats
        else:
            with numpy.errstate(all="ignore"):  # squares of huge float64 entries: None, not a warning
                low, high, mean, std = sample_stats(self.sample, finite)
            low, high = self.extrema or (low, high)
            out.update({"exact_extrema": True} if self.extrema else {})
        if low is not None:
            out.update(min=stat(low), max=stat(high), mean=stat(mean), std=stat(std))
        out["norm"] = stat(self.norm)
        if self.grid is not None:
            out["preview"] = preview(self.grid, self.step, finite)
        if self.channel_grid is not None:
            out["channels"] = channel_previews(self.channel_grid, self.shape, finite)
        return out

    def __repr__(self) -> str:
        return f"<summary {dtype_name(self.dtype)}{list(self.shape)}>"


def _grid(array, shape, own: bool):
    """At most PREVIEW x PREVIEW entries at even strides, as a 2-D host array: a vector
    is one row; leading dimensions fold into rows. Returns (grid, [row step, col step]).
    ``own``: the array is the summary's own copy (else the grid is copied out of it)."""
    ndim = len(shape)
    cols = shape[-1]
    step = _plan(shape)[1]
    row_step, col_step = step
    if ndim == 1:
        grid = array.reshape(1, cols)[:, ::col_step]
    else:
        rows = math.prod(shape[:-1])
        if ndim == 2:
            grid = array[::row_step, ::col_step]
        elif own:
            grid = array.reshape(rows, cols)[::row_step, ::col_step]
        else:  # index the leading dimensions directly: reshaping a view could copy all of it
            lead = numpy.unravel_index(numpy.arange(0, rows, row_step), shape[:-1])
            grid = array[tuple(_on_device(i, array) for i in lead) + (slice(None, None, col_step),)]
    if not own:
        grid = _kept(grid)
    return grid, step


def _channel_grid(array, shape):
    """Sample 0's first ``CHANNELS`` channels at ``channel_steps``: a host copy, the summary's own
    (one gather, only for 4-D tensors)."""
    row_step, col_step = channel_steps(shape)
    return _host(array[0, :CHANNELS, ::row_step, ::col_step]).copy()


_places: dict = {}  # shape -> _plan(shape), for the shapes seen lately
_PLANS_KEPT = 256  # at most 16 KiB each


def _plan(shape) -> tuple:
    """Where a large array of ``shape`` keeps its preview and its sample among its flat
    entries: ``(grid index, [row step, col step], sample index or None)``, the strides
    ``_grid`` takes too and the sample ``Large`` keeps. One ``take`` of a cached index gathers
    them faster than copying a strided view: a view's copy costs microseconds of set-up
    per call, and the gather itself is the same."""
    plan = _places.get(shape)
    if plan is not None:
        return plan
    cols = shape[-1]
    rows = math.prod(shape[:-1])  # leading dimensions fold into rows; a vector is one row
    row_step, col_step = -(-rows // PREVIEW), -(-cols // PREVIEW)
    index = numpy.arange(0, rows, row_step)[:, None] * cols + numpy.arange(0, cols, col_step)
    size = rows * cols
    # the preview's entries are a good enough sample when there are many of them
    sample = None if index.size >= SAMPLE // 2 else numpy.arange(0, size, _sample_stride(size))
    if len(_places) >= _PLANS_KEPT:
        _places.clear()
    plan = _places[shape] = (index, [row_step, col_step], sample)
    return plan


def _sample_stride(size: int) -> int:
    """Every how many entries the sample of ``size`` takes one: at most ``SAMPLE`` of them."""
    return -(-size // SAMPLE)


def _kept(array):
    """A host copy of ``array`` (at most ``SAMPLE`` entries) that is the summary's own."""
    return _copies.copy(array) if array.__class__ is numpy.ndarray else _host(array).copy()


def _on_device(index, array):
    return index if isinstance(array, numpy.ndarray) else _array_module(array).asarray(index)


def _array_module(array):  # a GPU array's statistics: the GPU's queued index checks first
    deferred_checks.raise_pending()
    return array_module(array)


_copies = CopyBlocks(SAMPLE)  # Deferred's copies, shared by every trace


class Deferred:
    """The summary of an array of at most ``SAMPLE`` elements, taken when the document is
    built. Recording it costs one copy (a memcpy of at most 1,024 entries); summarizing
    costs several NumPy calls and microseconds of Python, which the traced code need not
    wait for. The copy is the trace's own, so an in-place change of the tensor afterwards
    cannot reach it, and the tensor's memory is not kept.

    Made by ``record``, which sets both slots: a class without ``__init__``
    is made without a Python frame, ~0.25 us less on each of the ~1,000 summaries a traced
    500-op chain takes."""

    __slots__ = ("array", "_summary")

    def summary(self):
        """The summary ``summarize`` would have made when the array was recorded (with or
        without ``exact``: at this size every statistic is exact)."""
        if self._summary is None:
            self._summary = summarize(self.array)
            self.array = None
        return self._summary

    def __repr__(self) -> str:
        return f"<deferred summary {dtype_name(self.array.dtype) if self.array is not None else ''}>"


def record(array, exact: bool = False):
    """A summary for the recorder: ``Deferred`` for an array small enough to copy for
    nothing, otherwise ``summarize``'s (a large array cannot be kept, and a broadcast view
    is summarized as it is, its repeated entries counted once)."""
    # An array that owns its memory (most results) is no broadcast view: its strides, a new
    # tuple on every read, need not be looked at.
    if array.size <= SAMPLE and (getattr(array, "base", None) is None or 0 not in array.strides):
        deferred = Deferred()
        deferred.array = _copies.copy(array) if array.__class__ is numpy.ndarray else array.copy()
        deferred._summary = None
        return deferred
    return summarize(array, exact)


def to_json(summary):
    """A summary in the document's form (small summaries already are)."""
    if summary.__class__ is Deferred:
        summary = summary._summary or summary.summary()  # finished already, most often (summary_batch)
    return summary.to_json() if summary.__class__ is Large else summary


def nonfinite(summary) -> bool:
    """Whether a summary counted any NaN or inf."""
    if summary is None:
        return False
    if summary.__class__ is Deferred:
        summary = summary.summary()
    if summary.__class__ is Large:
        return summary.nan > 0 or summary.inf > 0
    return summary["nan"] > 0 or summary["inf"] > 0
