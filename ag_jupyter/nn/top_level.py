"""The layer functions PyTorch also offers at its top level (``torch.layer_norm``,
``torch.embedding``, ...), with the argument order those forms have there, which is not
always ``nn.functional``'s: ``torch.embedding`` takes the table first, ``torch.batch_norm``
the weight before the running statistics, and the reduction of
``torch.binary_cross_entropy_with_logits`` is a number (0 none, 1 mean, 2 sum)."""
from __future__ import annotations

from ..tensor import Tensor
from . import functional as F

_REDUCTIONS = ("none", "mean", "sum")


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5, cudnn_enable: bool = True) -> Tensor:
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, running_mean: Tensor | None,
               running_var: Tensor | None, training: bool, momentum: float, eps: float,
               cudnn_enabled: bool = True) -> Tensor:
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def embedding(weight: Tensor, indices: Tensor, padding_idx: int = -1, scale_grad_by_freq: bool = False,
              sparse: bool = False) -> Tensor:
    """``weight[indices]``; here ``padding_idx=-1`` means no padding row, as in PyTorch's form."""
    return F.embedding(indices, weight, None if padding_idx == -1 else padding_idx,
                       scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def dropout(input: Tensor, p: float, train: bool) -> Tensor:
    return F.dropout(input, p, train)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     pos_weight: Tensor | None = None, reduction: int = 1) -> Tensor:
    return F.binary_cross_entropy_with_logits(input, target, weight, _REDUCTIONS[reduction], pos_weight)
