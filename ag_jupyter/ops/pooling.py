"""Pooling, one node each as in PyTorch: ``MaxPool2DWithIndicesBackward0``,
``AvgPool2DBackward0``, ``AdaptiveAvgPool2DBackward0``.

Max and average pooling look at the windows of ``windows.window_view`` (a strided view,
one copy) and send the gradient back through ``col2im``: to the one position each window
chose, or spread evenly over the window. Adaptive average pooling averages windows of
varying sizes, which is two products with averaging matrices, rows then columns.
"""
from __future__ import annotations

import numpy

from ..autograd.function import Op
from ..backend import array_module
from ..core import _wrap
from ..dtypes import scalar_type_name
from .windows import Windows, as_pair, spatial, spread, window_view


def _pool_size(size: int, kernel: int, stride: int, pad: int, dilation: int, ceil_mode: bool) -> int:
    """PyTorch's ``pooling_output_shape``: with ceil_mode, a last window must start inside the
    input or its left padding."""
    out = (size + 2 * pad - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


_COUNTS = {1: "one", 2: "two"}


def pooling_windows(name: str, x, kernel_size, stride, padding, dilation, ceil_mode: bool, dims: int = 2):
    """The windows of a pooling of ``x`` ((N, C, H, W) or (C, H, W)), checked in PyTorch's words."""
    if x.ndim not in (dims + 1, dims + 2) or 0 in x.shape[-dims:] or (x.ndim == dims + 2 and x.shape[1] == 0):
        raise RuntimeError(f"non-empty {dims + 1}D or {dims + 2}D (batch mode) tensor expected for input")
    shape_error = f"{name}: kernel_size must either be a single int, or a tuple of {_COUNTS[dims]} ints"
    kernel = spatial(kernel_size, dims, "kernel_size", shape_error)
    stride = kernel if stride is None or stride == [] or stride == () else spatial(
        stride, dims, "stride", f"{name}: stride must either be omitted, a single int, or a tuple of "
                                f"{_COUNTS[dims]} ints")
    pads = spatial(padding, dims, "padding", f"{name}: padding must either be a single int, or a tuple of "
                                             f"{_COUNTS[dims]} ints")
    dilation = spatial(dilation, dims, "dilation", f"{name}: dilation must be either a single int, or a tuple "
                                                   f"of {_COUNTS[dims]} ints")
    if any(k <= 0 for k in kernel):
        raise RuntimeError(f"kernel size should be greater than zero, but got kernel: {list(kernel)}")
    if any(s <= 0 for s in stride):
        raise RuntimeError("stride should not be zero")
    if any(p < 0 for p in pads):
        raise RuntimeError(f"pad must be non-negative, but got pad: {min(pads)}")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got dilation: {list(dilation)}")
    for k, p, d in zip(kernel, pads, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation={d}")
    size = tuple(x.shape[-dims:])
    out = tuple(_pool_size(*settings, ceil_mode) for settings in zip(size, kernel, stride, pads, dilation))
    if any(o < 1 for o in out):
        channels = x.shape[-dims - 1]
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, (channels,) + size))}). Calculated output "
                           f"size: ({'x'.join(map(str, (channels,) + out))}). Output size is too small")
    # the last window may reach past the padding (ceil_mode): pad after far enough to hold it
    padding = tuple((p, max(p, (o - 1) * s + d * (k - 1) + 1 - n - p))
                    for n, k, s, p, d, o in zip(size, kernel, stride, pads, dilation, out))
    return Windows(as_pair(kernel, 1), as_pair(stride, 1), as_pair(dilation, 1),
                   ((0, 0),) * (2 - dims) + padding, as_pair(size, 1), as_pair(out, 1))


def refuse_dtype(kernel: str, x, *refused: str) -> None:
    """PyTorch's error for a dtype its CPU kernel lacks; ``refused``: dtype kinds ("b", "i") or names."""
    if x.dtype.kind in refused or x.dtype.name in refused:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{scalar_type_name(x)}'")


def _batched(x):
    """(C, H, W) as a batch of one; (N, C, H, W) as it is."""
    return x if x.ndim == 4 else x[None]


