"""``BatchNorm1d``, ``BatchNorm2d`` and ``LayerNorm``, with PyTorch's parameters, buffers,
defaults and train/eval behaviour."""
from __future__ import annotations

from .. import creation, dtypes
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter


class _BatchNorm(Module):
    """Per-channel standardization by the batch's statistics in training, by the running
    ones (``running_mean``, ``running_var``) in ``eval()``. ``momentum=None`` makes the
    running statistics the plain average over every batch seen (``num_batches_tracked``)."""

    expected_dims: tuple = ()

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device=None, dtype=None, *,
                 bias: bool = True) -> None:
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(creation.empty((num_features,), dtype=dtype, device=device))
            if bias:
                self.bias = Parameter(creation.empty((num_features,), dtype=dtype, device=device))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", creation.zeros(num_features, dtype=dtype, device=device))
            self.register_buffer("running_var", creation.ones(num_features, dtype=dtype, device=device))
            self.register_buffer("num_batches_tracked", creation.tensor(0, dtype=dtypes.int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            self.running_mean._data[...] = 0
            self.running_var._data[...] = 1
            self.num_batches_tracked._data[...] = 0

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:
        if input.ndim not in self.expected_dims:
            raise ValueError(f"expected {' or '.join(f'{d}D' for d in self.expected_dims)} input "
                             f"(got {input.ndim}D input)")
        factor = 0.0 if self.momentum is None else self.momentum
        counting = self.training and self.track_running_stats and self.num_batches_tracked is not None
        if counting and self.momentum is None:  # the average over every batch, this one included
            factor = 1.0 / (float(self.num_batches_tracked.item()) + 1)
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        keep = not self.training or self.track_running_stats  # the buffers are read or updated
        out = F.batch_norm(input, self.running_mean if keep else None, self.running_var if keep else None,
                           self.weight, self.bias, use_batch, factor, self.eps)
        if counting:  # after the call, so a refused input changes no buffer (PyTorch counts it first)
            self.num_batches_tracked._data[...] += 1
        return out

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch norm of ``(N, C)`` or ``(N, C, L)`` inputs, ``C = num_features``.

    >>> import ag_jupyter as ag
    >>> bn = ag.nn.BatchNorm1d(2)
    >>> bn(ag.tensor([[1.0, 10.0], [3.0, 30.0]]))
    tensor([[-1.0000, -1.0000],
            [ 1.0000,  1.0000]], grad_fn=<NativeBatchNormBackward0>)
    >>> bn.running_mean, bn.num_batches_tracked
    (tensor([0.2000, 2.0000]), tensor(1))
    """

    expected_dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch norm of images ``(N, C, H, W)``: one mean and variance per channel."""

    expected_dims = (4,)


class LayerNorm(Module):
    """Standardize each sample over its last ``len(normalized_shape)`` dimensions, then
    scale and shift elementwise (``elementwise_affine``) by ``weight`` and ``bias`` of
    that shape. The same in training and evaluation."""

    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.normalized_shape = shape
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(creation.ones(shape, dtype=dtype, device=device))
            if bias:
                self.bias = Parameter(creation.zeros(shape, dtype=dtype, device=device))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")
