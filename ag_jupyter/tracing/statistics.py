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
from base64 import b64encode

import numpy

_add, _multiply = numpy.add.reduce, numpy.multiply
_lowest, _highest = numpy.minimum.reduce, numpy.maximum.reduce
TOP = 252.0  # the preview's highest code for a finite entry (three more name -inf, +inf, NaN)


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
