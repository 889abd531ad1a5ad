"""``OneCycleLR``: warm up to a peak learning rate, then anneal far below the start
(Smith's 1cycle policy), cycling momentum (or Adam's beta1) the other way."""
from __future__ import annotations

import math

from .base import LRScheduler, check_optimizer, per_group


class OneCycleLR(LRScheduler):
    """Over ``total_steps`` (or ``epochs * steps_per_epoch``) steps, one per batch:
    ``max_lr / div_factor`` up to ``max_lr`` in the first ``pct_start`` of the steps, then
    down to ``initial_lr / final_div_factor``, by a cosine (``anneal_strategy='cos'``) or a
    line (``'linear'``). ``three_phase`` comes back down to the start symmetrically before
    the final descent. With ``cycle_momentum``, momentum goes from ``max_momentum`` to
    ``base_momentum`` and back, in step with the learning rate.

    >>> import ag_jupyter as ag
    >>> opt = ag.optim.SGD([ag.nn.Parameter(ag.zeros(1))], lr=0.1, momentum=0.9)
    >>> schedule = ag.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10, anneal_strategy="linear")
    >>> rates = [schedule.get_last_lr()[0]]
    >>> for _ in range(9):
    ...     opt.step(); schedule.step(); rates.append(schedule.get_last_lr()[0])
    >>> [round(rate, 4) for rate in rates[:4]], rates.index(max(rates)), opt.param_groups[0]["momentum"]
    ([0.04, 0.52, 1.0, 0.8571], 2, 0.95)
    """

    def __init__(self, optimizer, max_lr, total_steps: int | None = None, epochs: int | None = None,
                 steps_per_epoch: int | None = None, pct_start: float = 0.3, anneal_strategy: str = "cos",
                 cycle_momentum: bool = True, base_momentum=0.85, max_momentum=0.95, div_factor: float = 25.0,
                 final_div_factor: float = 1e4, three_phase: bool = False, last_epoch: int = -1) -> None:
        check_optimizer(optimizer)
        self.optimizer = optimizer
        self.total_steps = _total_steps(total_steps, epochs, steps_per_epoch)
        self._schedule_phases = _phases(pct_start * self.total_steps, self.total_steps, three_phase)
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        max_lrs = per_group("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for group, peak in zip(optimizer.param_groups, max_lrs):
                group["initial_lr"] = peak / div_factor
                group["max_lr"] = peak
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
            self.use_beta1 = "betas" in optimizer.defaults
            max_momentums = per_group("max_momentum", optimizer, max_momentum)
            base_momentums = per_group("base_momentum", optimizer, base_momentum)
            if last_epoch == -1:
                for highest, lowest, group in zip(max_momentums, base_momentums, optimizer.param_groups):
                    self._set_momentum(group, highest)
                    group["max_momentum"] = highest
                    group["base_momentum"] = lowest
        super().__init__(optimizer, last_epoch)

    def _set_momentum(self, group: dict, value: float) -> None:
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def _anneal(self, start: float, end: float, pct: float) -> float:
        if self._anneal_func_type == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self) -> list:
        self._warn_if_called_from_outside()
        step_num = self.last_epoch
        if step_num > self.total_steps:
            raise ValueError(f"Tried to step {step_num} times. The specified number of total steps is "
                             f"{self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                if step_num <= end_step or i == len(self._schedule_phases) - 1:
                    pct = (step_num - start_step) / (end_step - start_step)
                    lrs.append(self._anneal(group[phase["start_lr"]], group[phase["end_lr"]], pct))
                    if self.cycle_momentum:
                        self._set_momentum(group, self._anneal(group[phase["start_momentum"]],
                                                               group[phase["end_momentum"]], pct))
                    break
                start_step = phase["end_step"]
        return lrs


def _total_steps(total_steps, epochs, steps_per_epoch) -> int:
    if total_steps is not None:
        if total_steps <= 0 or not isinstance(total_steps, int):
            raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
        return total_steps
    if epochs is not None and steps_per_epoch is not None:
        if not isinstance(epochs, int) or epochs <= 0:
            raise ValueError(f"Expected positive integer epochs, but got {epochs}")
        if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
            raise ValueError(f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}")
        return epochs * steps_per_epoch
    raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")


def _phases(warmup_steps: float, total_steps: int, three_phase: bool) -> list[dict]:
    """Each phase: the step it ends at and the group keys its rates go from and to."""
    def phase(end_step, start_lr, end_lr, start_momentum, end_momentum) -> dict:
        return dict(end_step=end_step, start_lr=start_lr, end_lr=end_lr,
                    start_momentum=start_momentum, end_momentum=end_momentum)

    warm_up = phase(float(warmup_steps) - 1, "initial_lr", "max_lr", "max_momentum", "base_momentum")
    if three_phase:
        return [warm_up,
                phase(float(2 * warmup_steps) - 2, "max_lr", "initial_lr", "base_momentum", "max_momentum"),
                phase(total_steps - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum")]
    return [warm_up, phase(total_steps - 1, "max_lr", "min_lr", "base_momentum", "max_momentum")]
