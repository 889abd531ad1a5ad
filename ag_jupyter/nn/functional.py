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

import math
import warnings

import numpy

from .. import backend
from ..dtypes import scalar_type_name
from ..generator import random_array
from ..ops import elementwise_losses, nonlinear, normalization
from ..ops import embedding as embedding_ops
from ..ops.activation import LogSoftmax, Softmax
from ..ops.adaptive_pooling import adaptive_max_pool2d  # noqa: F401
from ..ops.convolution import conv1d, conv2d  # noqa: F401  (convolution and pooling: each one op in ops/)
from ..ops.elementwise import Mul, Relu, Sigmoid, Tanh, where
from ..ops.embedding import Embedding, check_indices
from ..ops.linalg import Addmm
from ..ops.losses import MseLoss, NllLoss, check_reduction
from ..ops.padding import pad  # noqa: F401
from ..ops.pooling import adaptive_avg_pool2d, avg_pool2d, max_pool1d, max_pool2d  # noqa: F401
from ..ops.windows import fold, unfold  # noqa: F401
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


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """``x * Φ(x)`` (``approximate='tanh'``: Φ through tanh, as GPT-2 computed it)."""
    return nonlinear.gelu(input, approximate)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    if inplace:
        return _inplace(input, nonlinear.LeakyReluInPlace, negative_slope)
    return nonlinear.leaky_relu(input, negative_slope)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * sigmoid(x)`` (also called swish)."""
    return _inplace(input, nonlinear.Silu) if inplace else nonlinear.silu(input)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return _inplace(input, nonlinear.EluInPlace, alpha) if inplace else nonlinear.elu(input, alpha)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    return leaky_relu(input, negative_slope, inplace=True)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return elu(input, alpha, inplace=True)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + e^(beta x)) / beta``, and ``x`` itself where ``beta x > threshold``."""
    return nonlinear.softplus(input, beta, threshold)


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
    return _masked(input, p, input._data.shape, inplace)


def _masked(input: Tensor, p: float, mask_shape: tuple, inplace: bool) -> Tensor:
    """``input`` times a mask of ``mask_shape`` (broadcast over the rest): 0 with
    probability ``p``, else ``1/(1-p)``."""
    array = input._data
    keep = random_array("bernoulli", mask_shape, numpy.bool_, backend.CPU, 1 - p)
    mask = numpy.zeros(mask_shape, array.dtype) if p == 1 else (keep / (1 - p)).astype(array.dtype)
    mask = _wrap(backend.move(mask, input.device), False, None)
    return _inplace(input, Mul, mask) if inplace else Mul.apply(input, mask)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels: each ``input[n, c]`` (a feature map) with probability ``p``,
    the rest scaled by ``1/(1-p)``; the identity when not ``training``."""
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.ndim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                      "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel "
                      "dim. This behavior will change in a future release to interpret the input as one without "
                      "a batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout "
                      "behavior, please switch to using dropout1d instead.", stacklevel=2)
    elif input.ndim != 4:
        warnings.warn(f"dropout2d: Received a {input.ndim}-D input to dropout2d, which is deprecated and will "
                      f"result in an error in a future release. To retain the behavior and silence this warning, "
                      f"please use dropout instead. Note that dropout2d exists to provide channel-wise dropout on "
                      f"inputs with 2 spatial dimensions, a channel dimension, and an optional batch dimension "
                      f"(i.e. 3D or 4D inputs).", stacklevel=2)
    if not training or p == 0:
        return input
    if input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    return _masked(input, p, tuple(input.shape[:2]) + (1,) * (input.ndim - 2), inplace)


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Standardize each channel (dim 1) by the batch's statistics when ``training`` (and
    blend them into ``running_mean``/``running_var``, the variance unbiased), else by the
    running ones; then ``* weight + bias`` per channel."""
    if training:
        per_channel = input.shape[0] * math.prod(input.shape[2:]) if input.ndim >= 2 else 1
        if per_channel == 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                             f"{input.shape}")
    elif running_mean is None or running_var is None:
        raise RuntimeError("batch_norm: running_mean and running_var must be given when not training "
                           "(or pass training=True to use the batch's statistics)")
    return normalization.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5) -> Tensor:
    """Standardize each sample over its trailing ``normalized_shape``; then ``* weight + bias``."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    return normalization.layer_norm(input, shape, weight, bias, eps)


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None, max_norm: float | None = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """``weight[input]``: the row of the table for each index. ``padding_idx``'s row gets no
    gradient; ``max_norm`` first shrinks (in place) each looked-up row longer than it."""
    if input.__class__ not in TENSOR_TYPES:
        raise TypeError(f"embedding(): argument 'indices' must be Tensor, not {type(input).__name__}")
    if sparse:
        raise RuntimeError("embedding: ag_jupyter has no sparse gradients; use sparse=False "
                           "(the gradient is the same, stored dense)")
    rows = weight.shape[0]
    if padding_idx is not None:
        if not -rows <= padding_idx < rows:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx %= rows
    if max_norm is not None:
        check_indices(input._data, rows)
        _renorm_rows(weight, input._data, max_norm, norm_type)
    return Embedding.apply(weight, input, padding_idx, scale_grad_by_freq)


def _renorm_rows(weight: Tensor, indices, max_norm: float, norm_type: float) -> None:
    """PyTorch's ``embedding_renorm_``: each used row whose norm exceeds ``max_norm`` is
    scaled to ``max_norm`` (a change to the table itself, outside any graph)."""
    table = weight._data
    xp = backend.array_module(table)
    used = xp.unique(indices.reshape(-1))
    norms = (xp.abs(table[used].astype(numpy.float64)) ** norm_type).sum(axis=1) ** (1.0 / norm_type)
    over = norms > max_norm
    table[used[over]] *= (max_norm / (norms[over] + 1e-7)).astype(table.dtype)[:, None]


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Class indices (int64) as rows of 0s with a 1 at the index: shape ``(*, num_classes)``,
    int64; ``num_classes=-1`` takes one more than the largest index."""
    return _wrap(embedding_ops.one_hot(tensor._data, num_classes), False, None)


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


