"""What a node of the static picture says beyond its name, as the widget draws it
(js/src/model/nodecontent.js): a scalar's value after its name (``a = 2``), a small
tensor (at most 4x4) as rows of numbers, a larger one as its min and max; an op's
Python constants beside its symbol (``× 2``, ``** 2``). Formatting only: every
number is the trace document's."""
import math

GRID_MAX = 4


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def number(value) -> str:
    """A summary number as the widget writes it (js/src/model/format.js ``num``): integers as
    they are, else 4 significant digits, and outside 1e-3..1e5 as ``4.876×10⁻⁴``
    (``NaN``/``Infinity`` stay words).

    >>> number(-0.0004876), number(2.5), number(123456.7), number(3.0)
    ('-4.876×10⁻⁴', '2.5', '1.235×10⁵', '3')
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if math.isnan(value) or math.isinf(value):
        return str(value)
    if isinstance(value, int) or float(value).is_integer() and abs(value) < 1e6:
        return str(int(value))
    short = f"{value:.4g}"  # rounding can carry 99999.5 past 1e5: then it is a power too
    if value != 0 and (not 1e-3 <= abs(value) < 1e5 or "e" in short):
        mantissa, exponent = f"{value:.3e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".")
        return f"{mantissa}×10{str(int(exponent)).translate(_SUPERSCRIPT)}"
    return short


def is_scalar(summary) -> bool:
    return bool(summary) and len(summary.get("values") or ()) == 1 and all(d == 1 for d in summary.get("shape") or ())


def _rows(summary) -> list | None:
    """The values as rows of text when the tensor fits a 4x4 grid, else None."""
    shape, values = summary.get("shape") or [], summary.get("values")
    if values is None or not 1 <= len(shape) <= 2 or not all(1 <= d <= GRID_MAX for d in shape):
        return None
    cols = shape[-1]
    return [[number(v) for v in values[i:i + cols]] for i in range(0, len(values), cols)]


def _finite(values) -> list:
    return [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)]


def value_lines(node: dict) -> list:
    """Lines under a tensor's title: its grid, or ``min .. max`` (and how many entries are
    NaN or inf, when some are); none for a scalar (its value is in the title) or a node
    without a value."""
    value = node.get("value")
    if not value or is_scalar(value) or value.get("values") == []:  # empty: no min or max, its shape says it
        return []
    rows = _rows(value)
    if rows is not None:
        widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
        return ["  ".join(t.rjust(w) for t, w in zip(row, widths)) for row in rows]
    if "values" in value:  # small but past the grid: min and max picked among the values sent
        finite = _finite(value["values"])
        low, high = (min(finite), max(finite)) if finite else ("NaN", "NaN")
    else:
        low, high = value.get("min"), value.get("max")
    counts = ", ".join(f"{value[key]} {key}" for key in ("nan", "inf") if value.get(key))
    # min and max are the finite entries': the box says how many are not (the widget's box does too)
    return [f"min {number(low)}  max {number(high)}"] + ([f"⚠ {counts}"] if counts else [])


def scalar_suffix(node: dict, title: str) -> str:
    """`` = 2`` for a scalar tensor with a value, else '' (and '' when the title is
    that value already: a constant is named by its value)."""
    value = node.get("value")
    text = number(value["values"][0]) if is_scalar(value) else ""
    return f" = {text}" if text and text != title else ""


def window_setting(name: str, value: str) -> str:
    """A setting as the node's box writes it: ``(5, 5)`` as ``5×5`` for the kernel, a pair of
    equal numbers as one, other names in words (``stride 2``, ``padding 1``, ``groups 2``)."""
    parts = [part for part in str(value).replace("(", "").replace(")", "").replace(" ", "").split(",") if part]
    if name == "kernel_size":
        return "×".join(parts)
    text = parts[0] if len(set(parts)) == 1 else "×".join(parts)
    return f"{name.replace('_', ' ')} {text}"


def op_text(node: dict) -> str:
    """The op's symbol with its numeric constants where they were written."""
    symbol = node.get("symbol") or node.get("op", "?")
    settings = [c for c in node.get("consts") or [] if "name" in c]
    if settings:  # a convolution's or pooling's window: conv 5×5 stride 1 padding 2
        return " ".join([symbol] + [window_setting(c["name"], c["value"]) for c in settings])
    consts = node.get("consts") or []
    if not consts or len(consts) > 2 or not all(isinstance(c.get("value"), (int, float)) for c in consts):
        return symbol
    shown = "**" if symbol == "^" else symbol
    before = [number(c["value"]) for c in consts if c.get("arg") == 0]
    after = [number(c["value"]) for c in consts if c.get("arg") != 0]
    return " ".join([*before, shown, *after])
