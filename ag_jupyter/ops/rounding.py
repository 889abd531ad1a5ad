"""Rounding (floor, ceil, trunc, round, frac), sign, and the divisions that round:
``floor_divide`` (``//``), ``remainder`` (``%``) and ``fmod``.

Rounding and sign are steps: their gradient is 0 wherever it is defined, and PyTorch
gives 0 everywhere; integer data is already whole and comes back in its own dtype.
"""
from __future__ import annotations

import numpy

from ..autograd.function import Op, UnaryOp
from ..backend import array_module
from ..core import TENSOR_TYPES
from ..promotion import kernel_for
from .binary import Binary


class Step(UnaryOp):
    """An elementwise step function: integers are returned as they are, the gradient is 0."""

    __slots__ = ()
    ufunc = None
    formula = r"\frac{\partial u}{\partial a} = 0"

    def forward(self, a):
        x = a._data
        kernel_for(x, self.node_name[: -len("Backward0")].lower() + "_cpu", "fiu")
        return self.ufunc(x) if x.dtype.kind == "f" else x.copy()

    def backward(self, F, grad):
        return (F.zeros_like(grad),)


class Floor(Step):
    __slots__ = ()
    node_name = "FloorBackward0"
    symbol = "⌊·⌋"
    ufunc = numpy.floor


class Ceil(Step):
    __slots__ = ()
    node_name = "CeilBackward0"
    symbol = "⌈·⌉"
    ufunc = numpy.ceil


class Trunc(Step):
    __slots__ = ()
    node_name = "TruncBackward0"
    symbol = "trunc"
    ufunc = numpy.trunc


class Round(Op):
    """Half to even, as PyTorch's (and NumPy's) round; ``decimals`` scales by 10**decimals."""

    __slots__ = ("decimals",)
    node_name = "RoundBackward0"
    symbol = "round"
    formula = Step.formula

    def name(self) -> str:
        return "RoundBackward0" if self.decimals is None else "RoundBackward1"

    def forward(self, a, decimals=None):
        self.decimals = decimals
        x = a._data
        kernel_for(x, "round_cpu", "fiu" if decimals is None else "f")  # decimals: floats only
        if x.dtype.kind != "f":
            return x.copy()
        return array_module(x).round(x, decimals or 0)

    backward = Step.backward


class Sign(Step):
    __slots__ = ()
    node_name = "SignBackward0"
    symbol = "sign"
    ufunc = numpy.sign

    def forward(self, a):
        x = a._data
        return x.copy() if x.dtype.kind == "b" else numpy.sign(x)


class Sgn(Sign):
    """``sgn``: ``sign`` extended to complex numbers; on real data the same numbers."""

    __slots__ = ()
    node_name = "SgnBackward0"
    symbol = "sgn"


class Frac(UnaryOp):
    __slots__ = ()
    node_name = "FracBackward0"
    symbol = "frac"
    formula = r"u = a - \operatorname{trunc}(a):\quad \frac{\partial u}{\partial a} = 1"

    def forward(self, a):
        x = a._data
        kernel_for(x, "frac_cpu", "f")
        return x - numpy.trunc(x)

    def backward(self, F, grad):
        return (grad,)


def _refuse_integer_division_by_zero(x, y) -> None:
    """PyTorch raises for an integer divided by 0; NumPy gives 0 with a warning. Two bools
    (promoted, both operands are then bool arrays or a bool and a Python bool) have no kernel."""
    if getattr(x, "dtype", None) is not None and getattr(y, "dtype", numpy.dtype(bool)).kind == "b":
        kernel_for(x, "div_floor_cpu", "fiu")
    if getattr(y, "dtype", numpy.dtype(type(y))).kind in "iub" and \
            getattr(x, "dtype", numpy.dtype(type(x))).kind in "iub" and not numpy.all(y != 0):
        raise RuntimeError("ZeroDivisionError")


def _floor_divide(x, y):
    _refuse_integer_division_by_zero(x, y)
    return numpy.floor_divide(x, y)


class FloorDivide(Binary):
    """``a // b``, rounded down. PyTorch defines no derivative for it: backward says so."""

    __slots__ = ()
    node_name = "FloorDivideBackward0"
    symbol = "//"
    ufunc = staticmethod(_floor_divide)
    formula = r"u = \lfloor a / b \rfloor:\quad \frac{\partial u}{\partial a} \text{ is not defined here}"
    remember = None

    def local(self, F, grad):
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


class Remainder(Binary):
    """``a % b`` with the sign of ``b`` (Python's, and PyTorch's remainder): ``a - floor(a/b) b``."""

    __slots__ = ("quotient",)
    node_name = "RemainderBackward0"
    symbol = "%"
    rounding = staticmethod(numpy.floor)
    formula = (r"u = a - \lfloor a / b \rfloor b:\quad \frac{\partial u}{\partial a} = 1,\quad "
               r"\frac{\partial u}{\partial b} = -\lfloor a / b \rfloor")

    @staticmethod
    def ufunc(x, y):
        _refuse_integer_division_by_zero(x, y)
        return numpy.remainder(x, y)

    def name(self) -> str:
        # PyTorch's node for a number as the divisor is ...0, for a tensor ...1
        return self.node_name if self.quotient is None else self.node_name[:-1] + "1"

    def remember(self, a, b, out) -> None:
        self.quotient = None
        if b.__class__ in TENSOR_TYPES and out.dtype.kind == "f":  # the divisor's gradient: the rounded quotient
            x = a._data if a.__class__ in TENSOR_TYPES else a
            self.quotient = self.rounding(x / b._data).astype(out.dtype, copy=False)

    def local(self, F, grad):
        return grad, (None if self.quotient is None else -grad * F.constant(self.quotient))


class Fmod(Remainder):
    """``fmod``: the remainder with the sign of ``a`` (C's fmod), ``a - trunc(a/b) b``."""

    __slots__ = ()
    node_name = "FmodBackward0"
    symbol = "fmod"
    rounding = staticmethod(numpy.trunc)
    formula = (r"u = a - \operatorname{trunc}(a / b)\, b:\quad \frac{\partial u}{\partial a} = 1,\quad "
               r"\frac{\partial u}{\partial b} = -\operatorname{trunc}(a / b)")

    @staticmethod
    def ufunc(x, y):
        _refuse_integer_division_by_zero(x, y)
        return numpy.fmod(x, y)


def floor(input):
    return Floor.apply(input)


def ceil(input):
    return Ceil.apply(input)


def trunc(input):
    return Trunc.apply(input)


def round(input, *, decimals=None):  # noqa: A001 - PyTorch's name
    return Round.apply(input, decimals)


def sign(input):
    return Sign.apply(input)


def sgn(input):
    return Sgn.apply(input)


def frac(input):
    return Frac.apply(input)


def floor_divide(input, other):
    return FloorDivide.apply(input, other)


def remainder(input, other):
    return Remainder.apply(input, other)


def fmod(input, other):
    return Fmod.apply(input, other)