def _constants(windows: Windows, pads: tuple, extra: dict) -> dict:
    shown = {"kernel_size": windows.kernel, "stride": windows.stride}
    if any(pads):
        shown["padding"] = pads
    if any(d != 1 for d in windows.dilation):
        shown["dilation"] = windows.dilation
    shown.update({name: value for name, value in extra.items() if value is not None})
    return shown


class MaxPool2d(Op):
    """The largest entry of each window; its gradient goes to that one position."""

    __slots__ = ("windows", "out", "in_shape", "ceil_mode")
    node_name = "MaxPool2DWithIndicesBackward0"
    symbol = "max pool"
    formula = (r"u_p = \max_{q \in \text{window}(p)} a_q:\quad \frac{\partial u_p}{\partial a_q} = "
               r"[q = \operatorname{argmax}]")

    def forward(self, input, kernel_size, stride, padding, dilation, ceil_mode, indices_out=None):
        x = input._data
        windows = pooling_windows("max_pool2d", x, kernel_size, stride, padding, dilation, ceil_mode)
        refuse_dtype("max_pool2d", x, "b")
        # one maximum per kernel offset, in place: an argmax along the window's axis of a copy
        # of every window took 40x as long on LeNet's first pooling
        view = self._view(x, windows)
        out = view[:, :, 0, 0].copy()
        for i, j in _offsets(windows)[1:]:
            array_module(x).maximum(out, view[:, :, i, j], out=out)  # NaN wins, as in PyTorch
        self.windows, self.out, self.in_shape, self.ceil_mode = windows, out, x.shape, ceil_mode
        self.saved = (input,)
        if indices_out is not None:  # return_indices: the caller's list receives them (apply returns one tensor)
            indices = self._flat_indices(sum(k * pick for k, pick in enumerate(self._picks(view, out))))
            indices_out.append(indices if x.ndim == 4 else indices[0])
        return out if x.ndim == 4 else out[0]

    @staticmethod
    def _view(x, windows):
        fill = -numpy.inf if x.dtype.kind == "f" else numpy.iinfo(x.dtype).min
        return window_view(_batched(x), windows, fill)

    def _picks(self, view, out) -> list:
        """Per kernel offset, a mask of the windows that took their maximum there: the first
        offset holding it (for a window whose maximum is NaN, its last NaN), never a padded
        position, as PyTorch chooses."""
        xp = array_module(out)
        inside = _inside(self.windows, xp)
        offsets = _offsets(self.windows)
        taken = xp.zeros(out.shape, dtype=bool)
        picks = []
        for k, (i, j) in enumerate(offsets):
            hit = view[:, :, i, j] == out
            if inside is not None:
                hit &= inside[k]
            hit &= ~taken
            taken |= hit
            picks.append(hit)
        if out.dtype.kind == "f":
            missing = xp.isnan(out)
            if missing.any():
                for k in reversed(range(len(offsets))):
                    last = missing & xp.isnan(view[:, :, offsets[k][0], offsets[k][1]])
                    picks[k] |= last
                    missing &= ~last
        return picks

    def _flat_indices(self, chosen):
        """PyTorch's indices: each chosen position as row * W + column of the unpadded input."""
        xp = array_module(chosen)
        windows = self.windows
        (_, kw), (ho, wo), (sh, sw), (dh, dw) = windows.kernel, windows.out, windows.stride, windows.dilation
        (top, _), (left, _) = windows.padding
        chosen = xp.asarray(chosen, dtype=xp.int64)
        i, j = chosen // kw, chosen % kw
        rows = xp.arange(ho)[:, None] * sh - top + i * dh
        cols = xp.arange(wo) * sw - left + j * dw
        return rows * windows.size[1] + cols

    def constants(self) -> dict:
        return _constants(self.windows, tuple(top for top, _ in self.windows.padding),
                          {"ceil_mode": self.ceil_mode or None})

    def backward(self, F, grad):
        (input,) = self.saved
        picks = self._picks(self._view(input._data, self.windows), self.out)
        grad = grad if len(self.in_shape) == 4 else F.reshape(grad, (1,) + tuple(grad.shape))
        return (F.reshape(spread(F, grad, self.windows, picks), self.in_shape),)


