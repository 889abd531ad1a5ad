"""Convolution (``F.conv1d``, ``F.conv2d``), one node as in PyTorch: ``ConvolutionBackward0``.

Forward is im2col and one matrix product: the windows of the input laid out as columns
(``windows.unfold_array``: a strided view and one copy), multiplied by the weight seen as
a matrix (out_channels, in_channels/groups * kh * kw), groups as a batch of products.
Backward is two products and a col2im, written once against ``F``: the weight's
gradient multiplies the output's gradient by the columns, the input's multiplies it by
the weight and adds the columns back onto the image.
"""
from __future__ import annotations

import math

from ..autograd import state
from ..autograd.function import Op
from ..backend import array_module, require_same_device
from ..dtypes import scalar_type_name
from .windows import Windows, as_image, as_pair, col2im, im2col, spatial, unfold_array


def _padding(padding, dims: int, kernel: tuple, stride: tuple, dilation: tuple) -> tuple:
    """(before, after) for each spatial dimension; 'same' pads any odd remainder after, as
    PyTorch does."""
    if isinstance(padding, str):
        if padding == "valid":
            return ((0, 0),) * dims
        if padding != "same":
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        totals = [d * (k - 1) for k, d in zip(kernel, dilation)]
        return tuple((total // 2, total - total // 2) for total in totals)
    pads = spatial(padding, dims, "padding")
    if any(p < 0 for p in pads):
        raise RuntimeError("negative padding is not supported")
    return tuple((p, p) for p in pads)


_CPP_NAMES = {"bool": "bool", "int32": "int", "int64": "long int", "float16": "c10::Half",
              "float32": "float", "float64": "double"}


def _check(x, w, b, dims: int, groups: int, padding) -> None:
    """PyTorch's checks on a batched input, the weight and the bias, in its words."""
    if w.ndim != dims + 2:
        raise RuntimeError(f"conv{dims}d: expected a {dims + 2}-D weight (out_channels, in_channels/groups"
                           f"{', kH, kW' if dims == 2 else ', kW'}), but got weight of size {list(w.shape)}")
    if x.dtype.kind == "b":
        raise NotImplementedError(f"\"slow_conv{dims}d_cpu\" not implemented for 'Bool'")
    if x.dtype != w.dtype:
        raise RuntimeError(f"Input type (torch.{scalar_type_name(x)}Tensor) and weight type "
                           f"(torch.{scalar_type_name(w)}Tensor) should be the same")
    if b is not None and b.dtype != x.dtype:
        # PyTorch casts such a bias or refuses it depending on the kernel it picks (a string
        # padding, the batch size, MKLDNN): here it is always refused, in PyTorch's words
        if isinstance(padding, str):
            bias_type = "CPUBoolType" if b.dtype.kind == "b" else f"torch.{scalar_type_name(b)}Tensor"
            raise RuntimeError(f"Input type (torch.{scalar_type_name(x)}Tensor) and bias type ({bias_type}) "
                               f"should be the same")
        raise RuntimeError(f"Input type ({_CPP_NAMES[x.dtype.name]}) and bias type "
                           f"({_CPP_NAMES[b.dtype.name]}) should be the same")
    require_same_device(x, w)
    if b is not None:
        require_same_device(x, b)
    if isinstance(groups, bool) or not isinstance(groups, int) or groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    out_channels = w.shape[0]
    if out_channels % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at "
                           f"dimension 0, but got weight of size [{list(w.shape)}] instead")
    if x.shape[1] != w.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(w.shape)}, expected input"
                           f"{list(x.shape)} to have {w.shape[1] * groups} channels, but got "
                           f"{x.shape[1]} channels instead")
    if b is not None and (b.ndim != 1 or b.shape[0] != out_channels):
        raise RuntimeError(f"Given weight of size {list(w.shape)}, expected bias to be 1-dimensional with "
                           f"{out_channels} elements, but got bias of size {list(b.shape)} instead")


