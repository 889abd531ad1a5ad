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


def _constant(value, name: str):
    """A weight's array: weights are constants here (PyTorch's own losses give them no
    gradient either, in the common case); one that requires grad is refused, not ignored."""
    if value is None:
        return None
    if value._requires_grad:
        raise RuntimeError(f"the derivative for '{name}' is not implemented (pass {name}.detach())")
    return value._data


class ElementwiseLoss(Op):
    """The shared reduction and backward; a subclass defines ``losses`` and ``slopes``."""

    __slots__ = ("reduction", "shapes", "dtypes", "count", "settings")
    arity = 2
    formula_args = ("a", "t")  # the input, the target

    def forward(self, input, target, reduction, *settings):
        x, t = input._data, target._data
        require_same_device(x, t)
        self.saved = (input, target)
        self.settings = settings
        common = self.common_dtype(x, t)
        values = self.losses(x.astype(common, copy=False), t.astype(common, copy=False), *settings)
        self.reduction, self.count = reduction, values.size
        self.shapes = (x.shape, t.shape) if x.shape != t.shape else None
        self.dtypes = (x.dtype, t.dtype) if x.dtype != t.dtype else None
        return _reduce(values, reduction)

    def backward(self, F, grad):
        input, target = self.saved
        if self.reduction == "mean":  # an empty input: a NaN loss and an empty gradient
            grad = grad * (1.0 / max(self.count, 1))
        follow_input, follow_target = self._next
        settings = (F.constant(s) if hasattr(s, "shape") else s for s in self.settings)  # weights
        slope_input, slope_target = self.slopes(F, F.value(input), F.value(target), *settings,
                                                want_target=follow_target is not None)
        grads = [None if slope is None or follow is None else slope * grad
                 for slope, follow in ((slope_input, follow_input), (slope_target, follow_target))]
        for k in range(2):
            if grads[k] is not None and self.shapes is not None:
                grads[k] = sum_to(F, grads[k], self.shapes[k])
            if grads[k] is not None and self.dtypes is not None:  # each in its input's dtype
                grads[k] = F.cast(grads[k], self.dtypes[k])
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
    def slopes(F, x, t, weight, want_target):
        spread = x * (1 - x)
        slope_input = (x - t) / F.where(spread > _EPSILON, spread, _EPSILON)
        slope_target = None
        if want_target:
            log_x, log_rest = F.log(x), F.log(1 - x)
            slope_target = F.where(log_rest > _LOG_FLOOR, log_rest, _LOG_FLOOR) - \
                F.where(log_x > _LOG_FLOOR, log_x, _LOG_FLOOR)
        if weight is not None:
            slope_input = slope_input * weight
            slope_target = None if slope_target is None else slope_target * weight
        return slope_input, slope_target


def _softplus_of_negative(F, x):
    """``-log σ(x) = log(1 + e^-x)``, as ``max(-x, 0) + log(1 + e^-|x|)``: finite for any x."""
    magnitude = x * F.sign(x)
    return -x * (x < 0) + F.log(1 + F.exp(-magnitude))


class BinaryCrossEntropyWithLogits(ElementwiseLoss):
    __slots__ = ()
    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    symbol = "BCE logits"
    formula = (r"u = -w\,[p\,t \log \sigma(a) + (1 - t)\log(1 - \sigma(a))]:\quad "
               r"\frac{\partial u}{\partial a} = w\,[(1 + (p - 1)t)\,\sigma(a) - p\,t]")

    @staticmethod
    def common_dtype(x, t):
        if x.dtype.kind != "f":
            raise _kernel_error("log_sigmoid_cpu", x)
        common = result_type(x, t)
        if t.dtype.kind != "f":
            raise RuntimeError(f"result type {scalar_type_name(numpy.empty(0, common))} can't be cast to "
                               f"the desired output type {scalar_type_name(t)}")
        return common

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
    def slopes(F, x, t, weight, pos_weight, want_target):
        if pos_weight is None:
            slope_input = F.sigmoid(x) - t
            slope_target = -x if want_target else None
        else:
            slope_input = (1 + (pos_weight - 1) * t) * F.sigmoid(x) - pos_weight * t
            slope_target = (pos_weight - 1) * _softplus_of_negative(F, x) - x if want_target else None
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
    def slopes(F, x, t, beta, want_target):
        z = x - t
        inside = (z * F.sign(z)) < beta
        slope = F.where(inside, z * (1.0 / beta), F.sign(z))
        return slope, (-slope if want_target else None)


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
    def slopes(F, x, t, delta, want_target):
        z = x - t
        inside = (z * F.sign(z)) <= delta
        slope = F.where(inside, z, F.sign(z) * delta)
        return slope, (-slope if want_target else None)


def binary_cross_entropy(input, target, weight, reduction):
    if target.__class__ in TENSOR_TYPES and tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Using a target size ({_size(target)}) that is different to the input size "
                         f"({_size(input)}) is deprecated. Please ensure they have the same size.")
    return BinaryCrossEntropy.apply(input, target, reduction, _constant(weight, "weight"))


def binary_cross_entropy_with_logits(input, target, weight, reduction, pos_weight):
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({_size(target)}) must be the same as input size ({_size(input)})")
    return BinaryCrossEntropyWithLogits.apply(input, target, reduction, _constant(weight, "weight"),
                                              _constant(pos_weight, "pos_weight"))


def _size(tensor) -> str:
    return f"ag.Size({list(tensor.shape)})"

