"""The activations of modern networks, each one node as in PyTorch: ``GeluBackward0``,
``LeakyReluBackward0``, ``SiluBackward0``, ``EluBackward0``, ``SoftplusBackward0``.

(ReLU, tanh and sigmoid are in ``unary.py``; softmax in ``activation.py``.) Each is
defined on floating-point tensors only; an integer or bool tensor is PyTorch's
``NotImplementedError`` naming its kernel and the dtype.
"""
from __future__ import annotations

import math

import numpy

from ..autograd.algebra import stable_sigmoid
from ..autograd.function import Op
from ..backend import array_module
from ..dtypes import scalar_type_name

_SQRT_PI = math.sqrt(math.pi)
_TANH_SCALE = math.sqrt(2 / math.pi)  # GELU's tanh approximation: tanh(k (x + c x^3))
_TANH_CUBIC = 0.044715
_GELU_MODES = ("none", "tanh")


def _floating(a, kernel: str):
    """``a``'s array, which must hold floats, as PyTorch's kernels require."""
    x = a._data
    if x.dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{scalar_type_name(x)}\'')
    return x


def erf(x):
    """The error function of an array, to about 1e-15 (NumPy has none; CuPy's arrays go
    through the same code). ``|x| <= 3``: the series ``2/sqrt(pi) e^{-x^2} sum 2^n x^{2n+1} /
    (2n+1)!!``, whose terms are all of one sign (nothing cancels); beyond: erfc's continued
    fraction, which converges fast there."""
    xp = array_module(x)
    z = x.astype(numpy.float64)
    magnitude = xp.abs(z)
    out = xp.empty_like(z)
    near = magnitude <= 3.0
    inner = z[near]
    square = inner * inner
    term, total = inner.copy(), inner.copy()
    for n in range(1, 200):
        term = term * (2 * square / (2 * n + 1))
        total += term
        if not bool((xp.abs(term) > 1e-17 * xp.abs(total)).any()):
            break
    out[near] = (2 / _SQRT_PI) * xp.exp(-square) * total
    far = ~near
    outer = magnitude[far]
    fraction = outer.copy()
    for k in range(60, 0, -1):
        fraction = outer + (k / 2) / fraction
    out[far] = xp.sign(z[far]) * (1 - xp.exp(-outer * outer) / (_SQRT_PI * fraction))
    return out.astype(x.dtype, copy=False)


def _gelu(x, approximate: str):
    if approximate == "tanh":
        return 0.5 * x * (1 + numpy.tanh(_TANH_SCALE * (x + _TANH_CUBIC * x * x * x)))
    return (0.5 * x * (1 + erf(x / math.sqrt(2)))).astype(x.dtype, copy=False)


def _gelu_slope(x, approximate: str):
    """GELU's derivative at the array ``x``."""
    if approximate == "tanh":
        t = numpy.tanh(_TANH_SCALE * (x + _TANH_CUBIC * x * x * x))
        return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _TANH_SCALE * (1 + 3 * _TANH_CUBIC * x * x)
    density = numpy.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
    return (0.5 * (1 + erf(x / math.sqrt(2))) + x * density).astype(x.dtype, copy=False)


def _gelu_curvature(F, x, approximate: str):
    """GELU's second derivative, in the algebra ``F`` (elementary either way)."""
    if approximate == "tanh":
        inner = _TANH_SCALE * (x + _TANH_CUBIC * x * x * x)
        t = F.tanh(inner)
        slope = _TANH_SCALE * (1 + 3 * _TANH_CUBIC * x * x)
        return (1 - t * t) * (slope - x * t * slope * slope + 3 * _TANH_SCALE * _TANH_CUBIC * x * x)
    return F.exp(-0.5 * x * x) * (1 / math.sqrt(2 * math.pi)) * (2 - x * x)


def _gelu_grad(F, grad, x, approximate: str):
    """``grad * gelu'(x)``: arrays directly; tensors through ``GeluBackward``, whose own
    backward needs Φ (erf), which no other op has."""
    if F.records:
        return GeluBackward.apply(grad, x, approximate)
    return grad * _gelu_slope(x, approximate)


class Gelu(Op):
    __slots__ = ("approximate",)
    node_name = "GeluBackward0"
    symbol = "GELU"
    formula = (r"u = a\,\Phi(a):\quad \frac{\partial u}{\partial a} = \Phi(a) + a\,\varphi(a)"
               r"\ \ (\texttt{tanh}: \Phi \approx \tfrac12(1 + \tanh(\sqrt{2/\pi}(a + 0.044715a^3))))")

    def forward(self, a, approximate):
        if approximate not in _GELU_MODES:
            raise RuntimeError("approximate argument must be either none or tanh.")
        x = _floating(a, "GeluKernelImpl")
        self.saved = (a,)
        self.approximate = approximate
        return _gelu(x, approximate)

    def backward(self, F, grad):
        return (_gelu_grad(F, grad, F.value(self.saved[0]), self.approximate),)


