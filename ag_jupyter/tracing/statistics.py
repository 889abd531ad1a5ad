"""What a large summary's kept entries become in the document: min, max (exact: see
``extrema``), mean and std,
and the preview quantized to bytes (``summary.Large`` keeps the entries while the
traced code runs; this runs when the document is built).

A document of a 500-op chain finishes about a thousand summaries, so their cost is
most of ``to_dict``'s: NumPy's ``mean``/``std`` and ``nan_to_num`` are Python functions
around a few ufunc calls, each microseconds. A summary that counted no NaN and no inf
(the usual case, and the counts are exact) skips every step that only matters for
them. Either way the arithmetic is NumPy's own (``x.mean()`` is ``add.reduce(x) / n``,
``x.std()`` the root of the mean of the squared deviations), so the numbers are the same.
"""
from __future__ import annotations

import math
import threading
from base64 import b64encode
from binascii import b2a_base64

import numpy

_add, _multiply = numpy.add.reduce, numpy.multiply
_lowest, _highest = numpy.minimum.reduce, numpy.maximum.reduce
TOP = 252.0  # the preview's highest code for a finite entry (three more name -inf, +inf, NaN)
# Entries per stack of ``finished_rows``: 512 KiB of float64. The stacks and the scratch rows they
# are worked in are the module's own buffers, made once and reused by every document: a fresh
# array this large is mapped by the C allocator and handed back each time, every page of it
# faulted in again (copies.py tells the story), which kept the stacks at 8,192 entries (8 rows of
# 1,000) before. With buffers that stay, a stack holds 65 such rows, and each NumPy call of the
# finish (about twenty per stack, microseconds each) is paid 8x less often.
STACKED = 65536
_per_thread = threading.local()  # .buffers: flat float64 arrays of STACKED entries, made on first use


def stat(value) -> float | None:
    """A statistic as the document writes it: 7 significant digits (a float32's), None
    where it is not finite."""
    value = float(value)
    return float(f"{value:.7g}") if math.isfinite(value) else None


def sample_stats(sample, finite: bool) -> tuple:
    """``(min, max, mean, std)`` of the finite entries of ``sample`` (std: the population
    one), in float64; None for each when there is none. ``finite``: every entry is."""
    values = sample.astype(numpy.float64).reshape(-1)
    if not finite:
        values = values[numpy.isfinite(values)]
    count = values.shape[0]
    if not count:
        return None, None, None, None
    mean = _add(values) / count
    deviations = values - mean
    _multiply(deviations, deviations, out=deviations)
    return _lowest(values), _highest(values), mean, math.sqrt(_add(deviations) / count)


def norm_of_finite(finite, xp, repeats: int) -> float:
    """The L2 norm of finite entries (each counted ``repeats`` times) whose dot product
    with themselves was not finite: some were huge (float32 entries past about 1e19,
    exploding gradients). Scaled by the largest, the squares cannot overflow."""
    if not finite.shape[0]:
        return 0.0
    wide = finite.astype(numpy.float64)
    biggest = float(xp.abs(wide).max())
    if biggest == 0.0:
        return 0.0
    wide /= biggest
    return biggest * math.sqrt(float(xp.vdot(wide, wide)) * repeats)


def extrema(flat) -> tuple | None:
    """The exact ``(min, max)`` of ``flat`` (the entries, or the finite ones when some were
    not: the caller has dropped them), as floats; None when it is empty. Two reductions
    over every entry, on the array's own device: cheap beside the copy a sample costs,
    and a node's min and max then never miss the tensor's extremes."""
    if not flat.shape[0]:
        return None
    return float(flat.min()), float(flat.max())


