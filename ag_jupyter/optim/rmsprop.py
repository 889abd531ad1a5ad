"""RMSprop, with PyTorch's smoothing constant, centering, momentum and weight decay."""
from __future__ import annotations

import numpy

from ..backend import array_module
from .optimizer import Optimizer, filled_state_tensor, implementation_options, lerp_into, new_state_tensor, updated


class RMSprop(Optimizer):
    r"""Divide the gradient by a running root mean square of its past values (Hinton), as
    PyTorch computes it: ``v = α v + (1-α) g²`` (``g`` plus ``weight_decay * p``); with
    ``centered`` the running mean ``ḡ`` of ``g`` is subtracted, ``v - ḡ²``; then
    ``p -= lr * g / (sqrt(v) + eps)``, or with momentum ``b = momentum * b + g / (sqrt(v) + eps)``
    and ``p -= lr * b``.

    >>> import ag_jupyter as ag
    >>> w = ag.nn.Parameter(ag.tensor([1.0, -2.0]))
    >>> opt = ag.optim.RMSprop([w], lr=0.01)
    >>> (w * w).sum().backward(); opt.step()
    >>> [round(v, 4) for v in w.tolist()]  # each weight moves by lr / sqrt(1 - alpha)
    [0.9, -1.9]
    """

    def __init__(self, params, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False, capturable: bool = False,
                 foreach=None, maximize: bool = False, differentiable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                                      weight_decay=weight_decay, maximize=maximize,
                                      **implementation_options("RMSprop", capturable=capturable, foreach=foreach,
                                                               differentiable=differentiable)))

    def _init_state(self, param, group: dict) -> dict:
        state = {"step": new_state_tensor(numpy.zeros((), numpy.float32)),
                 "square_avg": filled_state_tensor(param)}
        if group["momentum"] > 0:
            state["momentum_buffer"] = filled_state_tensor(param)
        if group["centered"]:
            state["grad_avg"] = filled_state_tensor(param)
        self.state[param] = state
        return state

    def _update_group(self, group: dict) -> None:
        lr, alpha, eps, momentum = group["lr"], group["alpha"], group["eps"], group["momentum"]
        for param, grad in self._gradients(group):
            state = self.state.get(param) or self._init_state(param, group)
            state["step"]._data += 1
            square_avg = state["square_avg"]._data
            square_avg *= alpha
            square_avg += (1 - alpha) * grad * grad
            xp = array_module(square_avg)
            if group["centered"]:
                grad_avg = state["grad_avg"]._data
                lerp_into(grad_avg, grad, 1 - alpha)
                avg = xp.sqrt(square_avg + (-1 * grad_avg) * grad_avg)
            else:
                avg = xp.sqrt(square_avg)
            avg += eps
            if momentum > 0:
                buffer = state["momentum_buffer"]._data
                buffer *= momentum
                buffer += grad / avg
                param._data += -lr * buffer
            else:
                param._data += (-lr * grad) / avg
            updated(param)
