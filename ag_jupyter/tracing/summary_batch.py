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

Small arrays (at most ``SMALL`` entries, whose summary is their values) are batched too: a
training step of a model of small layers has tens of thousands, and ``_small``'s few
microseconds each were the largest part of its document after the statistics were batched.
One ``tolist`` of the stack gives each row the Python numbers the row's own ``tolist`` gives;
a row with a NaN or an infinity is left to ``_small``, which counts them.
"""
from __future__ import annotations

import math

import numpy

from .statistics import ROW_NUMBERS, STACKED, finished_dicts, finished_rows, row_previews, row_stats, scratch, stat
from .summary import _BLAS, SMALL, Deferred, Large, _dot, _plan, dtype_name, nonfinite, small_summary

_BATCHED = 8  # fewer summaries of a shape than this finish alone (a stack of one row each)


def _rows(entries: int) -> int:
    return max(1, STACKED // max(entries, 1))


def _joined(arrays: list, dtype, width: int):
    """``arrays`` (of ``dtype``, ``width`` entries each) as the rows of one read-only array.
    ``numpy.stack`` makes and checks a view of each array before it copies it, a microsecond
    apiece, more than the copy of a small array; joining their bytes is one memcpy each. An
    array that is not C-ordered has no such bytes: it is stacked as before."""
    try:
        return numpy.frombuffer(b"".join(arrays), dtype).reshape(len(arrays), width)
    except TypeError:  # bytes.join refuses a strided array's buffer
        return numpy.stack([array.reshape(-1) for array in arrays])


def finish_all(summaries) -> bool:
    """Finish every ``Deferred`` and ``Large`` summary of ``summaries`` that the batch can
    (see the module doc), and the other Deferred ones alone; each one's ``to_json`` then
    returns the dict computed here. Returns whether none counts a NaN or an inf (the
    recorder's ``settle`` then has nothing to look for)."""
    arrays: dict = {}  # (shape, id(dtype)) -> Deferred summaries of NumPy arrays of that shape and dtype
    groups: dict = {}
    pending = []
    finite = True
    # each once: a gradient's summary is met two or three times (sent, received, stored)
    distinct = {id(summary): summary for summary in summaries if summary is not None}
    for summary in distinct.values():
        if summary.__class__ is Deferred:
            if summary._summary is not None:
                summary = summary._summary
            else:
                pending.append(summary)
                array = summary.array  # its own copy (summary.Deferred), C-ordered: no strides to check
                if array.__class__ is numpy.ndarray:
                    # by the dtype's identity: a dtype hashes and compares slowly, and there is one
                    # object per built-in dtype (two equal ones only make two groups)
                    key = (array.shape, id(array.dtype))
                    group = arrays.get(key)
                    if group is None:
                        arrays[key] = [summary]
                    else:
                        group.append(summary)
                continue
        if summary.__class__ is Large:
            if summary.nan or summary.inf:
                finite = False
            elif summary._json is None:
                _group_large(summary, groups)
        elif summary.get("nan") or summary.get("inf"):  # a small summary's dict
            finite = False
    for (shape, _), members in arrays.items():
        kind = _deferred_kind(shape, members[0].array.dtype)
        if kind is not None:
            groups[(kind, shape, members[0].array.dtype)] = members
    for key, members in groups.items():
        if len(members) >= _BATCHED:
            _FINISHES[key[0]](key, members)
    for summary in pending:  # a batch finishes finite rows only; the rest finish alone, counting
        if summary._summary is None and nonfinite(summary):
            finite = False
    return finite


def _deferred_kind(shape: tuple, dtype) -> str | None:
    """How Deferred summaries of arrays of ``shape`` and ``dtype`` finish together, if they do."""
    if math.prod(shape) <= SMALL:
        return "small" if dtype.kind in _LISTED_KINDS else None
    return "deferred" if len(shape) != 4 and _BLAS.get(dtype, False) else None


_LISTED_KINDS = frozenset("fiub")  # floats, integers and booleans: tolist gives Python numbers


def _finish_small(key: tuple, members: list) -> None:
    """What ``summary._small`` makes of each array of one shape, from one stack of them."""
    _, shape, dtype = key
    stack = _joined([summary.array for summary in members], dtype, math.prod(shape))
    rows = stack.tolist()
    finite = numpy.isfinite(stack).all(axis=1).tolist() if dtype.kind == "f" else None
    name = dtype_name(dtype)
    for k, summary in enumerate(members):
        if finite is not None and not finite[k]:
            continue  # finished alone, NaN and inf counted
        summary._summary = small_summary(shape, name, rows[k])
        summary.array = None


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
    entries = math.prod(shape)
    stack = _joined([summary.array for summary in members], dtype, entries)
    with numpy.errstate(all="ignore"):  # huge entries' squares: the row finishes alone, never a warning
        squares = _row_squares(stack, members)
        finite = squares - squares == 0.0  # no NaN, no inf (else the row finishes alone, counting them)
    if not finite.all():
        kept = finite.tolist()
        members = [summary for summary, ok in zip(members, kept) if ok]
        if not members:
            return  # every one has a NaN or an inf (a forward gone NaN): each finishes alone, counting them
        stack, squares = stack[finite], squares[finite]
    norms = numpy.sqrt(squares.astype(numpy.float64))  # math.sqrt(float(square)): both round correctly
    step = _plan(shape)[1]
    row_step, col_step = step
    count, rows = len(members), _rows(entries)
    numbers = numpy.empty((ROW_NUMBERS, count))
    for first in range(0, count, rows):
        stop = min(first + rows, count)
        values = scratch(0, stop - first, entries)
        values[...] = stack[first:stop]  # in float64, as sample_stats reads them
        row_stats(values, norms[first:stop], numbers[:, first:stop])
    grids = stack.reshape(count, -1, shape[-1])[:, ::row_step, ::col_step]  # each row's preview grid
    size = grids.shape[1] * grids.shape[2]
    codes, rows = [], _rows(size)
    for first in range(0, count, rows):
        stop = min(first + rows, count)
        cells = scratch(2, stop - first, size).reshape(stop - first, *grids.shape[1:])
        cells[...] = grids[first:stop]  # in float64: the entries of the rows' values above
        codes.append(row_previews(cells, numbers[:, first:stop]))
    finished = finished_dicts(numbers, b"".join(codes), grids.shape[1:], step, False, list(shape), dtype_name(dtype))
    for summary, json in zip(members, finished):
        if json is not None:
            # the finished dict stands for the Large it would have made: ``to_json`` returns it as it
            # returns a small summary's, and ``nonfinite`` reads its counts
            summary._summary, summary.array = json, None


def _row_squares(stack, members: list):
    """Each row's dot product with itself, the number ``Large`` takes of the array alone
    (``_dot``): NumPy's ``vecdot`` calls the dtype's dot function, the one ``vdot`` calls,
    once per row, so the numbers are the same, in one call in place of one per array."""
    if _vecdot is not None:
        return _vecdot(stack, stack)
    return numpy.array([_dot(summary.array, summary.array) for summary in members], dtype=stack.dtype)


_vecdot = getattr(numpy, "vecdot", None)  # NumPy 2.0 and later


def _finish_large(key: tuple, members: list) -> None:
    """``Large.to_json`` for summaries whose samples and grids have one shape each."""
    sample_size, grid_shape = members[0].sample.size, key[3]
    rows = _rows(max(sample_size, math.prod(grid_shape)))
    for first in range(0, len(members), rows):
        chunk = members[first:first + rows]
        values = scratch(0, len(chunk), sample_size)
        values[...] = _joined([summary.sample for summary in chunk], key[2], sample_size)
        cells = scratch(2, len(chunk), math.prod(grid_shape))
        cells[...] = _joined([summary.grid for summary in chunk], key[4], cells.shape[1])
        cells = cells.reshape(len(chunk), *grid_shape)
        norms = [summary.norm for summary in chunk]
        for summary, json in zip(chunk, finished_rows(values, cells, list(key[5]), norms, False)):
            if json is not None:
                json["shape"], json["dtype"], json["sampled"] = list(summary.shape), dtype_name(summary.dtype), \
                    summary.sampled
                if summary.extrema:  # taken over every entry (summary.EXACT_EXTREMA), not the sample's
                    low, high = summary.extrema
                    json["min"], json["max"], json["exact_extrema"] = stat(low), stat(high), True
                summary._json = json


_FINISHES = {"deferred": _finish_deferred, "large": _finish_large, "small": _finish_small}
