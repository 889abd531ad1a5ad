"""Logarithms in other bases, ``exp(x) - 1``, reciprocals and reciprocal square roots.

Each is one ufunc (``Unary``: integer and bool data are computed in the default float,
as PyTorch does); ``log1p``/``expm1`` keep the precision near 0 that ``log(1 + x)``
and ``exp(x) - 1`` lose.
"""
from __future__ import annotations

import math

import numpy

from ..backend import array_module
from .binary import Pow
from .unary import Unary, UnaryOnOutput


class Log1p(Unary):
    __slots__ = ()
    node_name = "Log1PBackward0"
    symbol = "log1p"
    ufunc = numpy.log1p
    formula = r"\frac{\partial u}{\partial a} = \frac{1}{1 + a}"

    def backward(self, F, grad):
        return (grad / (F.value(self.saved[0]) + 1),)


class Log10(Unary):
    __slots__ = ()
    node_name = "Log10Backward0"
    symbol = "log₁₀"
    ufunc = numpy.log10
    formula = r"\frac{\partial u}{\partial a} = \frac{1}{a \ln 10}"

    def backward(self, F, grad):
        return (grad / (F.value(self.saved[0]) * math.log(10.0)),)


class Log2(Unary):
    __slots__ = ()
    node_name = "Log2Backward0"
    symbol = "log₂"
    ufunc = numpy.log2
    formula = r"\frac{\partial u}{\partial a} = \frac{1}{a \ln 2}"

    def backward(self, F, grad):
        return (grad / (F.value(self.saved[0]) * math.log(2.0)),)


class Expm1(UnaryOnOutput):
    __slots__ = ()
    node_name = "Expm1Backward0"
    symbol = "expm1"
    ufunc = numpy.expm1
    formula = r"\frac{\partial u}{\partial a} = e^{a} = u + 1"

    def backward(self, F, grad):
        return (grad * (F.output(self) + 1),)


def _rsqrt(x):
    return array_module(x).reciprocal(numpy.sqrt(x))


class Rsqrt(UnaryOnOutput):
    __slots__ = ()
    node_name = "RsqrtBackward0"
    symbol = "1/√"
    ufunc = staticmethod(_rsqrt)
    formula = r"\frac{\partial u}{\partial a} = -\frac{1}{2} a^{-3/2} = -\frac{u^3}{2}"

    def backward(self, F, grad):
        out = F.output(self)
        return (grad * (out * out * out) * -0.5,)


class Reciprocal(UnaryOnOutput):
    __slots__ = ()
    node_name = "ReciprocalBackward0"
    symbol = "1/·"
    ufunc = numpy.reciprocal
    formula = r"\frac{\partial u}{\partial a} = -\frac{1}{a^2} = -u^2"

    def backward(self, F, grad):
        out = F.output(self)
        return (-grad * (out * out),)


def log1p(input):
    return Log1p.apply(input)


def log10(input):
    return Log10.apply(input)


def log2(input):
    return Log2.apply(input)


def expm1(input):
    return Expm1.apply(input)


def rsqrt(input):
    return Rsqrt.apply(input)


def reciprocal(input):
    return Reciprocal.apply(input)


def square(input):
    return Pow.apply(input, 2)  # PyTorch's square is pow(2): PowBackward0
