"""``LRScheduler``: what every learning-rate schedule shares, as PyTorch's.

A scheduler sets each param group's ``lr`` when it is made (step 0) and at every
``step()``. Most schedules are written twice, as PyTorch writes them: a chainable form
that scales the group's current ``lr`` (so two schedulers on one optimizer compose),
used by ``step()``, and a closed form in the epoch, used by the deprecated
``step(epoch)``. Each is PyTorch's float arithmetic in PyTorch's order, so the learning
rates are PyTorch's to the last bit, not merely close.
"""
from __future__ import annotations

import functools
import warnings
import weakref

from ..optimizer import Optimizer

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)


def group_values(optimizer: Optimizer, key: str) -> list:
    """``group[key]`` of each of the optimizer's param groups."""
    return [group[key] for group in optimizer.param_groups]


def per_group(name: str, optimizer: Optimizer, value) -> list:
    """``value`` for each param group: a list or tuple as given (one per group), else repeated."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(optimizer.param_groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. {name} has "
                             f"{len(value)} values, param_groups has {len(optimizer.param_groups)}.")
        return list(value)
    return [value] * len(optimizer.param_groups)


def check_optimizer(optimizer) -> None:
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")


class LRScheduler:
    """Base class: ``base_lrs`` (each group's ``initial_lr``), ``last_epoch`` (steps taken,
    0 once made), ``step()``, ``get_last_lr()``, ``state_dict()`` / ``load_state_dict()``.
    A subclass defines ``get_lr()`` (the chainable form) and may define
    ``_get_closed_form_lr()``."""

    _get_lr_called_within_step = False
    _is_initial = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        check_optimizer(optimizer)
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming scheduler "
                        "with last_epoch >= 0.\nThis typically happens when:\n1. You're trying to resume "
                        "training from a checkpoint but haven't properly loaded the optimizer state\n"
                        "2. You're using last_epoch >= 0 for a fresh training run (not recommended)")
        self.base_lrs = group_values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _note_optimizer_steps(optimizer)
        self._initial_step()

    def _initial_step(self) -> None:
        """Step 0: count from nothing and set the first learning rates."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self) -> dict:
        """Everything the scheduler holds except its optimizer."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list:
        """The learning rates the last ``step()`` set, one per param group."""
        return self._last_lr

    def get_lr(self) -> list:  # pragma: no cover - every schedule defines it
        raise NotImplementedError

    def step(self, epoch: int | None = None) -> None:
        """Move to the next epoch (or, deprecated, to ``epoch`` by the closed form).
        Call it after ``optimizer.step()``; PyTorch warns at the first step otherwise."""
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(
                    "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
                    "initialization. Please, make sure to call `optimizer.step()` before "
                    "`lr_scheduler.step()`. See more details at "
                    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                    UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(
                    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
                    "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
                    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
                    "will result in PyTorch skipping the first value of the learning rate schedule. "
                    "See more details at "
                    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                    UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed_form = getattr(self, "_get_closed_form_lr", None)
                values = closed_form() if closed_form is not None else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            group["lr"] = lr
        self._last_lr = group_values(self.optimizer, "lr")

    def _warn_if_called_from_outside(self) -> None:
        """``get_lr()`` computes the next rates; a user after the current ones wants ``get_last_lr()``."""
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                          UserWarning, stacklevel=3)


class _LRScheduler(LRScheduler):
    """PyTorch's old name for the base class, which older code still subclasses."""


def _note_optimizer_steps(optimizer: Optimizer) -> None:
    """Wrap this optimizer's ``step`` (once) so that it records having run: the scheduler's
    first ``step()`` warns, as PyTorch's, when it comes before the optimizer's. The wrapper
    holds the optimizer weakly, so the optimizer is not kept alive by its own attribute."""
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    optimizer_ref = weakref.ref(optimizer)
    unbound = optimizer.step.__func__

    @functools.wraps(unbound)
    def step_and_note(*args, **kwargs):
        owner = optimizer_ref()
        owner._opt_called = True
        return unbound.__get__(owner, owner.__class__)(*args, **kwargs)

    step_and_note._wrapped_by_lr_sched = True
    optimizer.step = step_and_note
