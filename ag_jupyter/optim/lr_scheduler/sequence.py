"""Schedules made of schedules: one after another at milestones (``SequentialLR``), or
all at once, each scaling what the one before set (``ChainedScheduler``)."""
from __future__ import annotations

from bisect import bisect_right

from .base import LRScheduler, group_values
from .plateau import ReduceLROnPlateau


class SequentialLR(LRScheduler):
    """``schedulers[i]`` runs from ``milestones[i-1]`` on, each restarting from epoch 0 there
    (e.g. a ``LinearLR`` warm-up, then a ``CosineAnnealingLR``).

    >>> import ag_jupyter as ag
    >>> from ag_jupyter.optim.lr_scheduler import ConstantLR, ExponentialLR, SequentialLR
    >>> opt = ag.optim.SGD([ag.nn.Parameter(ag.zeros(1))], lr=1.0)
    >>> schedule = SequentialLR(opt, [ConstantLR(opt, factor=0.1, total_iters=2), ExponentialLR(opt, gamma=0.5)],
    ...                         milestones=[2])
    >>> rates = [schedule.get_last_lr()[0]]
    >>> for _ in range(4):
    ...     opt.step(); schedule.step(); rates.append(schedule.get_last_lr()[0])
    >>> rates
    [0.1, 0.1, 1.0, 0.5, 0.25]
    """

    def __init__(self, optimizer, schedulers: list, milestones: list, last_epoch: int = -1) -> None:
        _check_parts(self, optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more than the number "
                f"of milestone points, but got number of schedulers {len(schedulers)} and the number of "
                f"milestones to be equal to {len(milestones)}")
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        # each part stepped once when it was made; start again from the first part's step 0
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        self._undo_initial_steps(self)
        first = self._schedulers[bisect_right(self._milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def _undo_initial_steps(self, scheduler) -> None:
        if hasattr(scheduler, "_schedulers"):
            for part in scheduler._schedulers:
                self._undo_initial_steps(part)
        elif hasattr(scheduler, "last_epoch"):
            scheduler.last_epoch -= 1

    def step(self) -> None:
        self.last_epoch += 1
        index = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            scheduler._update_lr(0)  # a part taking over starts at its own epoch 0 (closed form)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()

    def state_dict(self) -> dict:
        return _with_parts_state(self)

    def load_state_dict(self, state_dict: dict) -> None:
        _load_with_parts(self, state_dict)


class ChainedScheduler(LRScheduler):
    """Step every scheduler in ``schedulers`` at each ``step()``, in order."""

    def __init__(self, schedulers: list, optimizer=None) -> None:
        if len(schedulers) < 1:
            raise ValueError(f"{type(self).__name__} expects at least one scheduler to be chained, but got no "
                             "scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        _check_parts(self, optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = group_values(schedulers[-1].optimizer, "lr")

    def step(self) -> None:
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = group_values(self._schedulers[-1].optimizer, "lr")

    def state_dict(self) -> dict:
        return _with_parts_state(self)

    def load_state_dict(self, state_dict: dict) -> None:
        _load_with_parts(self, state_dict)


def _check_parts(owner, optimizer, schedulers) -> None:
    name = type(owner).__name__
    if len(schedulers) < 1:
        raise ValueError(f"{name} expects at least one scheduler, but got no scheduler.")
    for index, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{name} at index {index} should have `optimizer` as its attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(f"{name} does not support `ReduceLROnPlateau` scheduler as it requires additional "
                             "kwargs to be specified when calling `step`, but got one at index "
                             f"{index} in the given schedulers sequence.")
        if optimizer != scheduler.optimizer:
            raise ValueError(f"{name} expects all schedulers to belong to the same optimizer, but got scheduler "
                             f"{type(scheduler).__name__} at index {index} has {scheduler.optimizer}, which is "
                             f"different from {type(optimizer).__name__}.")


def _with_parts_state(owner) -> dict:
    state = {key: value for key, value in owner.__dict__.items() if key not in ("optimizer", "_schedulers")}
    state["_schedulers"] = [part.state_dict() for part in owner._schedulers]
    return state


def _load_with_parts(owner, state_dict: dict) -> None:
    owner.__dict__.update({key: value for key, value in state_dict.items() if key != "_schedulers"})
    for part, saved in zip(owner._schedulers, state_dict["_schedulers"]):
        part.load_state_dict(saved)
