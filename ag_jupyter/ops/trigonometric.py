"""The inverse and hyperbolic trigonometric functions, ``atan2`` and ``hypot``, and the
error function (``erf``, ``erfc``: GELU's and the normal distribution's)."""
from __future__ import annotations

import math

import numpy

from ..backend import array_module
from ..promotion import floating, kernel_for
from .binary import Binary
from .nonlinear import erf as error_function
from .unary import Unary

_TWO_OVER_ROOT_PI = 2.0 / math.sqrt(math.pi)


def _erfc(x):
    """``1 - erf(x)``, but in the right tail (``x > 3``, where the difference cancels to
    nothing) ``exp(-x^2) / (sqrt(pi) f)`` with the continued fraction ``f`` that
    ``nonlinear.erf`` sums there, so erfc(6) keeps its digits."""
    xp = array_module(x)
    z = x.astype(numpy.float64)
    out = xp.asarray(1 - error_function(z))  # an array even for 0-d input: its tail is written below
    tail = z > 3.0
    if bool(tail.any()):
        t = z[tail]
        fraction = t.copy()
        for k in range(60, 0, -1):
            fraction = t + (k / 2) / fraction
        out[tail] = xp.exp(-t * t) / (math.sqrt(math.pi) * fraction)
    return out.astype(x.dtype, copy=False)


class Asin(Unary):
    __slots__ = ()
    node_name = "AsinBackward0"
    symbol = "asin"
    ufunc = numpy.arcsin
    formula = r"\frac{\partial u}{\partial a} = \frac{1}{\sqrt{1 - a^2}}"

    def backward(self, F, grad):
        a = F.value(self.saved[0])
        return (grad / F.sqrt(1 - a * a),)


class Acos(Unary):
    __slots__ = ()
    node_name = "AcosBackward0"
    symbol = "acos"
    ufunc = numpy.arccos
    formula = r"\frac{\partial u}{\partial a} = -\frac{1}{\sqrt{1 - a^2}}"

    def backward(self, F, grad):
        a = F.value(self.saved[0])
        return (-grad / F.sqrt(1 - a * a),)


class Atan(Unary):
    __slots__ = ()
    node_name = "AtanBackward0"
    symbol = "atan"
    ufunc = numpy.arctan
    formula = r"\frac{\partial u}{\partial a} = \frac{1}{1 + a^2}"

    def backward(self, F, grad):
        a = F.value(self.saved[0])
        return (grad / (a * a + 1),)


class Sinh(Unary):
    __slots__ = ()
    node_name = "SinhBackward0"
    symbol = "sinh"
    ufunc = numpy.sinh
    formula = r"\frac{\partial u}{\partial a} = \cosh a"

    def backward(self, F, grad):
        a = F.value(self.saved[0])
        return (grad * ((F.exp(a) + F.exp(-a)) * 0.5),)


class Cosh(Unary):
    __slots__ = ()
    node_name = "CoshBackward0"
    symbol = "cosh"
    ufunc = numpy.cosh
    formula = r"\frac{\partial u}{\partial a} = \sinh a"

    def backward(self, F, grad):
        a = F.value(self.saved[0])
        return (grad * ((F.exp(a) - F.exp(-a)) * 0.5),)


class Erf(Unary):
    __slots__ = ()
    node_name = "ErfBackward0"
    symbol = "erf"
    ufunc = staticmethod(error_function)
    formula = r"\frac{\partial u}{\partial a} = \frac{2}{\sqrt{\pi}} e^{-a^2}"

    def backward(self, F, grad):
        a = F.value(self.saved[0])
        return (grad * (F.exp(-(a * a)) * _TWO_OVER_ROOT_PI),)


class Erfc(Unary):
    __slots__ = ()
    node_name = "ErfcBackward0"
    symbol = "erfc"
    formula = r"\frac{\partial u}{\partial a} = -\frac{2}{\sqrt{\pi}} e^{-a^2}"

    ufunc = staticmethod(_erfc)

    def backward(self, F, grad):
        a = F.value(self.saved[0])
        return (grad * (F.exp(-(a * a)) * -_TWO_OVER_ROOT_PI),)


def _floating_pair(ufunc):
    """A binary ufunc that computes integer and bool operands in the default float."""
    def compute(x, y):
        return ufunc(*(floating(v) if getattr(v, "dtype", numpy.dtype("f")).kind != "f" else v for v in (x, y)))
    return compute


class Atan2(Binary):
    __slots__ = ()
    node_name = "Atan2Backward0"
    symbol = "atan2"
    ufunc = staticmethod(_floating_pair(numpy.arctan2))
    formula = (r"u = \operatorname{atan2}(a, b):\quad \frac{\partial u}{\partial a} = \frac{b}{a^2 + b^2},"
               r"\quad \frac{\partial u}{\partial b} = \frac{-a}{a^2 + b^2}")

    def local(self, F, grad):
        a, b = self.saved
        y, x = F.value(a), F.value(b)
        if getattr(getattr(a, "_data", None), "dtype", None) == numpy.bool_:  # PyTorch's backward negates it
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are "
                               "trying to invert a mask, use the `~` or `logical_not()` operator instead.")
        scaled = grad / (x * x + y * y)
        return scaled * x, scaled * -y


def _hypot(x, y):
    for v in (x, y):
        if getattr(v, "dtype", None) is not None:
            kernel_for(v, "hypot_cpu", "f")
    return numpy.hypot(x, y)


class Hypot(Binary):
    __slots__ = ("out",)
    saves_output = True
    node_name = "HypotBackward0"
    symbol = "hypot"
    ufunc = staticmethod(_hypot)
    formula = (r"u = \sqrt{a^2 + b^2}:\quad \frac{\partial u}{\partial a} = \frac{a}{u},"
               r"\quad \frac{\partial u}{\partial b} = \frac{b}{u}")

    def remember(self, a, b, out) -> None:
        self.saved = (a, b)
        self.out = out

    def local(self, F, grad):
        a, b = self.saved
        scaled = grad / F.output(self)
        return scaled * F.value(a), scaled * F.value(b)


def asin(input):
    return Asin.apply(input)


def acos(input):
    return Acos.apply(input)


def atan(input):
    return Atan.apply(input)


def sinh(input):
    return Sinh.apply(input)


def cosh(input):
    return Cosh.apply(input)


def erf(input):
    return Erf.apply(input)


def erfc(input):
    return Erfc.apply(input)


def atan2(input, other):
    return Atan2.apply(input, other)


def hypot(input, other):
    return Hypot.apply(input, other)
