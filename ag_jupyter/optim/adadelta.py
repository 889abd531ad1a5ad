"""Adadelta, with PyTorch's decay rate, epsilon and weight decay."""
from __future__ import annotations

import numpy

from ..backend import array_module
from .optimizer import Optimizer, filled_state_tensor, implementation_options, new_state_tensor, updated


class Adadelta(Optimizer):
    r"""A step whose units come from past steps (Zeiler): ``v = ρ v + (1-ρ) g²`` (``g``
    plus ``weight_decay * p``), ``Δ = sqrt(u + eps) / sqrt(v + eps) * g``,
    ``u = ρ u + (1-ρ) Δ²``, then ``p -= lr * Δ``, as PyTorch computes it.

    >>> import ag_jupyter as ag
    >>> w = ag.nn.Parameter(ag.tensor([1.0, -2.0]))
    >>> opt = ag.optim.Adadelta([w])
    >>> (w * w).sum().backward(); opt.step()
    >>> [round(v, 4) for v in w.tolist()]  # sqrt(eps) / sqrt(0.1 g² + eps) * g: about 0.0032
    [0.9968, -1.9968]
    """

    def __init__(self, params, lr: float = 1.0, rho: float = 0.9, eps: float = 1e-6, weight_decay: float = 0,
                 foreach=None, *, capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                                      **implementation_options("Adadelta", capturable=capturable, foreach=foreach,
                                                               differentiable=differentiable)))

    def _init_state(self, param) -> dict:
        state = {"step": new_state_tensor(numpy.zeros((), numpy.float32)),
                 "square_avg": filled_state_tensor(param), "acc_delta": filled_state_tensor(param)}
        self.state[param] = state
        return state

    def _update_group(self, group: dict) -> None:
        lr, rho, eps = group["lr"], group["rho"], group["eps"]
        for param, grad in self._gradients(group):
            state = self.state.get(param) or self._init_state(param)
            state["step"]._data += 1
            square_avg, acc_delta = state["square_avg"]._data, state["acc_delta"]._data
            xp = array_module(square_avg)
            square_avg *= rho
            square_avg += (1 - rho) * grad * grad
            std = xp.sqrt(square_avg + eps)
            delta = xp.sqrt(acc_delta + eps)
            delta /= std
            delta *= grad
            acc_delta *= rho
            acc_delta += (1 - rho) * delta * delta
            param._data += -lr * delta
            updated(param)