def _offsets(windows: Windows) -> list:
    return [(i, j) for i in range(windows.kernel[0]) for j in range(windows.kernel[1])]


def _inside(windows: Windows, xp):
    """Per kernel offset, which windows see the input there rather than padding (None: all),
    as arrays of ``xp``."""
    if not any(before or after for before, after in windows.padding):
        return None
    (ho, wo), (sh, sw), (dh, dw) = windows.out, windows.stride, windows.dilation
    (top, _), (left, _) = windows.padding
    rows = numpy.arange(ho)[:, None] * sh - top
    cols = numpy.arange(wo) * sw - left
    h, w = windows.size
    return [xp.asarray((rows + i * dh >= 0) & (rows + i * dh < h) & (cols + j * dw >= 0) & (cols + j * dw < w))
            for i, j in _offsets(windows)]


def _divisors(size: int, kernel: int, stride: int, pad: int, out: int, include_pad: bool):
    """How many entries each window of one dimension averages, as PyTorch counts them: up to the
    padding's end with ``count_include_pad``, else only the input's own."""
    starts = numpy.arange(out) * stride - pad
    ends = numpy.minimum(starts + kernel, size + pad)
    if include_pad:
        return ends - starts
    return numpy.minimum(ends, size) - numpy.maximum(starts, 0)


