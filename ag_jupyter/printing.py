"""How a tensor prints: PyTorch's ``torch/_tensor_str.py`` rules, followed step for step, so
a learner sees what a PyTorch tutorial shows (``tensor([1., 2.], requires_grad=True)``).

The rules, for a dense tensor on NumPy: every entry is written alike, right-aligned to the
widest. A floating tensor whose non-zero finite entries are all whole is written ``1.``;
one whose magnitudes span more than 1000x, or pass 1e8, or fall under 1e-4, in scientific
notation with 4 decimals; otherwise with 4 decimals. A row wraps at 80 characters; past
1,000 entries only the first and last 3 of each dimension are shown. The suffixes
(``dtype=``, ``grad_fn=``...) wrap onto a new line when they would pass 80 characters.
"""
from __future__ import annotations

import math

import numpy

from . import backend, dtypes
from .arrays import get_default_device

PRECISION = 4
THRESHOLD = 1000  # entries past which a tensor is summarized
EDGEITEMS = 3  # entries kept at each end of a summarized dimension
LINEWIDTH = 80
_PREFIX = "tensor("


class _Formatter:
    """How wide each entry is written, and in which notation (PyTorch's ``_Formatter``)."""

    def __init__(self, array):
        self.floating = array.dtype.kind == "f"
        self.int_mode, self.sci_mode, self.max_width = True, False, 1
        flat = array.reshape(-1)
        if not self.floating:
            self.max_width = max([1] + [len(f"{value}") for value in flat.tolist()])
            return
        values = flat[numpy.isfinite(flat) & (flat != 0)]
        if values.size == 0:
            return
        magnitudes = numpy.abs(values.astype(numpy.float64))
        low, high = magnitudes.min(), magnitudes.max()
        self.int_mode = bool(numpy.all(values == numpy.ceil(values)))
        self.sci_mode = bool(high / low > 1000.0 or high > 1.0e8 or low < 1.0e-4)
        numbers = values.tolist()
        if self.sci_mode:
            widths = [len(f"{v:.{PRECISION}e}") for v in numbers]
        elif self.int_mode:
            widths = [len(f"{v:.0f}") + 1 for v in numbers]  # + 1: the "." that says float
        else:
            widths = [len(f"{v:.{PRECISION}f}") for v in numbers]
        self.max_width = max(self.max_width, max(widths))

    def format(self, value) -> str:
        if not self.floating:
            text = f"{value}"
        elif self.sci_mode:
            text = f"{value:{self.max_width}.{PRECISION}e}"
        elif self.int_mode:
            text = f"{value:.0f}" + ("" if math.isinf(value) or math.isnan(value) else ".")
        else:
            text = f"{value:.{PRECISION}f}"
        return (self.max_width - len(text)) * " " + text


def _shown(length: int, summarize: bool) -> list:
    """The indices a dimension shows: all, or its first and last ``EDGEITEMS`` when summarized."""
    if summarize and length > 2 * EDGEITEMS:
        return list(range(EDGEITEMS)) + list(range(length - EDGEITEMS, length))
    return list(range(length))


def _summarized(array):
    """The entries a summarized tensor shows, for the formatter to measure."""
    if array.ndim == 0:
        return array
    rows = _shown(len(array), True)
    if array.ndim == 1:
        return array[rows]
    return numpy.stack([_summarized(array[i]) for i in rows])


def _with_gap(items: list, length: int, gap: str) -> list:
    """``items`` with ``gap`` where a summary left entries out."""
    return items[:EDGEITEMS] + [gap] + items[EDGEITEMS:] if len(items) < length else items


def _vector(array, indent: int, summarize: bool, formatter: _Formatter) -> str:
    per_line = max(1, math.floor((LINEWIDTH - indent) / (formatter.max_width + 2)))
    values = array[_shown(len(array), summarize)].tolist()
    entries = _with_gap([formatter.format(v) for v in values], len(array), " ...")
    lines = [", ".join(entries[i:i + per_line]) for i in range(0, len(entries), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested(array, indent: int, summarize: bool, formatter: _Formatter) -> str:
    if array.ndim == 0:
        return formatter.format(array.item())
    if array.ndim == 1:
        return _vector(array, indent, summarize, formatter)
    slices = [_nested(array[i], indent + 1, summarize, formatter) for i in _shown(len(array), summarize)]
    slices = _with_gap(slices, len(array), "...")
    return "[" + ("," + "\n" * (array.ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _with_suffixes(text: str, suffixes: list, indent: int) -> str:
    # PyTorch's arithmetic, "+ 1" included (rfind gives -1 on one line)
    last_line = len(text) - text.rfind("\n") + 1
    parts = [text]
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > LINEWIDTH:
            parts.append(",\n" + " " * indent + suffix)
            last_line = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line += len(suffix) + 2
    return "".join(parts) + ")"


def tensor_repr(t) -> str:
    array = numpy.asarray(backend.move(t._data, backend.CPU))
    indent = len(_PREFIX)
    suffixes = []
    if t.device.type != get_default_device().type:
        suffixes.append(f"device='{t.device}'")
    default_float = dtypes.default_float()
    if array.size == 0:
        if array.ndim != 1:
            suffixes.append(f"size={tuple(array.shape)}")
        if t.dtype is not default_float:  # no entry to tell an int64 from a float
            suffixes.append(f"dtype={t.dtype!r}")
        body = "[]"
    else:
        if t.dtype not in (default_float, dtypes.int64, dtypes.bool_):
            suffixes.append(f"dtype={t.dtype!r}")
        summarize = array.size > THRESHOLD
        formatter = _Formatter(_summarized(array) if summarize else array)
        body = _nested(array, indent, summarize, formatter)
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _with_suffixes(_PREFIX + body, suffixes, indent)
