"""Finishing a document's summaries together: statistics and previews of many arrays in a
few NumPy calls, where ``Large._finish`` makes about twenty calls per summary.

A 10,000-node chain finishes about 8,000 summaries of 1,000 entries each; one at a time,
that was most of ``to_dict``'s second (NumPy calls of microseconds each, on arrays too small
to amortize them). Summaries that share a shape and a dtype are stacked, one row each, and
every step of ``summary.Large``'s finish runs once over the stack, along the rows: the same
operations in the same order on the same numbers (a reduction along the last axis of a
C-ordered array is the 1-D reduction, row by row), so the document's numbers are the very
ones a summary finished alone would give (``tests/test_summary_batch.py`` compares them).

Only the common case is batched: a float32 or float64 summary whose entries are all
finite (the counts are exact, so that is known before any statistic), not 4-D (channels),
without ``exact_stats``. Any other summary is left to finish alone, as before.
"""
from __future__ import annotations

import math
from base64 import b64encode

import numpy

from .statistics import TOP, stat
from .summary import _BLAS, SMALL, Deferred, Large, _dot, _plan, dtype_name

_add, _multiply = numpy.add.reduce, numpy.multiply
_lowest, _highest = numpy.minimum.reduce, numpy.maximum.reduce
_BATCHED = 8  # fewer summaries of a shape than this finish alone: stacking would cost more
# Entries per stack: 512 KiB of float64. The stacks and the scratch rows they are worked in are
# the module's own buffers, made once and reused by every document: a fresh array this large is
# mapped by the C allocator and handed back each time, every page of it faulted in again (copies.py
# tells the story), which is why the stacks were kept at 8,192 entries (8 rows of 1,000) before.
# With buffers that stay, a stack holds 65 such rows, and each NumPy call of the finish (about
# twenty per stack, microseconds each) is paid 8x less often.
_STACKED = 65536
_buffers: list = []  # flat float64 arrays of _STACKED entries each, made on first use


def _scratch(which: int, rows: int, cols: int):
    """A ``rows`` x ``cols`` float64 view of buffer ``which`` (``rows * cols <= _STACKED``)."""
    while len(_buffers) <= which:
        _buffers.append(numpy.empty(_STACKED))
    return _buffers[which][:rows * cols].reshape(rows, cols)


