"""Adagrad, with PyTorch's learning-rate decay, initial accumulator and weight decay."""
from __future__ import annotations

import numpy

from ..backend import array_module
from .optimizer import Optimizer, filled_state_tensor, implementation_options, new_state_tensor, updated


class Adagrad(Optimizer):
    r"""Scale each weight's step by its whole history of squared gradients (Duchi et al.),
    as PyTorch computes it: ``s += g²`` (``g`` plus ``weight_decay * p``; ``s`` starts at
    ``initial_accumulator_value``), then ``p -= lr / (1 + (t-1) lr_decay) * g / (sqrt(s) + eps)``.
    As in PyTorch, every parameter has its state from the start.

    >>> import ag_jupyter as ag
    >>> w = ag.nn.Parameter(ag.tensor([1.0, -2.0]))
    >>> opt = ag.optim.Adagrad([w], lr=0.1)
    >>> (w * w).sum().backward(); opt.step()
    >>> [round(v, 4) for v in w.tolist()]  # the first step moves each weight by lr
    [0.9, -1.9]
    """

    def __init__(self, params, lr: float = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, foreach=None, *, maximize: bool = False,
                 differentiable: bool = False, fused=None) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, maximize=maximize,
                                      **implementation_options("Adagrad", foreach=foreach,
                                                               differentiable=differentiable, fused=fused)))
        for group in self.param_groups:
            for param in group["params"]:
                self._init_state(param, group["initial_accumulator_value"])

    def _init_state(self, param, initial_value: float) -> dict:
        state = {"step": new_state_tensor(numpy.zeros((), numpy.float32)),
                 "sum": filled_state_tensor(param, initial_value)}
        self.state[param] = state
        return state

    def _update_group(self, group: dict) -> None:
        lr, lr_decay, eps = group["lr"], group["lr_decay"], group["eps"]
        for param, grad in self._gradients(group):
            # a parameter added later with add_param_group starts from the defaults, as in PyTorch
            state = self.state.get(param) or self._init_state(param, self.defaults["initial_accumulator_value"])
            state["step"]._data += 1
            step_size = lr / (1 + (float(state["step"]._data) - 1) * lr_decay)
            total = state["sum"]._data
            total += 1 * grad * grad
            std = array_module(total).sqrt(total)
            std += eps
            param._data += (-step_size * grad) / std
            updated(param)