class GeluBackward(Op):
    """``grad * gelu'(x)`` as a node: what a second derivative of GELU differentiates."""

    __slots__ = ("approximate",)
    arity = 2
    node_name = "GeluBackwardBackward0"
    symbol = "GELU'"
    formula = r"u = \bar g\,\mathrm{GELU}'(a):\quad \frac{\partial u}{\partial a} = \bar g\,\mathrm{GELU}''(a)"
    formula_args = ("g", "a")

    def forward(self, grad, a, approximate):
        self.saved = (grad, a)
        self.approximate = approximate
        return grad._data * _gelu_slope(a._data, approximate)

    def backward(self, F, upstream):
        grad, x = (F.value(t) for t in self.saved)
        return (_gelu_grad(F, upstream, x, self.approximate),
                upstream * grad * _gelu_curvature(F, x, self.approximate))


class LeakyRelu(Op):
    __slots__ = ("slope",)
    node_name = "LeakyReluBackward0"
    symbol = "leaky relu"
    formula = r"\frac{\partial u}{\partial a} = 1 \text{ if } a > 0 \text{ else the negative slope}"

    def forward(self, a, negative_slope=0.01):
        x = _floating(a, "leaky_relu_cpu")
        self.saved = (a,)
        self.slope = negative_slope
        return array_module(x).where(x > 0, x, x * x.dtype.type(negative_slope))

    def backward(self, F, grad):
        return (F.where(F.value(self.saved[0]) > 0, grad, grad * self.slope),)


class LeakyReluInPlace(LeakyRelu):
    """``leaky_relu_`` (``inplace=True``): PyTorch names its node ``LeakyReluBackward1``."""

    __slots__ = ()
    node_name = "LeakyReluBackward1"


class Silu(Op):
    __slots__ = ()
    node_name = "SiluBackward0"
    symbol = "SiLU"
    formula = r"u = a\,\sigma(a):\quad \frac{\partial u}{\partial a} = \sigma(a)\,(1 + a(1 - \sigma(a)))"

    def forward(self, a):
        x = _floating(a, "silu_cpu")
        self.saved = (a,)
        return x * stable_sigmoid(x)

    def backward(self, F, grad):
        x = F.value(self.saved[0])
        s = F.sigmoid(x)
        return (grad * s * (1 + x * (1 - s)),)


class Elu(Op):
    __slots__ = ("alpha",)
    node_name = "EluBackward0"
    symbol = "ELU"
    formula = r"\frac{\partial u}{\partial a} = 1 \text{ if } a > 0 \text{ else } \alpha e^{a}"

    def forward(self, a, alpha=1.0):
        x = _floating(a, "elu_cpu")
        self.saved = (a,)
        self.alpha = alpha
        xp = array_module(x)
        below = xp.minimum(x, 0)  # exp of non-positive numbers only: no overflow
        return xp.where(x > 0, x, alpha * xp.expm1(below)).astype(x.dtype, copy=False)

    def backward(self, F, grad):
        x = F.value(self.saved[0])
        # e^a with a masked to 0 from zero up: the branch not taken stays finite, so its
        # (discarded) gradient cannot turn into inf * 0 = NaN under create_graph; and at
        # a = 0 the slope is alpha but its own derivative 0, as in PyTorch's double backward
        return (F.where(x <= 0, grad * self.alpha * F.exp(x * (x < 0)), grad),)


class EluInPlace(Elu):
    """``elu_`` (``inplace=True``): PyTorch names its node ``EluBackward1``."""

    __slots__ = ()
    node_name = "EluBackward1"


class Softplus(Op):
    __slots__ = ("beta", "threshold")
    node_name = "SoftplusBackward0"
    symbol = "softplus"
    formula = (r"u = \tfrac1\beta \log(1 + e^{\beta a}):\quad \frac{\partial u}{\partial a} = "
               r"\sigma(\beta a) \ (\text{1 where } \beta a > \text{threshold})")

    def forward(self, a, beta=1.0, threshold=20.0):
        x = _floating(a, "softplus_cpu")
        self.saved = (a,)
        self.beta, self.threshold = beta, threshold
        xp = array_module(x)
        scaled = x * beta
        # log(1 + e^z) = max(z, 0) + log1p(e^-|z|): finite for every z
        smooth = (xp.maximum(scaled, 0) + xp.log1p(xp.exp(-xp.abs(scaled)))) / beta
        return xp.where(scaled > threshold, x, smooth).astype(x.dtype, copy=False)

    def backward(self, F, grad):
        x = F.value(self.saved[0])
        scaled = x * self.beta
        return (F.where(scaled > self.threshold, grad, grad * F.sigmoid(scaled)),)


def gelu(input, approximate: str = "none"):
    return Gelu.apply(input, approximate)


def leaky_relu(input, negative_slope: float = 0.01):
    return LeakyRelu.apply(input, negative_slope)


def silu(input):
    return Silu.apply(input)


def elu(input, alpha: float = 1.0):
    return Elu.apply(input, alpha)


def softplus(input, beta: float = 1.0, threshold: float = 20.0):
    return Softplus.apply(input, beta, threshold)
