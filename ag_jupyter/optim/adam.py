"""Adam, with PyTorch's bias correction, weight decay and AMSGrad."""
from __future__ import annotations

import numpy

from ..backend import array_module
from .optimizer import Optimizer, new_state_tensor, updated


class Adam(Optimizer):
    r"""Adaptive moments (Kingma & Ba), as PyTorch computes them:

    ``m = β₁ m + (1-β₁) g``, ``v = β₂ v + (1-β₂) g²`` (``g`` plus ``weight_decay * p``),
    then ``p -= lr / (1-β₁ᵗ) * m / (sqrt(v) / sqrt(1-β₂ᵗ) + eps)``; with ``amsgrad``
    ``v`` is replaced by its running maximum in the denominator.

    >>> import ag_jupyter as ag
    >>> w = ag.nn.Parameter(ag.tensor([1.0, -2.0]))
    >>> opt = ag.optim.Adam([w], lr=0.1)
    >>> (w * w).sum().backward(); opt.step()
    >>> [round(v, 4) for v in w.tolist()]  # the first step moves each weight by lr
    [0.9, -1.9]
    """

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *, maximize: bool = False) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if eps < 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for i, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {beta}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize))

    def _init_state(self, param) -> dict:
        xp = array_module(param._data)
        state = {"step": new_state_tensor(numpy.zeros((), numpy.float32)),
                 "exp_avg": new_state_tensor(xp.zeros_like(param._data)),
                 "exp_avg_sq": new_state_tensor(xp.zeros_like(param._data))}
        self.state[param] = state
        return state

    def _update_group(self, group: dict) -> None:
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        amsgrad = group["amsgrad"]
        for param, grad in self._gradients(group):
            state = self.state.get(param) or self._init_state(param)
            state["step"]._data += 1
            exp_avg, exp_avg_sq = state["exp_avg"]._data, state["exp_avg_sq"]._data
            weight = 1 - beta1  # exp_avg.lerp_(grad, weight), with PyTorch's two formulas
            if weight < 0.5:
                exp_avg += weight * (grad - exp_avg)
            else:
                exp_avg[...] = grad - (grad - exp_avg) * (1 - weight)
            exp_avg_sq *= beta2
            exp_avg_sq += (1 - beta2) * grad * grad
            step = float(state["step"]._data)
            bias_correction1 = 1 - beta1 ** step
            bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
            if amsgrad:  # the running maximum starts at zero on the first amsgrad step
                if "max_exp_avg_sq" not in state:
                    state["max_exp_avg_sq"] = new_state_tensor(array_module(exp_avg_sq).zeros_like(exp_avg_sq))
                largest = state["max_exp_avg_sq"]._data
                array_module(largest).maximum(largest, exp_avg_sq, out=largest)
                second = largest
            else:
                second = exp_avg_sq
            xp = array_module(second)
            denom = xp.sqrt(second) / bias_correction2_sqrt + eps
            param._data += (-(lr / bias_correction1)) * exp_avg / denom
            updated(param)
