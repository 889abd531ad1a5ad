"""Schedules that repeat: a triangle between two rates (``CyclicLR``, Smith's cyclical
learning rates) and cosine annealing with warm restarts (``CosineAnnealingWarmRestarts``,
SGDR), each as PyTorch computes it."""
from __future__ import annotations

import math
import types
from functools import partial

from .base import LRScheduler, check_optimizer, group_values, per_group


class CyclicLR(LRScheduler):
    """Between ``base_lr`` and ``max_lr`` and back, ``step_size_up`` steps up and
    ``step_size_down`` (default the same) down, one ``step()`` per batch. ``mode``
    scales each cycle's height: ``'triangular'`` (1), ``'triangular2'`` (halved every cycle),
    ``'exp_range'`` (``gamma ** iterations``), or a ``scale_fn`` of the cycle (or the
    iteration, with ``scale_mode='iterations'``). Momentum goes the other way.

    >>> import ag_jupyter as ag
    >>> opt = ag.optim.SGD([ag.nn.Parameter(ag.zeros(1))], lr=0.1, momentum=0.9)
    >>> schedule = ag.optim.lr_scheduler.CyclicLR(opt, base_lr=0.0, max_lr=1.0, step_size_up=2)
    >>> rates = [schedule.get_last_lr()[0]]
    >>> for _ in range(5):
    ...     opt.step(); schedule.step(); rates.append(schedule.get_last_lr()[0])
    >>> rates
    [0.0, 0.5, 1.0, 0.5, 0.0, 0.5]
    """

    def __init__(self, optimizer, base_lr, max_lr, step_size_up: int = 2000, step_size_down: int | None = None,
                 mode: str = "triangular", gamma: float = 1.0, scale_fn=None, scale_mode: str = "cycle",
                 cycle_momentum: bool = True, base_momentum=0.8, max_momentum=0.9, last_epoch: int = -1) -> None:
        check_optimizer(optimizer)
        self.optimizer = optimizer
        base_lrs = per_group("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                group["lr"] = lr
        self.max_lrs = per_group("max_lr", optimizer, max_lr)
        step_size_up = float(step_size_up)
        step_size_down = float(step_size_down) if step_size_down is not None else step_size_up
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size
        if mode not in ["triangular", "triangular2", "exp_range"] and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
            self.use_beta1 = "betas" in optimizer.defaults
            self.base_momentums = per_group("base_momentum", optimizer, base_momentum)
            self.max_momentums = per_group("max_momentum", optimizer, max_momentum)
            if last_epoch == -1:
                for highest, lowest, group in zip(self.max_momentums, self.base_momentums, optimizer.param_groups):
                    self._set_momentum(group, highest)
                    group["max_momentum"] = highest
                    group["base_momentum"] = lowest
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self) -> None:
        if self._scale_fn_custom is not None:
            return
        if self.mode == "triangular":
            self._scale_fn_ref, self.scale_mode = _triangular, "cycle"
        elif self.mode == "triangular2":
            self._scale_fn_ref, self.scale_mode = _triangular2, "cycle"
        elif self.mode == "exp_range":
            self._scale_fn_ref, self.scale_mode = partial(_exp_range, self.gamma), "iterations"

    def scale_fn(self, x) -> float:
        return (self._scale_fn_ref if self._scale_fn_custom is None else self._scale_fn_custom)(x)

    def _set_momentum(self, group: dict, value: float) -> None:
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def get_lr(self) -> list:
        self._warn_if_called_from_outside()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        scale_factor = x / self.step_ratio if x <= self.step_ratio else (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        lrs = [base_lr + (max_lr - base_lr) * scale_factor * scale
               for base_lr, max_lr in zip(self.base_lrs, self.max_lrs)]
        if self.cycle_momentum:
            for group, lowest, highest in zip(self.optimizer.param_groups, self.base_momentums, self.max_momentums):
                self._set_momentum(group, highest - (highest - lowest) * scale_factor * scale)
        return lrs

    def state_dict(self) -> dict:
        """As PyTorch: the built-in scale function is not saved, a custom callable object's attributes are."""
        state = super().state_dict()
        state.pop("_scale_fn_ref", None)
        custom = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None
        if custom is not None and not isinstance(custom, types.FunctionType):
            state["_scale_fn_custom"] = custom.__dict__.copy()
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        custom = state_dict.get("_scale_fn_custom")
        super().load_state_dict({k: v for k, v in state_dict.items() if k != "_scale_fn_custom"})
        if custom is not None:
            self._scale_fn_custom.__dict__.update(custom)
        self._init_scale_fn()


def _triangular(x: float) -> float:
    return 1.0


def _triangular2(x: float) -> float:
    return 1 / 2.0 ** (x - 1)


def _exp_range(gamma: float, x: float) -> float:
    return gamma ** x


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from ``initial_lr`` to ``eta_min`` over ``T_0`` epochs, then a
    restart at ``initial_lr``, each period ``T_mult`` times the one before. ``step`` may be
    given a fractional epoch (e.g. ``epoch + batch / batches``) as PyTorch allows.

    >>> import ag_jupyter as ag
    >>> opt = ag.optim.SGD([ag.nn.Parameter(ag.zeros(1))], lr=1.0)
    >>> schedule = ag.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2)
    >>> rates = [schedule.get_last_lr()[0]]
    >>> for _ in range(4):
    ...     opt.step(); schedule.step(); rates.append(round(schedule.get_last_lr()[0], 4))
    >>> rates
    [1.0, 0.5, 1.0, 0.5, 1.0]
    """

    def __init__(self, optimizer, T_0: int, T_mult: int = 1, eta_min: float = 0.0, last_epoch: int = -1) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type {type(eta_min)}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_from_outside()
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for base_lr in self.base_lrs]

    def step(self, epoch=None) -> None:
        """The next epoch, or ``epoch`` (fractional allowed): PyTorch's own step, which
        neither counts steps nor warns about their order."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            if epoch < 0:
                raise ValueError(f"Expected non-negative epoch, but got {epoch}")
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult ** n
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            rates = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, rates, strict=True):
            group["lr"] = lr
        self._last_lr = group_values(self.optimizer, "lr")
