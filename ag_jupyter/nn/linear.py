"""``Linear`` (``y = x Wᵀ + b``) and ``Identity``."""
from __future__ import annotations

import math

from .. import creation
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter


class Linear(Module):
    """``y = x @ weight.T + bias``, with ``weight`` of shape ``(out_features, in_features)``.

    Weight and bias start uniform in ``±1/sqrt(in_features)``, as in PyTorch.

    >>> import ag_jupyter as ag
    >>> layer = ag.nn.Linear(3, 2)
    >>> layer(ag.ones(4, 3)).shape, layer.weight.shape
    (ag.Size([4, 2]), ag.Size([2, 3]))
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(creation.empty((out_features, in_features), dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(creation.empty((out_features,), dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_features
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Identity(Module):
    """Returns its input unchanged (a placeholder layer)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input