class AvgPool2d(Op):
    """The mean of each window; its gradient is spread evenly over the window."""

    __slots__ = ("windows", "divisor", "in_shape", "settings")
    node_name = "AvgPool2DBackward0"
    symbol = "avg pool"
    formula = (r"u_p = \tfrac{1}{n_p}\textstyle\sum_{q \in \text{window}(p)} a_q:\quad "
               r"\frac{\partial u_p}{\partial a_q} = \tfrac{1}{n_p}")

    def forward(self, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
        x = input._data
        windows = pooling_windows("avg_pool2d", x, kernel_size, stride, padding, 1, ceil_mode)
        refuse_dtype("avg_pool2d", x, "b", "int32")
        if divisor_override is not None and divisor_override == 0:
            raise RuntimeError("divisor must be not zero")
        xp = array_module(x)
        sums = window_view(_batched(x), windows, 0).sum(axis=(2, 3))
        if divisor_override is not None:
            divisor = numpy.full(windows.out, divisor_override)
        else:
            counts = [_divisors(n, k, s, pads[0], o, count_include_pad) for n, k, s, pads, o in
                      zip(windows.size, windows.kernel, windows.stride, windows.padding, windows.out)]
            divisor = counts[0][:, None] * counts[1]
            divisor[divisor == 0] = 1  # a window wholly in the padding: its sum is 0, as is PyTorch's mean
        self.windows, self.in_shape = windows, x.shape
        # what the trace shows beside the window: settings that are not their defaults
        self.settings = {"ceil_mode": ceil_mode or None, "count_include_pad": None if count_include_pad else False,
                         "divisor_override": divisor_override}
        if x.dtype.kind == "f":
            self.divisor = xp.asarray(divisor.astype(x.dtype))
            out = sums / self.divisor
        else:  # integers: PyTorch divides in integers, rounding towards zero
            out = xp.trunc(sums / xp.asarray(divisor)).astype(x.dtype)
        return out if x.ndim == 4 else out[0]

    def constants(self) -> dict:
        return _constants(self.windows, tuple(top for top, _ in self.windows.padding), self.settings)

    def backward(self, F, grad):
        grad = grad if len(self.in_shape) == 4 else F.reshape(grad, (1,) + tuple(grad.shape))
        return (F.reshape(spread(F, grad / F.constant(self.divisor), self.windows), self.in_shape),)


def _averaging(size: int, out: int, dtype, xp):
    """(out, size): row i averages PyTorch's adaptive window i, from floor(i*size/out) to
    ceil((i+1)*size/out)."""
    matrix = numpy.zeros((out, size))
    for i in range(out):  # one row per output position, not per pixel
        start, end = (i * size) // out, -((-(i + 1) * size) // out)
        matrix[i, start:end] = 1.0 / (end - start)
    return xp.asarray(matrix.astype(dtype))


class AdaptiveAvgPool2d(Op):
    """Averages over ``output_size`` windows that tile the input: ``rows @ a @ columnsᵀ``."""

    __slots__ = ("rows", "columns")
    node_name = "AdaptiveAvgPool2DBackward0"
    symbol = "adaptive avg pool"
    formula = (r"u = R\, a\, C^\top:\quad \frac{\partial L}{\partial a} = R^\top "
               r"\frac{\partial L}{\partial u}\, C")

    def forward(self, input, output_size):
        x = input._data
        out = adaptive_size(x, output_size)
        refuse_dtype("adaptive_avg_pool2d", x, "b", "i")
        xp = array_module(x)
        self.rows = _averaging(x.shape[-2], out[0], x.dtype, xp)
        self.columns = _averaging(x.shape[-1], out[1], x.dtype, xp)
        return self.rows @ x @ self.columns.T

    def constants(self) -> dict:
        return {"output_size": (self.rows.shape[0], self.columns.shape[0])}

    def backward(self, F, grad):
        return (F.constant(self.rows.T) @ grad @ F.constant(self.columns),)


def adaptive_size(x, output_size) -> tuple:
    """``output_size`` as (Ho, Wo), a None keeping the input's size, checked as PyTorch does."""
    if x.ndim not in (3, 4) or 0 in x.shape[-2:] or (x.ndim == 4 and x.shape[1] == 0):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(x.shape)}")
    sizes = (output_size, output_size) if output_size is None or isinstance(output_size, int) else \
        tuple(output_size)
    if len(sizes) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    sizes = tuple(x.shape[-2 + k] if s is None else s for k, s in enumerate(sizes))
    if any(s < 0 for s in sizes):
        raise RuntimeError(f"adaptive_avg_pool2d: elements of output_size must be greater than or equal "
                           f"to 0 but received {list(sizes)}")
    return sizes


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The largest entry of each window (``return_indices``: also where, as row * W + column)."""
    if not return_indices:
        return MaxPool2d.apply(input, kernel_size, stride, padding, dilation, ceil_mode)
    found: list = []
    out = MaxPool2d.apply(input, kernel_size, stride, padding, dilation, ceil_mode, found)
    return out, _wrap(found[0], False, None)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """As PyTorch draws it: ``max_pool2d`` of the data seen one row high, squeezed after."""
    if input.ndim not in (2, 3) or 0 in tuple(input.shape[-1:]):
        raise RuntimeError(f"max_pool1d() Expected 2D or 3D input tensor, but got {list(input.shape)}")
    if not return_indices:  # PyTorch's max_pool1d without indices has no kernel for integers
        refuse_dtype("max_pool1d_impl", input._data, "b", "i")
    one = spatial(kernel_size, 1, "kernel_size", "max_pool1d() kernel_size must be an int, list of ints "
                                                 "or tuple of ints of size 1")
    steps = None if stride is None or stride == [] or stride == () else (1,) + spatial(stride, 1, "stride")
    result = max_pool2d(input.unsqueeze(-2), (1,) + one, steps, (0,) + spatial(padding, 1, "padding"),
                        (1,) + spatial(dilation, 1, "dilation"), ceil_mode, return_indices)
    if return_indices:
        return result[0].squeeze(-2), result[1].squeeze(-2)
    return result.squeeze(-2)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each window (``count_include_pad``: padding counts in the divisor)."""
    return AvgPool2d.apply(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def adaptive_avg_pool2d(input, output_size):
    """Average over the windows that tile the input into ``output_size``; (1, 1) is a mean over
    the image, as in PyTorch (``MeanBackward1``)."""
    if adaptive_size(input._data, output_size) == (1, 1):
        return input.mean((-2, -1), keepdim=True)
    return AdaptiveAvgPool2d.apply(input, output_size)
