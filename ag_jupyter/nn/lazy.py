"""Lazy layers (``LazyLinear``, ``LazyConv1d``, ``LazyConv2d``): the input's size is read at the
first call, as d2l writes its models. Until then each weight is an ``UninitializedParameter``,
the same object an optimizer made before the call holds: the first call gives it its shape and
PyTorch's initial values in place, and the layer becomes the plain layer (``Linear``, ``Conv2d``),
as PyTorch's ``cls_to_become`` does."""
from __future__ import annotations

import numpy

from .. import backend, dtypes
from ..creation import empty
from ..tensor import Tensor
from .conv import Conv1d, Conv2d, _ConvNd
from .linear import Linear
from .module import Module
from .parameter import Parameter

_NO_SHAPE = ("Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
             "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call "
             "`forward` to initialize the parameters before accessing their attributes.")


class UninitializedParameter(Parameter):
    """A parameter with no shape yet; ``materialize(shape)`` gives it one (uninitialized values,
    which the layer then initializes) and makes it a plain ``Parameter``."""

    __slots__ = ()

    def __init__(self, requires_grad: bool = True, device=None, dtype=None) -> None:
        super().__init__(empty(0, dtype=dtype, device=device), requires_grad)

    def materialize(self, shape, device=None, dtype=None) -> None:
        target = backend.as_device(device) if device is not None else self.device
        numpy_dtype = dtypes.to_numpy(dtype) if dtype is not None else self._data.dtype
        self._data = backend.move(numpy.empty(tuple(shape), numpy_dtype), target)
        self.__class__ = Parameter

    @property
    def shape(self):
        raise RuntimeError(_NO_SHAPE)

    def size(self, dim=None):
        raise RuntimeError(_NO_SHAPE)

    def numel(self) -> int:
        raise ValueError("Attempted to use an uninitialized parameter in numel. This error happens when you are "
                         "using a `LazyModule` or explicitly manipulating `torch.nn.parameter.UninitializedParameter` "
                         "objects. When using LazyModules Call `forward` with a dummy batch to initialize the "
                         "parameters before calling torch functions")

    def __repr__(self) -> str:
        return "<UninitializedParameter>"


def _uninitialized(module: Module, names: tuple, bias: bool, device, dtype) -> None:
    for name in names:
        module.register_parameter(name, UninitializedParameter(device=device, dtype=dtype))
    if not bias:
        module.register_parameter("bias", None)


def has_uninitialized_params(module: Module) -> bool:
    return any(isinstance(p, UninitializedParameter) for p in module._parameters.values())


class LazyLinear(Linear):
    """``Linear`` whose ``in_features`` is the last dimension of its first input.

    >>> import ag_jupyter as ag
    >>> layer = ag.nn.LazyLinear(2)
    >>> layer(ag.ones(4, 3)).shape, layer
    (ag.Size([4, 2]), Linear(in_features=3, out_features=2, bias=True))
    """

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        Module.__init__(self)
        self.in_features, self.out_features = 0, out_features
        _uninitialized(self, ("weight", "bias") if bias else ("weight",), bias, device, dtype)

    def reset_parameters(self) -> None:
        """Nothing to initialize before the first call (the plain layer's own runs then)."""

    def forward(self, input: Tensor) -> Tensor:
        if has_uninitialized_params(self):
            self.in_features = input.shape[-1] if input.ndim else 0
            self.weight.materialize((self.out_features, self.in_features))
            if self.bias is not None:
                self.bias.materialize((self.out_features,))
            self.__class__ = Linear
            self.reset_parameters()
        else:  # weights loaded from a state dict before the first call: PyTorch keeps them
            self.in_features, self.__class__ = self.weight.shape[1], Linear
        return Linear.forward(self, input)


class _LazyConvNd(_ConvNd):
    becomes: type = _ConvNd

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, dilation=1, groups: int = 1,
                 bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None) -> None:
        # the plain layer's checks and settings with one input channel per group, then no weights yet
        super().__init__(groups, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype)
        self.in_channels = 0
        _uninitialized(self, ("weight", "bias") if bias else ("weight",), bias, device, dtype)

    def reset_parameters(self) -> None:
        """Nothing to draw yet: the plain layer's own runs at the first call, so the random
        numbers drawn are PyTorch's, in its order."""

    def forward(self, input: Tensor) -> Tensor:
        if has_uninitialized_params(self):
            dims = len(self.kernel_size)
            if input.ndim not in (dims + 1, dims + 2):
                raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to "
                                   f"{type(self).__name__}, but got input of size: {input.shape}")
            self.in_channels = input.shape[1] if input.ndim == dims + 2 else input.shape[0]
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            self.weight.materialize((self.out_channels, self.in_channels // self.groups) + self.kernel_size)
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.__class__ = becomes = self.becomes
            self.reset_parameters()
            return becomes.forward(self, input)
        # weights loaded from a state dict before the first call: kept (in_channels stays 0, as PyTorch's)
        self.__class__ = becomes = self.becomes
        return becomes.forward(self, input)


class LazyConv1d(_LazyConvNd):
    """``Conv1d`` whose ``in_channels`` is read from its first input."""

    dims, becomes = 1, Conv1d


class LazyConv2d(_LazyConvNd):
    """``Conv2d`` whose ``in_channels`` is read from its first input.

    >>> import ag_jupyter as ag
    >>> layer = ag.nn.LazyConv2d(6, 5, padding=2)
    >>> layer(ag.ones(1, 3, 28, 28)).shape, layer
    (ag.Size([1, 6, 28, 28]), Conv2d(3, 6, kernel_size=(5, 5), stride=(1, 1), padding=(2, 2)))
    """

    dims, becomes = 2, Conv2d
