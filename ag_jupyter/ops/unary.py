"""Unary elementwise primitives: exp, log, tanh, relu, ..."""
from __future__ import annotations

import numpy

from .. import gpu_kernels
from ..autograd.algebra import stable_sigmoid
from ..autograd.function import Op, UnaryOp
from ..core import TENSOR_TYPES
from ..promotion import floating, refuse_bool, result_type


class Unary(UnaryOp):
    """A unary op; exp, log, sin, ... compute integer and bool data in the default float."""

    __slots__ = ()
    ufunc = None

    def forward(self, a):
        self.saved = (a,)
        x = a._data
        return self.ufunc(x if x.dtype.kind == "f" else floating(x))


class UnaryOnOutput(UnaryOp):
    """Unary ops whose derivative is cheapest from their output (exp, tanh, ...)."""

    __slots__ = ("out",)
    saves_output = True
    ufunc = None

    def forward(self, a):
        x = a._data
        out = self.out = self.ufunc(x if x.dtype.kind == "f" else floating(x))
        return out


class Neg(Unary):
    __slots__ = ()
    node_name = "NegBackward0"
    symbol = "−"
    ufunc = numpy.negative
    formula = r"\frac{\partial u}{\partial a} = -1"

    def forward(self, a):
        if a._data.dtype.kind == "b":
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you "
                               "are trying to invert a mask, use the `~` or `logical_not()` "
                               "operator instead.")
        return numpy.negative(a._data)

    def backward(self, F, grad):
        return (-grad,)


class Exp(UnaryOnOutput):
    __slots__ = ()
    node_name = "ExpBackward0"
    symbol = "exp"
    ufunc = numpy.exp
    formula = r"\frac{\partial u}{\partial a} = e^{a} = u"

    def backward(self, F, grad):
        return (grad * F.output(self),)


class Log(Unary):
    __slots__ = ()
    node_name = "LogBackward0"
    symbol = "log"
    ufunc = numpy.log
    formula = r"\frac{\partial u}{\partial a} = \frac{1}{a}"

    def backward(self, F, grad):
        return (grad / F.value(self.saved[0]),)


class Sqrt(UnaryOnOutput):
    __slots__ = ()
    node_name = "SqrtBackward0"
    symbol = "√"
    ufunc = numpy.sqrt
    formula = r"\frac{\partial u}{\partial a} = \frac{1}{2\sqrt{a}}"

    def backward(self, F, grad):
        return (grad / (2 * F.output(self)),)


class Abs(Unary):
    __slots__ = ()
    node_name = "AbsBackward0"
    symbol = "|·|"
    ufunc = numpy.abs
    formula = r"\frac{\partial u}{\partial a} = \operatorname{sign}(a)"

    def forward(self, a):
        refuse_bool(a._data, "abs")
        self.saved = (a,)
        return numpy.abs(a._data)

    def backward(self, F, grad):
        return (grad * F.sign(F.value(self.saved[0])),)


class Sin(Unary):
    __slots__ = ()
    node_name = "SinBackward0"
    symbol = "sin"
    ufunc = numpy.sin
    formula = r"\frac{\partial u}{\partial a} = \cos a"

    def backward(self, F, grad):
        return (grad * F.cos(F.value(self.saved[0])),)


class Cos(Unary):
    __slots__ = ()
    node_name = "CosBackward0"
    symbol = "cos"
    ufunc = numpy.cos
    formula = r"\frac{\partial u}{\partial a} = -\sin a"

    def backward(self, F, grad):
        return (-grad * F.sin(F.value(self.saved[0])),)


class Tanh(UnaryOnOutput):
    __slots__ = ()
    node_name = "TanhBackward0"
    symbol = "tanh"
    ufunc = numpy.tanh
    formula = r"\frac{\partial u}{\partial a} = 1 - \tanh^2 a = 1 - u^2"

    def backward(self, F, grad):
        out = F.output(self)
        return (grad * (1 - out * out),)