def _windows(x, w, dims: int, stride, padding, dilation) -> Windows:
    kernel = tuple(w.shape[2:])
    stride, dilation = spatial(stride, dims, "stride"), spatial(dilation, dims, "dilation")
    pads = _padding(padding, dims, kernel, stride, dilation)
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("non-positive dilation is not supported")
    padded = tuple(size + before + after for size, (before, after) in zip(x.shape[2:], pads))
    spread = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    if any(p < s for p, s in zip(padded, spread)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
                           f"Kernel size: ({' x '.join(map(str, spread))}). Kernel size can't be greater "
                           f"than actual input size")
    out = tuple((p - s) // st + 1 for p, s, st in zip(padded, spread, stride))
    return Windows(as_pair(kernel, 1), as_pair(stride, 1), as_pair(dilation, 1),
                   ((0, 0),) * (2 - dims) + pads, as_pair(tuple(x.shape[2:]), 1), as_pair(out, 1), axis=1)


class Convolution(Op):
    """``out[n, o] = bias[o] + sum over c, i, j of weight[o, c, i, j] * input[n, c, at (i, j)]``.

    It computes with the batch last, (C, H, W, N): then the columns are (C*kh*kw, Ho*Wo*N),
    the product is one matrix product per group, and the copies into and out of columns run
    along the batch, whose entries lie side by side. In PyTorch's layout, (N, C*kh*kw, Ho*Wo),
    every copy and add ran along a row of a window, 5 to 28 entries at a time, and the
    products were N small ones; a LeNet-5 step took about twice as long.
    """

    __slots__ = ("windows", "groups", "cols", "in_shape", "weight_shape", "dims", "padding")
    arity = 3
    node_name = "ConvolutionBackward0"
    symbol = "conv"
    formula = (r"u = w \star x + b:\quad \frac{\partial L}{\partial w} = \frac{\partial L}{\partial u} "
               r"\star x,\quad \frac{\partial L}{\partial x} = w^\top \circledast "
               r"\frac{\partial L}{\partial u},\quad \frac{\partial L}{\partial b} = "
               r"\textstyle\sum \frac{\partial L}{\partial u}")
    formula_args = ("x", "w", "b")

    def forward(self, input, weight, bias, stride, padding, dilation, groups, dims):
        x, w = input._data, weight._data
        b = None if bias is None else bias._data
        _check(x, w, b, dims, groups, padding)
        windows = _windows(x, w, dims, stride, padding, dilation)
        if x.dtype.name == "int32" and any(d != 1 for d in windows.dilation):  # PyTorch's CPU kernels lack it
            raise NotImplementedError("\"slow_conv_dilated<>\" not implemented for 'Int'")
        xp = array_module(x)
        n, out_channels = x.shape[0], w.shape[0]
        image = x.reshape(as_image(x.shape, dims))
        cols = unfold_array(xp.ascontiguousarray(image.transpose(1, 2, 3, 0)), windows)  # (C*kh*kw, L*N)
        per_group = cols.shape[0] // groups
        if groups == 1:
            out = w.reshape(out_channels, per_group) @ cols
        else:
            out = (w.reshape(groups, out_channels // groups, per_group)
                   @ cols.reshape(groups, per_group, cols.shape[1])).reshape(out_channels, -1)
        if b is not None:
            out += b[:, None]
        self.windows, self.groups, self.dims, self.cols = windows, groups, dims, cols
        self.padding = padding if isinstance(padding, str) else None  # "same" is shown as the user wrote it
        self.in_shape, self.weight_shape = image.shape, w.shape
        self.saved = (input, weight)
        out = xp.ascontiguousarray(out.reshape(out_channels, -1, n).transpose(2, 0, 1))
        return out.reshape((n, out_channels) + windows.out[2 - dims:])

    def constants(self) -> dict:
        """What the trace shows on the node (defaults left out but kernel and stride)."""
        shown = _shown(self.windows, self.dims, {"groups": self.groups})
        if self.padding == "same":
            shown["padding"] = "same"
        return shown

    def backward(self, F, grad):
        input, weight = self.saved
        follow_input, follow_weight, follow_bias = self._next
        groups, windows = self.groups, self.windows
        n, out_channels = self.in_shape[0], self.weight_shape[0]
        blocks = math.prod(windows.out) * n
        per_group = self.cols.shape[0] // groups
        # (O, Ho*Wo*N), the batch last as forward computed, by group
        by_group = F.reshape(F.permute(F.reshape(grad, (n, out_channels, -1)), (1, 2, 0)),
                             (groups, out_channels // groups, blocks))
        grad_input = grad_weight = grad_bias = None
        if follow_weight is not None:
            # the columns of forward; under create_graph, the same made again as a function of the input
            cols = im2col(F, F.permute(F.reshape(F.value(input), self.in_shape), (1, 2, 3, 0)), windows) \
                if F.records else self.cols
            cols = F.reshape(cols, (groups, per_group, blocks))
            grad_weight = F.reshape(by_group @ F.swapaxes(cols, -1, -2), self.weight_shape)
        if follow_input is not None:
            matrix = F.reshape(F.value(weight), (groups, out_channels // groups, per_group))
            grad_cols = F.reshape(F.swapaxes(matrix, -1, -2) @ by_group, (groups * per_group, blocks))
            image = F.permute(col2im(F, grad_cols, windows), (3, 0, 1, 2))  # (C, H, W, N) -> (N, C, H, W)
            grad_input = F.reshape(image, tuple(input.shape))
        if follow_bias is not None:
            grad_bias = F.sum(grad, (0,) + tuple(range(2, grad.ndim)), False)
        return grad_input, grad_weight, grad_bias


def _shown(windows: Windows, dims: int, extra: dict) -> dict:
    """A window's settings as PyTorch's repr writes them: kernel and stride always, padding,
    dilation and ``extra`` when not their defaults."""
    keep = slice(2 - dims, None)
    shown = {"kernel_size": windows.kernel[keep], "stride": windows.stride[keep]}
    pads = windows.padding[keep]
    if any(before or after for before, after in pads):
        shown["padding"] = tuple(before if before == after else (before, after) for before, after in pads)
    if any(d != 1 for d in windows.dilation):
        shown["dilation"] = windows.dilation[keep]
    shown.update({name: value for name, value in extra.items() if value not in (1, False, None)})
    return shown


def _convolve(input, weight, bias, stride, padding, dilation, groups, dims: int):
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to conv{dims}d, "
                           f"but got input of size: {list(input.shape)}")
    if input._data.dtype.kind != "f" and bias is not None and bias.requires_grad and state.grad_enabled:
        # the output takes the input's integer dtype, which cannot carry a gradient
        raise RuntimeError(f"Autograd not support dtype: {scalar_type_name(input._data)}")
    if input.ndim == dims + 1:  # one sample, as PyTorch draws it: a batch of one, squeezed after
        return Convolution.apply(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups,
                                 dims).squeeze(0)
    return Convolution.apply(input, weight, bias, stride, padding, dilation, groups, dims)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D convolution (cross-correlation, as in PyTorch) of (N, C, L) by (O, C/groups, k)."""
    return _convolve(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D convolution (cross-correlation, as in PyTorch) of (N, C, H, W) by (O, C/groups, kH, kW).

    >>> import ag_jupyter as ag
    >>> import ag_jupyter.nn.functional as F
    >>> x = ag.arange(16.0).reshape(1, 1, 4, 4).requires_grad_()
    >>> y = F.conv2d(x, ag.ones(1, 1, 2, 2), padding=1)
    >>> y.shape, y.grad_fn.name()
    (ag.Size([1, 1, 5, 5]), 'ConvolutionBackward0')
    """
    return _convolve(input, weight, bias, stride, padding, dilation, groups, 2)
