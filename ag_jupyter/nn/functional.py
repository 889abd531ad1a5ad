"""``ag.nn.functional``: the layers and losses as plain functions (``import ... as F``).

Where PyTorch's graph shows one node, one primitive runs (``AddmmBackward0``,
``NllLossBackward0``, ``MseLossBackward0``); the rest is composed, as PyTorch
composes it: dropout is a ``MulBackward0`` by a random mask, and cross-entropy is
``nll_loss(log_softmax(x))``, which stays exact for logits around 1e4.

>>> import ag_jupyter as ag
>>> import ag_jupyter.nn.functional as F
>>> logits = ag.tensor([[1e4, 0.0, -1e4]], requires_grad=True)
>>> loss = F.cross_entropy(logits, ag.tensor([2]))
>>> loss.item(), loss.grad_fn.name()
(20000.0, 'NllLossBackward0')
"""
from __future__ import annotations

import warnings

import numpy

from .. import backend
from ..dtypes import scalar_type_name
from ..generator import random_array
from ..ops.activation import LogSoftmax, Softmax
from ..ops.elementwise import Mul, Relu, Sigmoid, Tanh
from ..ops.linalg import Addmm
from ..ops.losses import MseLoss, NllLoss, check_reduction
from ..tensor import TENSOR_TYPES, Tensor, _wrap
from ..tensor_inplace import inplace as _inplace


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``: ``AddmmBackward0`` on a batch of rows, as in PyTorch."""
    if input._data.dtype != weight._data.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{scalar_type_name(input._data)} and {scalar_type_name(weight._data)}")
    if bias is None:
        return input.matmul(weight.t())
    if input.ndim == 2:
        return Addmm.apply(bias, input, weight.t())
    if input.ndim == 0:
        raise RuntimeError("linear: the input must have at least 1 dimension, got a 0-d tensor")
    lead = tuple(input.shape[:-1])
    rows = input.reshape(-1, input.shape[-1])
    return Addmm.apply(bias, rows, weight.t()).reshape(lead + (weight.shape[0],))


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    return _inplace(input, Relu) if inplace else Relu.apply(input)


def tanh(input: Tensor) -> Tensor:
    return Tanh.apply(input)


def sigmoid(input: Tensor) -> Tensor:
    return Sigmoid.apply(input)


def _softmax_dim(name: str, ndim: int, dim: int | None) -> int:
    if dim is not None:
        return dim
    chosen = 0 if ndim in (0, 1, 3) else 1
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to "
                  f"include dim=X as an argument.", stacklevel=3)
    return chosen


def softmax(input: Tensor, dim: int | None = None, dtype=None) -> Tensor:
    if dtype is not None:
        input = input.to(dtype)
    return Softmax.apply(input, _softmax_dim("softmax", input.ndim, dim))


def log_softmax(input: Tensor, dim: int | None = None, dtype=None) -> Tensor:
    """``log(softmax(x))`` computed as ``x - logsumexp(x)``: finite for any finite logits."""
    if dtype is not None:
        input = input.to(dtype)
    return LogSoftmax.apply(input, _softmax_dim("log_softmax", input.ndim, dim))


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1/(1-p)``;
    the identity when not ``training``."""
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0:
        return input
    array = input._data
    keep = random_array("uniform", array.shape, numpy.float64, backend.CPU) < 1 - p
    mask = numpy.zeros(array.shape, array.dtype) if p == 1 else (keep / (1 - p)).astype(array.dtype)
    mask = _wrap(backend.move(mask, input.device), False, None)
    return _inplace(input, Mul, mask) if inplace else Mul.apply(input, mask)


# ----- losses --------------------------------------------------------------------------

def _require_tensor(name: str, value) -> None:
    if value.__class__ not in TENSOR_TYPES:
        raise TypeError(f"{name}(): argument 'target' must be a Tensor, not {type(value).__name__}")


def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Mean squared error: ``((input - target) ** 2).mean()`` as one node."""
    _require_tensor("mse_loss", target)
    if tuple(target.shape) != tuple(input.shape):
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size "
                      f"({input.shape}). This will likely lead to incorrect results due to "
                      f"broadcasting. Please ensure they have the same size.", stacklevel=2)
    return MseLoss.apply(input, target, check_reduction(reduction))


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, ignore_index: int = -100,
             reduction: str = "mean") -> Tensor:
    """``-input[i, target[i]]`` averaged (weighted by ``weight[target[i]]``), for
    ``input`` holding log-probabilities of shape ``(N, C)``, ``(C,)`` or ``(N, C, d...)``."""
    _require_tensor("nll_loss", target)
    return NllLoss.apply(input, target, weight, ignore_index, check_reduction(reduction))


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                  ignore_index: int = -100, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """``nll_loss(log_softmax(input, 1), target)``. ``target`` holds class indices, or
    class probabilities of ``input``'s shape (soft labels)."""
    _require_tensor("cross_entropy", target)
    check_reduction(reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.ndim == 1 else 1
    logp = log_softmax(input, class_dim)
    classes = input.shape[class_dim]
    if target._data.dtype.kind == "f":
        return _soft_cross_entropy(logp, target, weight, reduction, label_smoothing, class_dim, classes)
    loss = nll_loss(logp, target, weight, ignore_index, reduction)
    if label_smoothing == 0.0:
        return loss
    # PyTorch's rule: mix in the loss against the uniform distribution over classes.
    weighted = logp if weight is None else logp * _along(weight, class_dim, input.ndim)
    smooth = -weighted.sum(class_dim)
    xp = backend.array_module(target._data)
    counted = target._data != ignore_index
    smooth = smooth * _wrap(counted.astype(input._data.dtype), False, None)
    if reduction == "mean":
        if weight is None:
            total = counted.sum()
        else:
            total = (weight._data[xp.where(counted, target._data, 0)] * counted).sum()
        smooth = smooth.sum() / float(total)
    elif reduction == "sum":
        smooth = smooth.sum()
    return loss * (1 - label_smoothing) + smooth * (label_smoothing / classes)


def _along(weight: Tensor, class_dim: int, ndim: int) -> Tensor:
    """``weight`` of shape (C,) shaped to broadcast along the class dimension."""
    return weight.reshape(tuple(-1 if i == class_dim else 1 for i in range(ndim)))


def _soft_cross_entropy(logp, target, weight, reduction, label_smoothing, class_dim, classes):
    if tuple(target.shape) != tuple(logp.shape):
        raise RuntimeError(f"cross_entropy: a probability target must have the input's shape "
                           f"{list(logp.shape)}, got {list(target.shape)}")
    if label_smoothing > 0:
        target = target * (1 - label_smoothing) + label_smoothing / classes
    product = logp * target
    if weight is not None:
        product = product * _along(weight, class_dim, logp.ndim)
    losses = -product.sum(class_dim)
    if reduction == "none":
        return losses
    total = losses.sum()
    if reduction == "sum":
        return total
    return total / (logp.numel() // classes)
