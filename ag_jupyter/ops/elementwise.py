"""The elementwise functions users call (``ag.add``, ``ag.exp``, ...).

The primitives themselves live in ``binary.py`` and ``unary.py``; they are named here
too, since the rest of the package imports them from this module.
"""
from __future__ import annotations

from ..core import TENSOR_TYPES
from .binary import Add, Binary, Div, Maximum, Minimum, Mul, Pow, Sub, Where, broadcast_error
from .unary import Abs, Clamp, Cos, Exp, Log, Neg, Relu, Sigmoid, Sin, Sqrt, Tanh, Unary, UnaryOnOutput

__all__ = ["Add", "Binary", "Div", "Maximum", "Minimum", "Mul", "Pow", "Sub", "Where", "broadcast_error",
           "Abs", "Clamp", "Cos", "Exp", "Log", "Neg", "Relu", "Sigmoid", "Sin", "Sqrt", "Tanh", "Unary",
           "UnaryOnOutput"]


def add(input, other, *, alpha=1):
    return Add.apply(input, other if alpha == 1 else other * alpha)


def sub(input, other, *, alpha=1):
    return Sub.apply(input, other if alpha == 1 else other * alpha)


def mul(input, other):
    return Mul.apply(input, other)


def div(input, other):
    return Div.apply(input, other)


def pow(input, exponent):  # noqa: A001 - PyTorch's name
    return Pow.apply(input, exponent)


def maximum(input, other):
    _require_tensor("maximum", other)
    return Maximum.apply(input, other)


def minimum(input, other):
    _require_tensor("minimum", other)
    return Minimum.apply(input, other)


def _require_tensor(op: str, other) -> None:
    if other.__class__ not in TENSOR_TYPES:
        raise TypeError(f"{op}(): argument 'other' must be Tensor, not {type(other).__name__} "
                        f"(use clamp(min=...) or clamp(max=...) for a number)")


def where(condition, input, other):
    return Where.apply(input, other, condition)


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
