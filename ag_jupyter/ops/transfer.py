"""Moving a tensor to another dtype or device, differentiably (the writes are in writes.py)."""
from __future__ import annotations

from ..autograd.function import Op
from ..backend import device_of, move
from ..dtypes import from_numpy


class ToDtype(Op):
    __slots__ = ("in_dtype",)
    node_name = "ToCopyBackward0"
    symbol = "to"
    formula = r"\frac{\partial u}{\partial a} = 1 \text{ (cast back)}"

    def forward(self, a, dtype):
        self.in_dtype = a._data.dtype
        return a._data.astype(dtype)

    def backward(self, F, grad):
        if F.records:
            return (grad.to(from_numpy(self.in_dtype)),)
        return (grad.astype(self.in_dtype),)


class ToDevice(Op):
    __slots__ = ("source",)
    node_name = "ToCopyBackward0"
    symbol = "to"
    formula = r"\frac{\partial u}{\partial a} = 1 \text{ (moved back)}"

    def forward(self, a, target):
        self.source = device_of(a._data)
        return move(a._data, target)

    def backward(self, F, grad):
        if F.records:
            return (grad.to(self.source),)
        return (move(grad, self.source),)