def preview(grid, step, finite: bool) -> dict:
    """``q`` is base64 of one byte per entry, row-major: 0..``TOP`` stands for
    ``lo + q / TOP * (hi - lo)``; ``TOP + 1`` is -inf, ``TOP + 2`` +inf and 255 NaN, so the
    picture shows an infinity as one (drawn at an end of the finite range, an inf among
    zeros looked like a zero). Bytes rather than a list of numbers: half the text, and
    cheap to make. ``finite``: every entry of ``grid`` is."""
    values = grid.astype(numpy.float64)
    kept = values.reshape(-1) if finite else values[numpy.isfinite(values)]  # 1-D either way
    low, high = (float(_lowest(kept)), float(_highest(kept))) if kept.size else (0.0, 0.0)
    scale = TOP / (high - low) if high > low else 0.0
    if finite and high - low != math.inf:  # (v - lo) * scale lies in [0, TOP], give or take a rounding
        codes = numpy.rint((values - low) * scale).astype(numpy.uint8)
    else:
        with numpy.errstate(all="ignore"):  # inf * 0 and the like: the tracer never warns
            scaled = numpy.nan_to_num((values - low) * scale, nan=0.0, posinf=TOP, neginf=0.0)
        codes = numpy.rint(numpy.clip(scaled, 0, TOP)).astype(numpy.uint8)
        codes[values == -math.inf] = TOP + 1
        codes[values == math.inf] = TOP + 2
        codes[numpy.isnan(values)] = 255
    return {"rows": int(grid.shape[0]), "cols": int(grid.shape[1]), "step": list(step),
            "lo": stat(low) if kept.size else None, "hi": stat(high) if kept.size else None,
            "top": int(TOP), "q": b64encode(codes.tobytes()).decode("ascii")}


CHANNELS = 16  # a 4-D (N, C, H, W) tensor: sample 0's first 16 channels, each at most 16x16
CHANNEL_SIDE = 16


