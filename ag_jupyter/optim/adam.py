"""Adam, with PyTorch's bias correction, weight decay (coupled, or decoupled as AdamW) and AMSGrad."""
from __future__ import annotations

import numpy

from ..autograd import state as autograd_state
from ..backend import array_module
from .optimizer import (
    Optimizer,
    filled_state_tensor,
    implementation_options,
    lerp_into,
    new_state_tensor,
    report_update,
    updated,
)


class Adam(Optimizer):
    r"""Adaptive moments (Kingma & Ba), as PyTorch computes them:

    ``m = β₁ m + (1-β₁) g``, ``v = β₂ v + (1-β₂) g²`` (``g`` plus ``weight_decay * p``),
    then ``p -= lr / (1-β₁ᵗ) * m / (sqrt(v) / sqrt(1-β₂ᵗ) + eps)``; with ``amsgrad``
    ``v`` is replaced by its running maximum in the denominator. With
    ``decoupled_weight_decay`` (what ``AdamW`` is) the decay shrinks the weights,
    ``p *= 1 - lr * weight_decay``, instead of entering the gradient.

    >>> import ag_jupyter as ag
    >>> w = ag.nn.Parameter(ag.tensor([1.0, -2.0]))
    >>> opt = ag.optim.Adam([w], lr=0.1)
    >>> (w * w).sum().backward(); opt.step()
    >>> [round(v, 4) for v in w.tolist()]  # the first step moves each weight by lr
    [0.9, -1.9]
    """

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *, foreach=None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False, fused=None,
                 decoupled_weight_decay: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for i, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {beta}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize,
                                      **implementation_options(type(self).__name__, foreach=foreach,
                                                               capturable=capturable, differentiable=differentiable,
                                                               fused=fused),
                                      decoupled_weight_decay=decoupled_weight_decay))

    def _init_state(self, param) -> dict:
        state = {"step": new_state_tensor(numpy.zeros((), numpy.float32)),
                 "exp_avg": filled_state_tensor(param), "exp_avg_sq": filled_state_tensor(param)}
        self.state[param] = state
        return state

    def _update_group(self, group: dict) -> None:
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        amsgrad, weight_decay = group["amsgrad"], group["weight_decay"]
        decoupled = group.get("decoupled_weight_decay", False)
        listener = autograd_state.listener  # a trace that steps the update, or None: one check per group
        for param, grad in self._gradients(group, decay_into_gradient=not decoupled):
            state = self.state.get(param) or self._init_state(param)
            old = param._data.copy() if listener is not None else None
            state["step"]._data += 1
            if decoupled and weight_decay != 0:
                param._data *= 1 - lr * weight_decay
            exp_avg, exp_avg_sq = state["exp_avg"]._data, state["exp_avg_sq"]._data
            lerp_into(exp_avg, grad, 1 - beta1)
            exp_avg_sq *= beta2
            exp_avg_sq += (1 - beta2) * grad * grad
            step = float(state["step"]._data)
            bias_correction1 = 1 - beta1 ** step
            bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
            if amsgrad:  # the running maximum starts at zero on the first amsgrad step
                if "max_exp_avg_sq" not in state:
                    state["max_exp_avg_sq"] = filled_state_tensor(param)
                largest = state["max_exp_avg_sq"]._data
                array_module(largest).maximum(largest, exp_avg_sq, out=largest)
                second = largest
            else:
                second = exp_avg_sq
            xp = array_module(second)
            denom = xp.sqrt(second) / bias_correction2_sqrt + eps
            param._data += (-(lr / bias_correction1)) * exp_avg / denom
            updated(param)
            if listener is not None:
                report_update(listener, type(self).__name__, param, old, lr, grad,
                              exp_avg / bias_correction1 / denom, exp_avg=exp_avg, exp_avg_sq=second, step=step,
                              betas=[beta1, beta2], eps=eps, bias_correction1=bias_correction1,
                              bias_correction2=bias_correction2_sqrt ** 2, weight_decay=weight_decay,
                              decoupled_weight_decay=bool(decoupled), amsgrad=bool(amsgrad))


class AdamW(Adam):
    r"""Adam with decoupled weight decay (Loshchilov & Hutter), as PyTorch's ``AdamW``:
    each step first shrinks the weights, ``p *= 1 - lr * weight_decay`` (default 0.01),
    and the moments see the plain gradient.

    >>> import ag_jupyter as ag
    >>> w = ag.nn.Parameter(ag.tensor([1.0, -2.0]))
    >>> opt = ag.optim.AdamW([w], lr=0.1, weight_decay=0.5)
    >>> (w * w).sum().backward(); opt.step()
    >>> [round(v, 4) for v in w.tolist()]  # w * (1 - 0.05), then moved by lr
    [0.85, -1.8]
    """

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False, foreach=None,
                 capturable: bool = False, differentiable: bool = False, fused=None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
