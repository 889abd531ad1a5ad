"""Loss layers: ``MSELoss``, ``L1Loss``, ``SmoothL1Loss``, ``HuberLoss``, ``BCELoss``,
``BCEWithLogitsLoss``, ``CrossEntropyLoss``, ``NLLLoss``. Each calls its function
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


class L1Loss(_Loss):
    """Mean absolute error."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.l1_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """Squared error for differences below ``beta``, absolute error above."""

    def __init__(self, reduction: str = "mean", beta: float = 1.0) -> None:
        super().__init__(reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Half the squared error for differences below ``delta``, linear above."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class BCELoss(_WeightedLoss):
    """Binary cross-entropy of probabilities (after a ``Sigmoid``) against 0/1 targets.

    >>> import ag_jupyter as ag
    >>> ag.nn.BCELoss()(ag.tensor([0.5, 1.0]), ag.tensor([1.0, 0.0]))  # log 2 and the clamp at 100
    tensor(50.3466)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """``Sigmoid`` and ``BCELoss`` in one stable step, on raw scores (logits)."""

    def __init__(self, weight: Tensor | None = None, reduction: str = "mean",
                 pos_weight: Tensor | None = None) -> None:
        super().__init__(reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy_with_logits(input, target, self.weight, reduction=self.reduction,
                                                  pos_weight=self.pos_weight)