def channel_steps(shape) -> list:
    """Every how many rows and columns a channel's preview keeps one: at most 16x16."""
    return [-(-shape[2] // CHANNEL_SIDE), -(-shape[3] // CHANNEL_SIDE)]


def channel_previews(grid, shape, finite: bool) -> dict:
    """The ``channels`` of a 4-D summary: ``preview``'s encoding of the shown channels stacked
    (channel after channel, each ``rows`` x ``cols``), on one scale so channels compare."""
    shown, rows, cols = grid.shape
    out = preview(grid.reshape(shown * rows, cols), channel_steps(shape), finite)
    out.update(channels=int(shape[1]), shown=int(shown), rows=int(rows))
    return out


def scratch(which: int, rows: int, cols: int):
    """A ``rows`` x ``cols`` float64 view of the module's buffer ``which`` (``rows * cols <=
    STACKED``): where ``finished_rows``'s stacks are put together and worked in."""
    buffers = _per_thread.__dict__.setdefault("buffers", [])  # a document built in another thread has its own
    while len(buffers) <= which:
        buffers.append(numpy.empty(STACKED))
    return buffers[which][:rows * cols].reshape(rows, cols)


def finished_one(sample, grid, step: list, norm: float, sampled: bool) -> dict | None:
    """``finished_rows`` of one summary's kept entries (``sample`` and ``grid``, finite): a stack
    of one row, so a summary finished alone has the numbers of one finished in a stack."""
    values = scratch(0, 1, sample.size)
    values[0] = sample.reshape(-1)
    cells = scratch(2, 1, grid.size).reshape(1, *grid.shape)
    cells[0] = grid
    return finished_rows(values, cells, step, [norm], sampled)[0]


def finished_rows(values, cells, step: list, norms, sampled: bool) -> list:
    """The document's form of each row's summary, ``shape`` and ``dtype`` left to fill in:
    ``sample_stats`` of each row of ``values`` and ``preview`` of each grid of ``cells`` (both
    float64, C-ordered, every entry finite; ``cells`` not in scratch buffer 1, which this
    works in), along the rows, and ``stat`` of every number. The same operations in the same
    order as those two on each row (a reduction along the last axis of a C-ordered array is
    the 1-D reduction, row by row): the same numbers. A row whose preview's range overflows
    (float64 entries past 1e308) gets None: ``preview`` handles it. ``norms``: each row's, a
    list or a float64 array."""
    numbers = numpy.empty((ROW_NUMBERS, values.shape[0]))
    codes = row_numbers(values, cells, norms, numbers)
    return finished_dicts(numbers, codes, cells.shape[1:], step, sampled)


ROW_NUMBERS = 7  # what ``row_numbers`` finds of a row: min, max, mean, std, norm, and the preview's lo and hi


def row_numbers(values, cells, norms, numbers) -> bytes:
    """The NumPy half of ``finished_rows``: each row's numbers into the columns of ``numbers``
    (``ROW_NUMBERS`` x rows, float64; a view of a wider array will do, as a long group's
    stacks go into one), unrounded; returns the preview's codes, row after row. A row whose
    preview range overflowed has an infinite hi - lo (``finished_dicts`` reads it so).
    ``row_stats`` and ``row_previews``, which a long group calls on stacks of their own."""
    row_stats(values, norms, numbers)
    return row_previews(cells, numbers)


def row_stats(values, norms, numbers) -> None:
    """``row_numbers``' statistics: min, max, mean, std and the norm of each row of ``values``."""
    with numpy.errstate(all="ignore"):  # squares of huge float64 entries: None, never a warning
        count, per_row = values.shape
        means = numbers[2]
        numpy.divide(_add(values, axis=1), per_row, out=means)
        deviations = scratch(1, count, per_row)
        _deviations(values, means, deviations)
        _multiply(deviations, deviations, out=deviations)
        numpy.sqrt(numpy.divide(_add(deviations, axis=1), per_row), out=numbers[3])  # math.sqrt's: both round correctly
        _lowest(values, axis=1, out=numbers[0])
        _highest(values, axis=1, out=numbers[1])
        numbers[4] = norms


def row_previews(cells, numbers) -> bytes:
    """``row_numbers``' previews: each grid of ``cells``' lo and hi into ``numbers`` (rows 5 and
    6), and its codes, returned row after row. A preview's grid is a small part of its row (32
    of a 1,000-entry vector's): a group's previews go in stacks of their own, a few NumPy
    calls for all of them, not for each stack of rows."""
    with numpy.errstate(all="ignore"):
        count = cells.shape[0]
        flat_cells = cells.reshape(count, -1)  # C-ordered: a view
        grid_lows, grid_highs = numbers[5], numbers[6]
        _lowest(flat_cells, axis=1, out=grid_lows)
        _highest(flat_cells, axis=1, out=grid_highs)
        ranges = grid_highs - grid_lows
        scales = numpy.where(ranges > 0, TOP / numpy.where(ranges > 0, ranges, 1.0), 0.0)
        scaled = scratch(1, count, flat_cells.shape[1])  # the deviations are done with
        numpy.subtract(flat_cells, grid_lows[:, None], out=scaled)
        _multiply(scaled, scales[:, None], out=scaled)
        return numpy.rint(scaled, out=scaled).astype(numpy.uint8).tobytes()


def _deviations(values, means, out) -> None:
    """``values - means[:, None]`` into ``out``. NumPy (2.x) copies the broadcast mean into a
    buffer of ``getbufsize()`` entries, row after row, and subtracts from that: 3x the time of
    the subtraction itself on rows of 1,000. With buffers smaller than a row it subtracts the
    mean as the scalar it is. Each difference is one rounding either way: the same numbers.
    Rows of fewer than ``_UNBUFFERED_ROW`` entries are faster buffered."""
    if values.shape[1] < _UNBUFFERED_ROW:
        numpy.subtract(values, means[:, None], out=out)
        return
    size = numpy.setbufsize(16)  # the smallest NumPy takes
    try:
        numpy.subtract(values, means[:, None], out=out)
    finally:
        numpy.setbufsize(size)


_UNBUFFERED_ROW = 128


def finished_dicts(numbers, codes: bytes, grid_shape: tuple, step: list, sampled: bool, shape=None,
                   dtype=None) -> list:
    """The Python half of ``finished_rows``: one dict per column of ``numbers``, its numbers
    rounded by ``stat`` (all together, ``_stats``), its preview the row's slice of ``codes``.
    ``shape`` (a list) and ``dtype``: every row's, where one array shape stands behind them all.
    Rows share their ``shape`` and their preview's ``step`` lists: a document is read, not
    changed, and two lists per summary were a third of the objects a chain's document made."""
    with numpy.errstate(all="ignore"):
        overflowed = (numbers[6] - numbers[5] == math.inf).tolist()
    count = numbers.shape[1]
    rounded = _stats(numbers.reshape(-1))
    columns = [rounded[at:at + count] for at in range(0, ROW_NUMBERS * count, count)]
    rows, cols, top = int(grid_shape[0]), int(grid_shape[1]), int(TOP)
    step = list(step)
    finished = []
    append = finished.append
    for low, high, mean, std, norm, grid_low, grid_high, over, q in zip(*columns, overflowed,
                                                                         _base64_rows(codes, count)):
        if over:
            append(None)
        else:
            append({"shape": shape, "dtype": dtype, "nan": 0, "inf": 0, "min": low, "max": high, "mean": mean,
                    "std": std, "norm": norm, "sampled": sampled,
                    "preview": {"rows": rows, "cols": cols, "step": step, "lo": grid_low, "hi": grid_high,
                                "top": top, "q": q}})
    return finished


def _base64_rows(codes: bytes, count: int) -> list:
    """``b64encode`` of each of the ``count`` equal rows of ``codes``, as text, from one
    encoding of them all: each row is padded with zero bytes to whole 3-byte groups (whose
    4 characters base64 writes from those 3 bytes alone), and a padding byte's character,
    always the last one or two of a row, becomes the ``=`` that ``b64encode`` writes there.
    A call per row made three objects (the slice, its encoding, the text)."""
    width = len(codes) // count if count else 0
    if not width:
        return [""] * count
    padded = -(-width // 3) * 3
    if padded != width:
        rows = numpy.zeros((count, padded), numpy.uint8)
        rows[:, :width] = numpy.frombuffer(codes, numpy.uint8).reshape(count, width)
        codes = rows.tobytes()
    encoded = b2a_base64(codes, newline=False)
    size = padded // 3 * 4
    if padded != width:
        characters = numpy.frombuffer(encoded, numpy.uint8).reshape(count, size).copy()
        characters[:, size - (padded - width):] = ord("=")
        encoded = characters.tobytes()
    text = encoded.decode("ascii")
    return [text[at:at + size] for at in range(0, count * size, size)]


def _stats(numbers) -> list:
    """``stat`` of each number of the float64 array ``numbers``, in a few NumPy calls: each
    scaled by the power of ten that leaves 7 digits before the point, rounded to an integer,
    and scaled back. An integer below 2**53 and a power of ten up to 1e22 are exact in
    float64, so the one division (or product) that scales back rounds correctly: the float
    ``float("%.7g" % x)`` reads. The scaling's own rounding is under 1e-9 of a unit, so only
    a number whose scaled form lies within ``_TIE`` of a half (where ``%.7g`` rounds the exact
    binary value half to even), or whose power of ten is out of the exact range, is formatted
    as ``stat`` does; so are the ones that are not finite or zero."""
    with numpy.errstate(all="ignore"):  # log10 of 0 and inf, inf - inf: those go to ``stat``
        magnitude = numpy.abs(numbers)
        places = 6 - numpy.floor(numpy.log10(magnitude))
        power = _TEN ** numpy.minimum(numpy.abs(places), _EXACT_POWER)
        up = places >= 0
        scaled = numpy.where(up, numbers * power, numbers / power)
        digits = numpy.rint(scaled)
        back = numpy.where(up, digits / power, digits * power)
        size = numpy.abs(digits)
        aside = ~((numpy.abs(numpy.abs(scaled - digits) - 0.5) > _TIE) & (size >= 1e6) & (size <= 1e7)
                  & (numpy.abs(places) <= _EXACT_POWER))
    rounded = back.tolist()
    if aside.any():
        places = numpy.flatnonzero(aside).tolist()
        for at, value in zip(places, _formatted(numbers[aside].tolist())):
            rounded[at] = value
    return rounded


def _formatted(numbers: list) -> list:
    """``stat`` of each number, in one formatting call: ``%`` formats a float as ``format``
    does."""
    text = ("%.7g " * len(numbers)) % tuple(numbers)
    return [value if value - value == 0.0 else None for value in map(float, text.split())]


_TEN = 10.0
_EXACT_POWER = 22  # 1e22 is the largest power of ten float64 holds exactly
_TIE = 1e-6