class Sigmoid(UnaryOnOutput):
    __slots__ = ()
    node_name = "SigmoidBackward0"
    symbol = "σ"
    ufunc = staticmethod(stable_sigmoid)
    formula = r"\frac{\partial u}{\partial a} = \sigma(a)\,(1 - \sigma(a)) = u(1-u)"

    def backward(self, F, grad):
        out = F.output(self)
        return (grad * out * (1 - out),)


class Relu(UnaryOnOutput):
    __slots__ = ()
    node_name = "ReluBackward0"
    symbol = "relu"
    formula = r"\frac{\partial u}{\partial a} = [a > 0]"

    @staticmethod
    def ufunc(x):
        return numpy.maximum(x, 0)

    def forward(self, a):
        refuse_bool(a._data, "relu")
        out = self.out = numpy.maximum(a._data, 0)
        return out

    def backward(self, F, grad):
        # The output is max(a, 0): positive, 0 or NaN. ``!= 0`` keeps the positive entries
        # and lets a NaN pass its gradient, as in PyTorch, in one pass over the output.
        out = F.output(self)
        if grad.__class__ is not numpy.ndarray and not F.records and gpu_kernels.fusable(grad, out):
            return (gpu_kernels.relu_backward(grad, out),)  # one launch for != and where
        return (F.masked(grad, out != 0),)


def _bound(a, name: str, value):
    """A clamp bound as NumPy takes it: a number, or a tensor's array (which must fit the
    input's shape, and take no gradient: PyTorch's would go where the bound binds)."""
    if value.__class__ not in TENSOR_TYPES:
        return value
    if value._requires_grad:
        raise RuntimeError(f"clamp: the '{name}' tensor requires grad, and ag_jupyter gives no gradient to a "
                           f"bound; pass {name}={name}.detach(), or use ag.maximum/ag.minimum")
    bound = value._data
    if numpy.broadcast_shapes(bound.shape, a._data.shape) != a._data.shape:
        raise RuntimeError(f"clamp: the '{name}' tensor of shape {list(bound.shape)} does not broadcast to "
                           f"the input's shape {list(a._data.shape)}")
    return bound


class Clamp(Op):
    __slots__ = ("low", "high")
    node_name = "ClampBackward1"
    symbol = "clamp"
    formula = r"\frac{\partial u}{\partial a} = [\min \le a \le \max]"

    def forward(self, a, low=None, high=None):
        if low is None and high is None:
            raise RuntimeError("clamp: at least one of 'min' or 'max' must not be None")
        low, high = (_bound(a, name, v) for name, v in (("min", low), ("max", high)))
        self.saved = (a,)
        self.low, self.high = low, high
        target = result_type(a._data, *(v for v in (low, high) if v is not None))
        return numpy.clip(a._data.astype(target, copy=False), low, high).astype(target, copy=False)

    def backward(self, F, grad):
        a = F.value(self.saved[0])
        inside = (a >= self.low) if self.low is not None else None
        if self.high is not None:
            below = a <= self.high
            inside = below if inside is None else inside * below
        return (F.masked(grad, inside),)


class ClampMin(Clamp):
    """``clamp_min(min)``: PyTorch draws a clamp with one bound as its own node."""

    __slots__ = ()
    node_name = "ClampMinBackward0"
    symbol = "clamp_min"
    formula = r"\frac{\partial u}{\partial a} = [a \ge \min]"

    def forward(self, a, low):
        return Clamp.forward(self, a, low, None)


class ClampMax(Clamp):
    __slots__ = ()
    node_name = "ClampMaxBackward0"
    symbol = "clamp_max"
    formula = r"\frac{\partial u}{\partial a} = [a \le \max]"

    def forward(self, a, high):
        return Clamp.forward(self, a, None, high)


def clamp_min(input, min):  # noqa: A002 - PyTorch's names
    return ClampMin.apply(input, min)


def clamp_max(input, max):  # noqa: A002
    return ClampMax.apply(input, max)
