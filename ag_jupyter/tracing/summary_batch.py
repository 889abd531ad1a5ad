"""Finishing a document's summaries together: statistics and previews of many arrays in a
few NumPy calls over a stack of them (``statistics.finished_rows``, which finishes a lone
summary too, as a stack of one row).

A 10,000-node chain finishes about 8,000 summaries of 1,000 entries each; one at a time,
that was most of ``to_dict``'s second (NumPy calls of microseconds each, on arrays too small
to amortize them). Summaries that share a shape and a dtype are stacked, one row each, and
every step of ``summary.Large``'s finish runs once over the stack, along the rows: the same
operations in the same order on the same numbers (a reduction along the last axis of a
C-ordered array is the 1-D reduction, row by row), so the document's numbers are the very
ones a summary finished alone would give (``tests/test_summary_batch.py`` compares them, and
``finished_rows`` with ``statistics.sample_stats`` and ``preview``).

Only the common case is batched: a float32 or float64 summary whose entries are all
finite (the counts are exact, so that is known before any statistic), not 4-D (channels),
without ``exact_stats``. Any other summary is left to finish alone (``Large._finish``).
"""
from __future__ import annotations

import math

import numpy

from .statistics import STACKED, finished_rows, scratch, stat
from .summary import _BLAS, SMALL, Deferred, Large, _dot, _plan, dtype_name

_BATCHED = 8  # fewer summaries of a shape than this finish alone (a stack of one row each)


def _rows(entries: int) -> int:
    return max(1, STACKED // max(entries, 1))


def finish_all(summaries) -> None:
    """Finish every ``Deferred`` and ``Large`` summary of ``summaries`` that the batch can
    (see the module doc); each one's ``to_json`` then returns the dict computed here."""
    groups: dict = {}
    # each once: a gradient's summary is met two or three times (sent, received, stored)
    distinct = {id(summary): summary for summary in summaries if summary is not None}
    for summary in distinct.values():
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
            (_finish_deferred if key[0] == "deferred" else _finish_large)(key, members)


def _group_deferred(summary, groups: dict) -> None:
    # A Deferred's array is its own copy (summary.Deferred), C-ordered: no strides to check.
    array = summary.array
    if array.__class__ is not numpy.ndarray or array.size <= SMALL or len(array.shape) == 4 \
            or not _BLAS.get(array.dtype, False):
        return
    groups.setdefault(("deferred", array.shape, array.dtype), []).append(summary)


def _group_large(summary: Large, groups: dict) -> None:
    if summary.stats is not None or summary.channel_grid is not None or summary.grid is None \
            or summary.nan or summary.inf:
        return
    sample, grid = summary.sample, summary.grid
    key = ("large", sample.shape, sample.dtype, grid.shape, grid.dtype, tuple(summary.step))
    groups.setdefault(key, []).append(summary)


def _finish_deferred(key: tuple, members: list) -> None:
    """What ``Deferred.summary`` then ``Large.to_json`` would make, for arrays of one shape."""
    _, shape, dtype = key
    flats, finite = [], []
    flat_already = len(shape) == 1
    for summary in members:  # the norm, one BLAS call each: a row-wise sum would add in another order
        flat = summary.array if flat_already else summary.array.reshape(-1)
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
        values = scratch(0, len(chunk), entries)
        numpy.stack(flats[first:first + rows], out=values)  # in float64, as sample_stats reads them
        grids = values.reshape(len(chunk), -1, shape[-1])[:, ::row_step, ::col_step]
        cells = scratch(2, len(chunk), grids.shape[1] * grids.shape[2]).reshape(grids.shape)
        cells[...] = grids
        for (summary, _), json in zip(chunk, finished_rows(values, cells, step, [n for _, n in chunk], False)):
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
        values = scratch(0, len(chunk), sample_size)
        numpy.stack([summary.sample.reshape(-1) for summary in chunk], out=values)
        cells = scratch(2, len(chunk), math.prod(grid_shape)).reshape(len(chunk), *grid_shape)
        numpy.stack([summary.grid for summary in chunk], out=cells)
        norms = [summary.norm for summary in chunk]
        for summary, json in zip(chunk, finished_rows(values, cells, list(key[5]), norms, False)):
            if json is not None:
                json["shape"], json["dtype"], json["sampled"] = list(summary.shape), dtype_name(summary.dtype), \
                    summary.sampled
                if summary.extrema:  # taken over every entry (summary.EXACT_EXTREMA), not the sample's
                    low, high = summary.extrema
                    json["min"], json["max"], json["exact_extrema"] = stat(low), stat(high), True
                summary._json = json
