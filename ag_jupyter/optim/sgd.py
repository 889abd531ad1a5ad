"""Stochastic gradient descent, with PyTorch's momentum, dampening, Nesterov and weight decay."""
from __future__ import annotations

import numpy

from .. import gpu_kernels
from ..autograd import state as autograd_state
from .optimizer import Optimizer, implementation_options, new_state_tensor, report_update, updated


class SGD(Optimizer):
    r"""``p -= lr * g``, where ``g`` is the gradient (plus ``weight_decay * p``), and with
    momentum ``b = momentum * b + (1 - dampening) * g`` (first step: ``b = g``), then
    ``g = b``, or ``g = g + momentum * b`` with ``nesterov``. Exactly PyTorch's rules.

    >>> import ag_jupyter as ag
    >>> w = ag.nn.Parameter(ag.tensor([1.0, -2.0]))
    >>> opt = ag.optim.SGD([w], lr=0.1, momentum=0.9)
    >>> (w * w).sum().backward(); opt.step()
    >>> [round(v, 4) for v in w.tolist()]  # w - 0.1 * 2w
    [0.8, -1.6]
    """

    def __init__(self, params, lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False, foreach=None,
                 differentiable: bool = False, fused=None) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov, maximize=maximize,
                                      **implementation_options("SGD", foreach=foreach, differentiable=differentiable,
                                                               fused=fused)))

    def _update_group(self, group: dict) -> None:
        lr, momentum, dampening, nesterov = group["lr"], group["momentum"], group["dampening"], group["nesterov"]
        listener = autograd_state.listener  # a trace that steps the update, or None: one check per group
        for param, grad in self._gradients(group):
            if listener is not None:
                old, gradient = param._data.copy(), grad
            if momentum != 0:
                state = self.state.setdefault(param, {})
                buffer = state.get("momentum_buffer")
                if buffer is None:
                    state["momentum_buffer"] = buffer = new_state_tensor(grad)
                else:
                    b = buffer._data
                    b *= momentum
                    b += grad if dampening == 0 else (1 - dampening) * grad
                grad = grad + momentum * buffer._data if nesterov else buffer._data
            if grad.__class__ is not numpy.ndarray and lr.__class__ in (float, int) and \
                    gpu_kernels.fusable(param._data, grad):
                gpu_kernels.sgd_step(param._data, grad, lr)  # one launch for * and -=
            else:
                param._data -= lr * grad
            updated(param)
            if listener is not None:
                report_update(listener, type(self).__name__, param, old, lr, gradient, grad, momentum=momentum,
                              dampening=dampening, nesterov=nesterov, weight_decay=group["weight_decay"],
                              momentum_buffer=buffer._data if momentum != 0 else None)
