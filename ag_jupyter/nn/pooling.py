"""Pooling modules: ``MaxPool1d``, ``MaxPool2d``, ``AvgPool2d``, ``AdaptiveAvgPool2d``."""
from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module


class _MaxPoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices: bool = False,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    """The largest entry of each window along the last dimension of (N, C, L)."""

    def forward(self, input: Tensor):
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            self.ceil_mode, self.return_indices)


class MaxPool2d(_MaxPoolNd):
    """The largest entry of each window of (N, C, H, W); ``stride`` defaults to ``kernel_size``.

    >>> import ag_jupyter as ag
    >>> ag.nn.MaxPool2d(2)
    MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
    >>> ag.nn.MaxPool2d(2)(ag.ones(1, 6, 28, 28)).shape
    ag.Size([1, 6, 14, 14])
    """

    def forward(self, input: Tensor):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            self.ceil_mode, self.return_indices)


class AvgPool2d(Module):
    """The mean of each window of (N, C, H, W); ``stride`` defaults to ``kernel_size``.

    >>> import ag_jupyter as ag
    >>> ag.nn.AvgPool2d(2)(ag.ones(1, 1, 4, 4)).shape
    ag.Size([1, 1, 2, 2])
    """

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override=None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool2d(Module):
    """Averages (N, C, H, W) down to ``output_size`` whatever H and W are.

    >>> import ag_jupyter as ag
    >>> ag.nn.AdaptiveAvgPool2d((5, 7))(ag.ones(2, 3, 11, 9)).shape
    ag.Size([2, 3, 5, 7])
    """

    def __init__(self, output_size) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool2d(Module):
    """The largest entry of each of ``output_size`` windows tiling (N, C, H, W) (``return_indices``:
    also where).

    >>> import ag_jupyter as ag
    >>> ag.nn.AdaptiveMaxPool2d((2, 3))(ag.ones(2, 3, 11, 9)).shape
    ag.Size([2, 3, 2, 3])
    """

    def __init__(self, output_size, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def forward(self, input: Tensor):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"
