"""How a tensor prints: PyTorch's layout (``tensor([1., 2.], requires_grad=True)``)."""
from __future__ import annotations

import numpy

from . import backend, dtypes


def tensor_repr(t) -> str:
    array = numpy.asarray(backend.move(t._data, backend.CPU))
    body = numpy.array2string(array, separator=", ", prefix="tensor(", precision=4,
                              floatmode="maxprec_equal" if array.dtype.kind == "f" else "maxprec",
                              threshold=1000, edgeitems=3)
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
