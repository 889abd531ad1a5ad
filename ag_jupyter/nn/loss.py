"""Loss layers: ``MSELoss``, ``CrossEntropyLoss``, ``NLLLoss``. Each calls its function
in ``nn.functional``; ``reduction`` is ``'mean'`` (default), ``'sum'`` or ``'none'``."""
from __future__ import annotations

from ..ops.losses import check_reduction
from ..tensor import Tensor
from . import functional as F
from .module import Module


class _Loss(Module):
    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = check_reduction(reduction)


class _WeightedLoss(_Loss):
    def __init__(self, weight: Tensor | None = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.register_buffer("weight", weight)  # moves with .to() and is saved, as in PyTorch


class MSELoss(_Loss):
    """Mean squared error between ``input`` and ``target`` of the same shape."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """Negative log-likelihood of class indices, for inputs that are log-probabilities."""

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100,
                 reduction: str = "mean") -> None:
        super().__init__(weight, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.nll_loss(input, target, self.weight, self.ignore_index, self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """``NLLLoss`` of ``log_softmax`` of raw scores (logits): the classifier's loss.

    >>> import ag_jupyter as ag
    >>> loss = ag.nn.CrossEntropyLoss()(ag.zeros(2, 4), ag.tensor([0, 3]))
    >>> round(loss.item(), 4)  # log(4): no preference among 4 classes
    1.3863
    """

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100,
                 reduction: str = "mean", label_smoothing: float = 0.0) -> None:
        super().__init__(weight, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.cross_entropy(input, target, self.weight, self.ignore_index, self.reduction,
                               self.label_smoothing)
