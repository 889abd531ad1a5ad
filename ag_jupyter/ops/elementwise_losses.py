"""Losses PyTorch computes element by element and then reduces, each one node as in its
graphs: ``BinaryCrossEntropyBackward0``, ``BinaryCrossEntropyWithLogitsBackward0``,
``SmoothL1LossBackward0``, ``HuberLossBackward0``.

Each op works on ``z`` (the per-element loss) and its local slopes; ``ElementwiseLoss``
reduces (``mean``/``sum``/``none``), scales the incoming gradient back to one per
element, and undoes broadcasting. ``l1_loss`` is composed (``MeanBackward0`` of
``AbsBackward0``, as PyTorch draws it) in ``nn.functional``.
"""
from __future__ import annotations

import numpy

from ..autograd.algebra import sum_to
from ..autograd.function import Op
from ..backend import array_module, require_same_device
from ..core import TENSOR_TYPES
from ..dtypes import scalar_type_name
from ..promotion import result_type
from .losses import _reduce

_LOG_FLOOR = -100.0  # PyTorch clamps BCE's logarithms here, so a wrong certainty costs 100, not inf
_EPSILON = 1e-12  # and keeps BCE's gradient's denominator x(1 - x) above this


def _kernel_error(kernel: str, array) -> NotImplementedError:
    return NotImplementedError(f'"{kernel}" not implemented for \'{scalar_type_name(array)}\'')


def _constant(value, name: str, function: str):
    """A weight's array: a constant, as PyTorch's binary cross-entropies require (its words
    when one requires grad)."""
    if value is None:
        return None
    if value._requires_grad:
        raise RuntimeError(f"The function '{function}' is not differentiable with respect to argument "
                           f"'{name}'. This input cannot have requires_grad True.")
    return value._data


class ElementwiseLoss(Op):
    """The shared reduction and backward. A subclass defines ``losses`` (the per-element
    loss of its ``arity`` inputs, cast to one dtype, then its settings) and ``slopes`` (each
    input's derivative of it, in the algebra ``F``; None for an input left out)."""

    __slots__ = ("reduction", "shapes", "casts", "count", "settings")
    arity = 2
    formula_args = ("a", "t")  # the input, the target

    def forward(self, *args):
        inputs, (reduction, *settings) = args[: self.arity], args[self.arity:]
        arrays = [None if value is None else value._data for value in inputs]
        for other in arrays[1:]:
            if other is not None:
                require_same_device(arrays[0], other)
        common = self.common_dtype(arrays[0], arrays[1])
        values = self.losses(*(None if a is None else a.astype(common, copy=False) for a in arrays), *settings)
        self.saved, self.settings = inputs, tuple(settings)
        self.reduction, self.count = reduction, values.size
        self.shapes = tuple(None if a is None else a.shape for a in arrays)
        # each gradient goes back in its input's dtype, as in PyTorch
        self.casts = tuple(None if a is None or a.dtype == common else a.dtype for a in arrays)
        return _reduce(values, reduction)

    def backward(self, F, grad):
        if self.reduction == "mean":  # an empty input: a NaN loss and an empty gradient
            grad = grad * (1.0 / max(self.count, 1))
        wants = tuple(link is not None for link in self._next)
        settings = (F.constant(s) if hasattr(s, "shape") else s for s in self.settings)  # weights
        slopes = self.slopes(F, *(None if t is None else F.value(t) for t in self.saved), *settings, wants=wants)
        grads = []
        for slope, want, shape, cast in zip(slopes, wants, self.shapes, self.casts):
            if slope is None or not want:
                grads.append(None)
                continue
            local = sum_to(F, slope * grad, shape)
            grads.append(local if cast is None else F.cast(local, cast))
        return tuple(grads)

    @staticmethod
    def common_dtype(x, t):
        return result_type(x, t)


class BinaryCrossEntropy(ElementwiseLoss):
    __slots__ = ()
    node_name = "BinaryCrossEntropyBackward0"
    symbol = "BCE"
    formula = (r"u = -w\,[t \log a + (1 - t)\log(1 - a)]:\quad "
               r"\frac{\partial u}{\partial a} = w\,\frac{a - t}{a(1 - a)}")

    @staticmethod
    def common_dtype(x, t):
        if x.dtype.kind != "f":
            raise _kernel_error("binary_cross_entropy", x)
        if t.dtype != x.dtype:
            raise RuntimeError(f"Found dtype {scalar_type_name(t)} but expected {scalar_type_name(x)}")
        return x.dtype

    @staticmethod
    def losses(x, t, weight):
        xp = array_module(x)
        if x.size and not bool(((x >= 0) & (x <= 1)).all()):
            raise RuntimeError("all elements of input should be between 0 and 1")
        log_x = xp.maximum(xp.log(x), _LOG_FLOOR)
        log_rest = xp.maximum(xp.log1p(-x), _LOG_FLOOR)
        values = -(t * log_x + (1 - t) * log_rest)
        return values if weight is None else (values * weight).astype(x.dtype, copy=False)

    @staticmethod
    def slopes(F, x, t, weight, wants):
        spread = x * (1 - x)
        slope_input = (x - t) / F.where(spread > _EPSILON, spread, _EPSILON)
        slope_target = None
        if wants[1]:
            log_x, log_rest = F.log(x), F.log(1 - x)
            slope_target = F.where(log_rest > _LOG_FLOOR, log_rest, _LOG_FLOOR) - \
                F.where(log_x > _LOG_FLOOR, log_x, _LOG_FLOOR)
        if weight is not None:
            slope_input = slope_input * weight
            slope_target = None if slope_target is None else slope_target * weight
        return slope_input, slope_target