def _rows(entries: int) -> int:
    return max(1, _STACKED // max(entries, 1))


def finish_all(summaries) -> None:
    """Finish every ``Deferred`` and ``Large`` summary of ``summaries`` that the batch can
    (see the module doc); each one's ``to_json`` then returns the dict computed here."""
    groups: dict = {}
    for summary in summaries:
        if summary.__class__ is Deferred:
            if summary._summary is not None:
                summary = summary._summary
            else:
                _group_deferred(summary, groups)
                continue
        if summary.__class__ is Large and summary._json is None:
            _group_large(summary, groups)
    for key, members in groups.items():
        if len(members) >= _BATCHED:
            (_finish_deferred if key[0] == "deferred" else _finish_large)(key, list(members.values()))


def _group_deferred(summary, groups: dict) -> None:
    # A Deferred's array is its own copy (summary.Deferred), C-ordered: no strides to check.
    array = summary.array
    if array.__class__ is not numpy.ndarray or array.size <= SMALL or len(array.shape) == 4 \
            or not _BLAS.get(array.dtype, False):
        return
    groups.setdefault(("deferred", array.shape, array.dtype), {})[id(summary)] = summary  # once each


def _group_large(summary: Large, groups: dict) -> None:
    if summary.stats is not None or summary.channel_grid is not None or summary.grid is None \
            or summary.nan or summary.inf:
        return
    sample, grid = summary.sample, summary.grid
    key = ("large", sample.shape, sample.dtype, grid.shape, grid.dtype, tuple(summary.step))
    groups.setdefault(key, {})[id(summary)] = summary


def _finish_deferred(key: tuple, members: list) -> None:
    """What ``Deferred.summary`` then ``Large.to_json`` would make, for arrays of one shape."""
    _, shape, dtype = key
    flats, finite = [], []
    for summary in members:  # the norm, one BLAS call each: a row-wise sum would add in another order
        flat = summary.array.reshape(-1)
        squares = float(_dot(flat, flat))
        if squares - squares == 0.0:  # finite: no NaN, no inf (else it finishes alone, counting them)
            finite.append((summary, math.sqrt(squares)))
            flats.append(flat)
    step = _plan(shape)[1]
    row_step, col_step = step
    name = dtype_name(dtype)
    entries = math.prod(shape)
    rows = _rows(entries)
    for first in range(0, len(flats), rows):
        chunk = finite[first:first + rows]
        values = _scratch(0, len(chunk), entries)
        numpy.stack(flats[first:first + rows], out=values)  # in float64, as sample_stats reads them
        grids = values.reshape(len(chunk), -1, shape[-1])[:, ::row_step, ::col_step]
        cells = _scratch(2, len(chunk), grids.shape[1] * grids.shape[2]).reshape(grids.shape)
        cells[...] = grids
        for (summary, _), json in zip(chunk, _finished(values, cells, step, [n for _, n in chunk], False)):
            if json is None:
                continue
            json["shape"], json["dtype"] = list(shape), name
            # the finished dict stands for the Large it would have made: ``to_json`` returns it as it
            # returns a small summary's, and ``nonfinite`` reads its counts
            summary._summary, summary.array = json, None


def _finish_large(key: tuple, members: list) -> None:
    """``Large.to_json`` for summaries whose samples and grids have one shape each."""
    sample_size, grid_shape = members[0].sample.size, key[3]
    rows = _rows(max(sample_size, math.prod(grid_shape)))
    for first in range(0, len(members), rows):
        chunk = members[first:first + rows]
        values = _scratch(0, len(chunk), sample_size)
        numpy.stack([summary.sample.reshape(-1) for summary in chunk], out=values)
        cells = _scratch(2, len(chunk), math.prod(grid_shape)).reshape(len(chunk), *grid_shape)
        numpy.stack([summary.grid for summary in chunk], out=cells)
        norms = [summary.norm for summary in chunk]
        for summary, json in zip(chunk, _finished(values, cells, list(key[5]), norms, False)):
            if json is not None:
                json["shape"], json["dtype"], json["sampled"] = list(summary.shape), dtype_name(summary.dtype), \
                    summary.sampled
                if summary.extrema:  # taken over every entry (summary.EXACT_EXTREMA), not the sample's
                    low, high = summary.extrema
                    json["min"], json["max"], json["exact_extrema"] = stat(low), stat(high), True
                summary._json = json


def _finished(values, cells, step: list, norms: list, sampled: bool) -> list:
    """The document's form of each row's summary, ``shape`` and ``dtype`` left to fill in:
    ``statistics.sample_stats`` of each row of ``values`` and ``statistics.preview`` of each
    grid of ``cells`` (both float64, C-ordered, finite), along the rows, and ``statistics.stat``
    of every number. A row whose preview's range overflows (float64 entries past 1e308) gets
    None, and finishes alone."""
    with numpy.errstate(all="ignore"):  # squares of huge float64 entries: None, never a warning
        return _finished_quietly(values, cells, step, norms, sampled)


def _finished_quietly(values, cells, step: list, norms: list, sampled: bool) -> list:
    count, per_row = values.shape
    means = _add(values, axis=1) / per_row
    deviations = _scratch(1, count, per_row)
    numpy.subtract(values, means[:, None], out=deviations)
    _multiply(deviations, deviations, out=deviations)
    stds = numpy.sqrt(_add(deviations, axis=1) / per_row)  # math.sqrt's number: both round correctly

    flat_cells = cells.reshape(count, -1)  # C-ordered: a view
    grid_lows, grid_highs = _lowest(flat_cells, axis=1), _highest(flat_cells, axis=1)
    ranges = grid_highs - grid_lows
    scales = numpy.where(ranges > 0, TOP / numpy.where(ranges > 0, ranges, 1.0), 0.0)
    scaled = _scratch(1, count, flat_cells.shape[1])  # the deviations are done with
    numpy.subtract(flat_cells, grid_lows[:, None], out=scaled)
    _multiply(scaled, scales[:, None], out=scaled)
    codes = numpy.rint(scaled, out=scaled).astype(numpy.uint8)
    numbers = numpy.stack([_lowest(values, axis=1), _highest(values, axis=1), means, stds,
                           numpy.asarray(norms, dtype=numpy.float64), grid_lows, grid_highs], axis=1)
    rounded = _stats(numbers.reshape(-1).tolist())
    rows, cols = int(cells.shape[1]), int(cells.shape[2])
    finished = []
    for k in range(count):
        if ranges[k] == math.inf:
            finished.append(None)
            continue
        low, high, mean, std, norm, grid_low, grid_high = rounded[7 * k:7 * k + 7]
        preview = {"rows": rows, "cols": cols, "step": list(step), "lo": grid_low, "hi": grid_high,
                   "top": int(TOP), "q": b64encode(codes[k].tobytes()).decode("ascii")}
        finished.append({"shape": None, "dtype": None, "nan": 0, "inf": 0, "min": low, "max": high,
                         "mean": mean, "std": std, "norm": norm, "sampled": sampled, "preview": preview})
    return finished


def _stats(numbers: list) -> list:
    """``statistics.stat`` of each number (7 significant digits, None where not finite), in one
    formatting call: ``%`` formats a float as ``format`` does."""
    text = ("%.7g " * len(numbers)) % tuple(numbers)
    return [value if value - value == 0.0 else None for value in map(float, text.split())]
