"""``ag.optim.lr_scheduler``: PyTorch's learning-rate schedules, number for number.

Call ``scheduler.step()`` after ``optimizer.step()`` (once per epoch, or once per batch
for ``OneCycleLR``); ``ReduceLROnPlateau.step(metric)`` takes the number it watches.

>>> import ag_jupyter as ag
>>> opt = ag.optim.SGD([ag.nn.Parameter(ag.zeros(1))], lr=0.1)
>>> schedule = ag.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
>>> opt.step(); schedule.step()
>>> schedule.get_last_lr(), schedule.last_epoch
([0.05], 1)
"""
from .base import LRScheduler, _LRScheduler  # noqa: F401 - PyTorch keeps the old name importable
from .cycles import CosineAnnealingWarmRestarts, CyclicLR
from .decays import (
    ConstantLR,
    CosineAnnealingLR,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    MultiplicativeLR,
    MultiStepLR,
    PolynomialLR,
    StepLR,
)
from .one_cycle import OneCycleLR
from .plateau import ReduceLROnPlateau
from .sequence import ChainedScheduler, SequentialLR

__all__ = [
    "LRScheduler", "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR",
    "ExponentialLR", "PolynomialLR", "CosineAnnealingLR", "SequentialLR", "ChainedScheduler",
    "OneCycleLR", "ReduceLROnPlateau", "CyclicLR", "CosineAnnealingWarmRestarts",
]