def _softplus_of_negative(F, x):
    """``-log σ(x) = log(1 + e^-x)``, as ``max(-x, 0) + log(1 + e^-|x|)``: finite for any x.
    ``|x|`` is chosen, not ``x * sign(x)``: its slope at 0 must be 1 (the two kinks cancel
    there), not sign(0) = 0, or the second derivative at x = 0 comes out wrong."""
    magnitude = F.where(x < 0, -x, x)
    return -x * (x < 0) + F.log(1 + F.exp(-magnitude))


class BinaryCrossEntropyWithLogits(ElementwiseLoss):
    """``weight`` and ``pos_weight`` are constants (PyTorch refuses ones that require grad)."""

    __slots__ = ()
    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    symbol = "BCE logits"
    formula = (r"u = -w\,[p\,t \log \sigma(a) + (1 - t)\log(1 - \sigma(a))]:\quad "
               r"\frac{\partial u}{\partial a} = w\,[(1 + (p - 1)t)\,\sigma(a) - p\,t]")

    @staticmethod
    def common_dtype(x, t):
        if x.dtype.kind != "f":
            raise _kernel_error("log_sigmoid_cpu", x)
        if t.dtype.kind != "f":
            common = numpy.empty(0, result_type(x, t))
            raise RuntimeError(f"result type {scalar_type_name(common)} can't be cast to "
                               f"the desired output type {scalar_type_name(t)}")
        return t.dtype  # PyTorch's result has the target's dtype, whichever float is wider

    @staticmethod
    def losses(x, t, weight, pos_weight):
        xp = array_module(x)
        # -log σ(x) without overflow: max(-x, 0) + log1p(e^-|x|)
        softplus_neg = xp.maximum(-x, 0) + xp.log1p(xp.exp(-xp.abs(x)))
        log_weight = 1 if pos_weight is None else 1 + (pos_weight - 1) * t
        values = (1 - t) * x + log_weight * softplus_neg
        if weight is not None:
            values = values * weight
        return values.astype(x.dtype, copy=False)

    @staticmethod
    def slopes(F, x, t, weight, pos_weight, wants):
        softplus_neg = _softplus_of_negative(F, x) if wants[1] and pos_weight is not None else None
        if pos_weight is None:
            slope_input = F.sigmoid(x) - t
            slope_target = -x if wants[1] else None
        else:
            slope_input = (1 + (pos_weight - 1) * t) * F.sigmoid(x) - pos_weight * t
            slope_target = (pos_weight - 1) * softplus_neg - x if wants[1] else None
        if weight is not None:
            slope_input = slope_input * weight
            slope_target = None if slope_target is None else slope_target * weight
        return slope_input, slope_target


class SmoothL1Loss(ElementwiseLoss):
    __slots__ = ()
    node_name = "SmoothL1LossBackward0"
    symbol = "smooth L1"
    formula = (r"u = \tfrac{(a - t)^2}{2\beta} \text{ if } |a - t| < \beta \text{ else } |a - t| - \tfrac\beta2:\quad "
               r"\frac{\partial u}{\partial a} = \operatorname{clamp}(\tfrac{a - t}{\beta}, -1, 1)")

    @staticmethod
    def common_dtype(x, t):
        common = result_type(x, t)
        if common.kind != "f":
            raise _kernel_error("smooth_l1_cpu", numpy.empty(0, common))
        return common

    @staticmethod
    def losses(x, t, beta):
        xp = array_module(x)
        z = xp.abs(x - t)
        return xp.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta).astype(z.dtype, copy=False)

    @staticmethod
    def slopes(F, x, t, beta, wants):
        z = x - t
        inside = (z * F.sign(z)) < beta
        slope = F.where(inside, z * (1.0 / beta), F.sign(z))
        return slope, (-slope if wants[1] else None)


class HuberLoss(ElementwiseLoss):
    __slots__ = ()
    node_name = "HuberLossBackward0"
    symbol = "Huber"
    formula = (r"u = \tfrac12(a - t)^2 \text{ if } |a - t| < \delta "
               r"\text{ else } \delta(|a - t| - \tfrac\delta2):\quad "
               r"\frac{\partial u}{\partial a} = \operatorname{clamp}(a - t, -\delta, \delta)")

    @staticmethod
    def common_dtype(x, t):
        if x.dtype.kind != "f":  # PyTorch computes in the input's dtype, whatever the target's
            raise _kernel_error("huber_cpu", x)
        return x.dtype

    @staticmethod
    def losses(x, t, delta):
        xp = array_module(x)
        z = xp.abs(x - t)
        return xp.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta)).astype(x.dtype, copy=False)

    @staticmethod
    def slopes(F, x, t, delta, wants):
        z = x - t
        inside = (z * F.sign(z)) <= delta
        slope = F.where(inside, z, F.sign(z) * delta)
        return slope, (-slope if wants[1] else None)


def binary_cross_entropy(input, target, weight, reduction):
    if target.__class__ in TENSOR_TYPES and tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Using a target size ({_size(target)}) that is different to the input size "
                         f"({_size(input)}) is deprecated. Please ensure they have the same size.")
    return BinaryCrossEntropy.apply(input, target, reduction, _constant(weight, "weight", "binary_cross_entropy"))


def binary_cross_entropy_with_logits(input, target, weight, reduction, pos_weight):
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({_size(target)}) must be the same as input size ({_size(input)})")
    function = "binary_cross_entropy_with_logits"
    return BinaryCrossEntropyWithLogits.apply(input, target, reduction, _constant(weight, "weight", function),
                                              _constant(pos_weight, "pos_weight", function))


def _size(tensor) -> str:
    return f"ag.Size({list(tensor.shape)})"

