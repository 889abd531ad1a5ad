"""The elementwise functions users call (``ag.add``, ``ag.exp``, ...).

The primitives themselves live in ``binary.py`` and ``unary.py``; they are named here
too, since the rest of the package imports them from this module.
"""
from __future__ import annotations

from ..arrays import as_array
from ..autograd.algebra import provide
from ..autograd.leaves import leaf
from ..core import TENSOR_TYPES
from ..dtypes import default_float, from_numpy
from ..promotion import result_type
from .binary import Add, Binary, Div, Maximum, Minimum, Mul, Pow, Rsub, Sub, Where, broadcast_error
from .unary import Abs, Clamp, Cos, Exp, Log, Neg, Relu, Sigmoid, Sin, Sqrt, Tanh, Unary, UnaryOnOutput

__all__ = ["Add", "Binary", "Div", "Maximum", "Minimum", "Mul", "Pow", "Rsub", "Sub", "Where", "broadcast_error",
           "Abs", "Clamp", "Cos", "Exp", "Log", "Neg", "Relu", "Sigmoid", "Sin", "Sqrt", "Tanh", "Unary",
           "UnaryOnOutput"]


def add(input, other, *, alpha=1):
    return _scaled(Add, input, other, alpha)


def sub(input, other, *, alpha=1):
    return _scaled(Sub, input, other, alpha)


def mul(input, other):
    return Mul.apply(*_as_tensors(input, other))


def div(input, other):
    return Div.apply(*_as_tensors(input, other))


def _scaled(op, input, other, alpha):
    """``input op alpha * other`` in the dtype PyTorch gives ``input op other``: the product
    alone may be wider (a bool tensor times 2 is int64, and add(int32, bool, alpha=2) is int32)."""
    input, other = _as_tensors(input, other)
    if alpha == 1:
        return op.apply(input, other)
    values = [x._data if x.__class__ in TENSOR_TYPES else x for x in (input, other)]
    if op.refuse is not None:  # subtraction refuses bools before alpha makes them numbers
        op.refuse(*values)
    out = op.apply(input, other * alpha)
    target = result_type(*values)
    return out if out._data.dtype == target else out.to(from_numpy(target))


def _as_tensors(input, other):
    """Two numbers make a tensor of PyTorch's default dtype (``ag.add(0.5, 1.5)`` is float32)."""
    if input.__class__ not in TENSOR_TYPES and other.__class__ not in TENSOR_TYPES:  # as ag.tensor(input)
        input = leaf(as_array(input, default_float().numpy, None), None)
    return input, other


def pow(input, exponent):  # noqa: A001 - PyTorch's name
    return Pow.apply(input, exponent)


def maximum(input, other):
    _require_tensors("maximum", input, other)
    return Maximum.apply(input, other)


def minimum(input, other):
    _require_tensors("minimum", input, other)
    return Minimum.apply(input, other)


def _require_tensors(op: str, input, other) -> None:
    for name, value in (("input", input), ("other", other)):
        if value.__class__ not in TENSOR_TYPES:
            raise TypeError(f"{op}(): argument '{name}' must be Tensor, not {type(value).__name__} "
                            f"(use clamp(min=...) or clamp(max=...) for a number)")


def where(condition, input, other):
    return Where.apply(input, other, condition)


provide("where", where)  # the tensor algebra's where (autograd/algebra.py)


def neg(input):
    return Neg.apply(input)


def exp(input):
    return Exp.apply(input)


def log(input):
    return Log.apply(input)


def sqrt(input):
    return Sqrt.apply(input)


def abs(input):  # noqa: A001
    return Abs.apply(input)


def sin(input):
    return Sin.apply(input)


def cos(input):
    return Cos.apply(input)


def tanh(input):
    return Tanh.apply(input)


def sigmoid(input):
    return Sigmoid.apply(input)


def relu(input):
    return Relu.apply(input)


def clamp(input, min=None, max=None):  # noqa: A002
    return Clamp.apply(input, min, max)