def _warn_sizes(input: Tensor, target: Tensor) -> None:
    if tuple(target.shape) != tuple(input.shape):
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size "
                      f"({input.shape}). This will likely lead to incorrect results due to "
                      f"broadcasting. Please ensure they have the same size.", stacklevel=3)


def l1_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Mean absolute error, composed as PyTorch draws it: ``MeanBackward0`` of ``AbsBackward0``."""
    _require_tensor("l1_loss", target)
    _warn_sizes(input, target)
    losses = (input - target).abs()
    reduction = check_reduction(reduction)
    return losses if reduction == "none" else losses.mean() if reduction == "mean" else losses.sum()


def smooth_l1_loss(input: Tensor, target: Tensor, reduction: str = "mean", beta: float = 1.0) -> Tensor:
    """Squared error below ``beta`` (halved, over ``beta``), absolute error above it."""
    _require_tensor("smooth_l1_loss", target)
    _warn_sizes(input, target)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0:  # no quadratic part left: PyTorch computes (and draws) l1_loss
        return l1_loss(input, target, reduction)
    return elementwise_losses.SmoothL1Loss.apply(input, target, check_reduction(reduction), beta)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0) -> Tensor:
    """Half the squared error below ``delta``, ``delta`` times the absolute error (less
    ``delta / 2``) above it: ``smooth_l1_loss`` times ``delta``."""
    _require_tensor("huber_loss", target)
    _warn_sizes(input, target)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    return elementwise_losses.HuberLoss.apply(input, target, check_reduction(reduction), delta)


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         reduction: str = "mean") -> Tensor:
    """``-w [t log(x) + (1 - t) log(1 - x)]`` for probabilities ``x``; each log is kept
    above -100, as PyTorch keeps it, so a certain wrong answer costs 100."""
    _require_tensor("binary_cross_entropy", target)
    return elementwise_losses.binary_cross_entropy(input, target, weight, check_reduction(reduction))


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     reduction: str = "mean", pos_weight: Tensor | None = None) -> Tensor:
    """``binary_cross_entropy(sigmoid(x), t)`` computed from the logits ``x`` in one stable
    step (no log of 0 for any x); ``pos_weight`` weighs the positive term per class."""
    _require_tensor("binary_cross_entropy_with_logits", target)
    return elementwise_losses.binary_cross_entropy_with_logits(input, target, weight,
                                                               check_reduction(reduction), pos_weight)


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
    # chosen, not multiplied by 0/1: with every target ignored the mean divides by 0, and
    # PyTorch's masked_fill still gives those rows a gradient of 0 (a product would give NaN)
    smooth = where(_wrap(counted, False, None), smooth, 0.0)
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
