"""``torch.histogram`` and ``torch.histc``: counts of values in bins, no gradient (PyTorch
has none either). A value falls in the bin whose left edge is the last one at or below it;
the rightmost edge closes the last bin, and values outside the edges are not counted."""
from __future__ import annotations

from collections import namedtuple

from ..backend import array_module
from ..core import TENSOR_TYPES, _wrap
from ..dtypes import scalar_type_name

Histogram = namedtuple("histogram", ["hist", "bin_edges"])


def _floats(kernel: str, x) -> None:
    if x.dtype.kind != "f":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{scalar_type_name(x)}'")


def _edges(x, bins: int, low, high, name: str):
    """``bins + 1`` evenly spaced edges from ``low`` to ``high`` (the data's extent when both are
    None or equal to each other and to 0, widened by 0.5 each side when the extent is a point)."""
    xp = array_module(x)
    if bins <= 0:
        raise RuntimeError(f"{name}(): bins must be > 0, but got {bins} for dimension 0")
    if low is None or (low == high == 0):
        low, high = (float(x.min()), float(x.max())) if x.size else (0.0, 0.0)
    if low > high:
        raise RuntimeError(f"{name}(): max must be larger than min")
    if low == high:
        low, high = low - 0.5, high + 0.5
    return xp.linspace(low, high, bins + 1).astype(x.dtype)


def _counts(x, edges, weight=None):
    """How many entries (or how much ``weight``) fall in each bin of ``edges``."""
    xp = array_module(x)
    values = x.reshape(-1)
    inside = (values >= edges[0]) & (values <= edges[-1])
    bins = xp.clip(xp.searchsorted(edges, values, side="right") - 1, 0, edges.shape[0] - 2)
    weights = xp.ones_like(values) if weight is None else weight.reshape(-1).astype(x.dtype)
    return xp.bincount(bins[inside], weights=weights[inside], minlength=edges.shape[0] - 1).astype(x.dtype)


def histogram(input, bins=100, *, range=None, weight=None, density=False):  # noqa: A002 - PyTorch's name
    """``(hist, bin_edges)``; ``bins`` an int (that many equal bins over ``range``, or the data's
    extent) or a 1-D tensor of increasing edges; ``density``: each count over the total times
    its bin's width."""
    x = input._data
    _floats("histogramdd", x)
    if bins.__class__ in TENSOR_TYPES:
        if range is not None:
            raise TypeError("histogram(): takes no range when bins is a tensor of edges")
        edges = bins._data.astype(x.dtype)
        if edges.ndim != 1 or edges.shape[0] < 1:
            raise RuntimeError("torch.histogramdd: bins tensor should have one dimension and at least 1 "
                               "element, but got bins with shape " + str(list(edges.shape)))
    else:
        low, high = (None, None) if range is None else (float(range[0]), float(range[1]))
        edges = _edges(x, int(bins), low, high, "torch.histogramdd")
    if weight is not None and tuple(weight.shape) != tuple(input.shape):
        raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the same shape "
                           "as the input tensor excluding its innermost dimension")
    hist = _counts(x, edges, None if weight is None else weight._data)
    if density:
        hist = hist / (hist.sum() * (edges[1:] - edges[:-1]))
    return Histogram(_wrap(hist, False, None), _wrap(edges, False, None))


def histc(input, bins=100, min=0, max=0):  # noqa: A002 - PyTorch's names
    """The counts of ``bins`` equal bins from ``min`` to ``max`` (both 0: the data's extent)."""
    x = input._data
    _floats("histogram_cpu", x)
    return _wrap(_counts(x, _edges(x, int(bins), float(min), float(max), "torch.histc")), False, None)
