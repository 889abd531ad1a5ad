"""How a tensor prints: PyTorch's layout (``tensor([1., 2.], requires_grad=True)``)."""
from __future__ import annotations

import numpy

from . import backend, dtypes


def tensor_repr(t) -> str:
    array = numpy.asarray(backend.move(t._data, backend.CPU))
    body = numpy.array2string(array, separator=", ", prefix="tensor(", threshold=1000, edgeitems=3,
                              **_float_style(array))
    extras = []
    if t.device.type != "cpu":
        extras.append(f"device='{t.device}'")
    implied = dtypes.default_float() if array.dtype.kind == "f" else (
        dtypes.int64 if array.dtype.kind in "iu" else dtypes.bool_)
    if t.dtype is not implied or array.size == 0:
        extras.append(f"dtype={t.dtype!r}")
    if t.grad_fn is not None:
        extras.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t.requires_grad:
        extras.append("requires_grad=True")
    return "tensor(" + body + "".join(", " + e for e in extras) + ")"


def _float_style(array) -> dict:
    """PyTorch's choice: whole numbers print as ``1.``, others with 4 decimals, and
    scientific notation when the magnitudes span too much."""
    if array.dtype.kind != "f":
        return {}
    finite = numpy.abs(array[numpy.isfinite(array)]).astype(numpy.float64)
    if finite.size == 0 or numpy.all(finite == numpy.round(finite)) and finite.max() < 1e8:
        return {"precision": 4, "floatmode": "maxprec_equal"}
    nonzero = finite[finite > 0]
    if nonzero.size and (nonzero.max() / nonzero.min() > 1000 or nonzero.max() > 1e8 or nonzero.min() < 1e-4):
        return {"formatter": {"float_kind": lambda v: f"{v:.4e}"}}
    return {"precision": 4, "floatmode": "fixed"}
