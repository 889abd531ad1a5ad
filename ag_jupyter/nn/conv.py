"""``Conv1d`` and ``Conv2d``: a learned convolution, weight ``(out, in/groups, *kernel)``."""
from __future__ import annotations

import math

from .. import creation
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}  # a set, printed as PyTorch prints its own


def _tuple(value, dims: int) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * dims


class _ConvNd(Module):
    """What ``Conv1d`` and ``Conv2d`` share: checks, parameters, PyTorch's initialisation and repr."""

    dims = 0  # spatial dimensions, set by each subclass

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None) -> None:
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of ['valid', 'same']")
            if padding == "same" and any(s != 1 for s in _tuple(stride, self.dims)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {_PADDING_MODES}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _tuple(kernel_size, self.dims)
        self.stride, self.dilation = _tuple(stride, self.dims), _tuple(dilation, self.dims)
        self.padding = padding if isinstance(padding, str) else _tuple(padding, self.dims)
        self.groups, self.padding_mode = groups, padding_mode
        shape = (out_channels, in_channels // groups) + self.kernel_size
        self.weight = Parameter(creation.empty(shape, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(creation.empty((out_channels,), dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's: kaiming_uniform with a=sqrt(5) (bound 1/sqrt(fan_in)), bias uniform in the same."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def _padded(self, input: Tensor):
        """``(input, padding)`` for the convolution: another padding mode pads first (``F.pad``,
        PyTorch's ``_reversed_padding_repeated_twice``) and convolves with none."""
        if self.padding_mode == "zeros":
            return input, self.padding
        if self.padding == "same":
            totals = [d * (k - 1) for d, k in zip(self.dilation, self.kernel_size)]
            sides = [(total // 2, total - total // 2) for total in totals]
        else:
            sides = [(p, p) for p in self.padding] if self.padding != "valid" else [(0, 0)] * self.dims
        pads = tuple(side for pair in reversed(sides) for side in pair)
        return F.pad(input, pads, mode=self.padding_mode), 0

    def extra_repr(self) -> str:
        text = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * self.dims:
            text += f", padding={self.padding}"
        if self.dilation != (1,) * self.dims:
            text += f", dilation={self.dilation}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text


class Conv1d(_ConvNd):
    """A 1-D convolution over (N, C, L) (or (C, L)).

    >>> import ag_jupyter as ag
    >>> ag.nn.Conv1d(4, 8, 3, padding=1)(ag.ones(2, 4, 10)).shape
    ag.Size([2, 8, 10])
    """

    dims = 1

    def forward(self, input: Tensor) -> Tensor:
        input, padding = self._padded(input)
        return F.conv1d(input, self.weight, self.bias, self.stride, padding, self.dilation, self.groups)


class Conv2d(_ConvNd):
    """A 2-D convolution over (N, C, H, W) (or (C, H, W)).

    >>> import ag_jupyter as ag
    >>> ag.nn.Conv2d(1, 6, 5)
    Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))
    >>> ag.nn.Conv2d(1, 6, 5, padding=2)(ag.ones(64, 1, 28, 28)).shape
    ag.Size([64, 6, 28, 28])
    """

    dims = 2

    def forward(self, input: Tensor) -> Tensor:
        input, padding = self._padded(input)
        return F.conv2d(input, self.weight, self.bias, self.stride, padding, self.dilation, self.groups)
