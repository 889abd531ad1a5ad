"""``lerp``: the point ``weight`` of the way from ``start`` to ``end``,
``start + weight * (end - start)``, as one node (LerpBackward0 for a number as the
weight, LerpBackward1 for a tensor)."""
from __future__ import annotations

import numpy

from ..autograd.algebra import sum_to
from ..autograd.function import Op
from ..core import TENSOR_TYPES
from ..promotion import kernel_for, result_type
from .binary import broadcast_error


class Lerp(Op):
    __slots__ = ("shapes",)
    arity = 2
    node_name = "LerpBackward0"
    symbol = "lerp"
    formula = (r"u = a + w (b - a):\quad \frac{\partial u}{\partial a} = 1 - w,\quad "
               r"\frac{\partial u}{\partial b} = w")

    def forward(self, start, end, weight):
        x, y = start._data, end._data
        w = weight._data if weight.__class__ in TENSOR_TYPES else weight
        # PyTorch's checks: end has start's dtype, and so does a dimensioned weight; a 0-d
        # weight is then promoted with them (a 0-d float weight makes 0-d bool data float)
        if y.dtype != x.dtype:
            raise RuntimeError(f"expected dtype {start.dtype} for `end` but got dtype {end.dtype}")
        if weight.__class__ in TENSOR_TYPES:
            if w.ndim > 0 and w.dtype != x.dtype:
                raise RuntimeError(f"expected dtype {start.dtype} for `weight` but got dtype {weight.dtype}")
            target = result_type(x, y, w)
            x, y, w = x.astype(target, copy=False), y.astype(target, copy=False), w.astype(target, copy=False)
        kernel_for(x, "lerp_kernel_scalar", "f")
        try:
            shape = numpy.broadcast_shapes(x.shape, y.shape, getattr(w, "shape", ()))
        except ValueError:
            raise broadcast_error(x.shape, y.shape) from None
        self.saved = (weight,) if weight.__class__ in TENSOR_TYPES else (w,)
        self.saved += (start, end)
        self.shapes = (x.shape, y.shape, getattr(w, "shape", None), shape)
        return (x + w * (y - x)).astype(x.dtype, copy=False)

    def weight(self, F):
        return F.value(self.saved[0])

    def backward(self, F, grad):
        w = self.weight(F)
        shape_a, shape_b = self.shapes[:2]
        return sum_to(F, grad * (1 - w), shape_a), sum_to(F, grad * w, shape_b)


class LerpTensor(Lerp):
    """``lerp`` with a tensor weight, which takes a gradient too: ``b - a``."""

    __slots__ = ()
    arity = 3
    node_name = "LerpBackward1"
    formula = Lerp.formula + r",\quad \frac{\partial u}{\partial w} = b - a"

    def forward(self, start, end, weight):
        return Lerp.forward(self, start, end, weight)

    def backward(self, F, grad):
        grad_a, grad_b = Lerp.backward(self, F, grad)
        start, end = (F.value(t) for t in self.saved[1:])
        if self.saved[1]._data.dtype == bool:  # end - start, as PyTorch's backward refuses it
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                               "Use the `^` or `logical_xor()` operator instead.")
        return grad_a, grad_b, sum_to(F, grad * (end - start), self.shapes[2])


def lerp(input, end, weight):
    if weight.__class__ in TENSOR_TYPES:
        return LerpTensor.apply(input, end, weight)
    return Lerp.apply(input, end, weight)
