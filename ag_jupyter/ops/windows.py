"""Sliding windows over the last two dimensions, shared by convolution and pooling.

``Windows`` says where the windows lie (kernel, stride, dilation, padding on each side,
input and output sizes). ``im2col`` lays every window out as a column through a strided
view and one copy, so a convolution is one matrix product; ``col2im``, its adjoint, adds
columns back onto the image with one strided add per kernel offset (a loop over kh*kw
offsets, never over pixels). As ops (``Im2Col``, ``Col2Im``: PyTorch's ``F.unfold`` and
``F.fold``) each is the other's backward, which is what lets a convolution's or a
pooling's backward be differentiated again under ``create_graph``. One-dimensional data
goes through the same code as an image one row high.
"""
from __future__ import annotations

import math
from typing import NamedTuple

from ..autograd.function import Op
from ..backend import array_module
from ..dtypes import scalar_type_name


class Windows(NamedTuple):
    """Where the windows of a convolution or pooling lie on an array whose spatial
    dimensions are ``axis`` and ``axis + 1``: (N, C, H, W) with axis 2, PyTorch's layout, or
    (C, H, W, N) with axis 1, the layout convolution computes in (see ``convolution.py``)."""

    kernel: tuple  # (kh, kw)
    stride: tuple
    dilation: tuple
    padding: tuple  # ((top, bottom), (left, right)): 'same' and ceil_mode pad unevenly
    size: tuple  # the input's (H, W)
    out: tuple  # (Ho, Wo)
    axis: int = 2


def spatial(value, dims: int, name: str, message=None) -> tuple:
    """An int or a sequence of ``dims`` ints as a tuple of ``dims`` ints; PyTorch's wording
    when it is neither (``message`` overrides it)."""
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        return (value,) * dims
    values = tuple(value) if isinstance(value, (tuple, list)) else None
    if values is None or len(values) != dims or not all(isinstance(v, int) for v in values):
        if message is not None:
            raise RuntimeError(message)
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dims} values to "
                           f"match the convolution dimensions, but got {name}={list(values or [value])}")
    return values


def as_image(shape: tuple, dims: int) -> tuple:
    """A batched (N, C, *spatial) shape as (N, C, H, W): 1-D data is an image one row high."""
    return shape if dims == 2 else shape[:2] + (1,) + shape[2:]


def as_pair(values: tuple, fill: int) -> tuple:
    """Per-dimension settings of 1-D data for its one-row image (``fill`` for the row)."""
    return values if len(values) == 2 else (fill,) + values


def _padded(x, windows: Windows, fill):
    """``x`` with its padding, ``fill`` in it (``x`` itself when there is none)."""
    (top, bottom), (left, right) = windows.padding
    if not (top or bottom or left or right):
        return x
    axis = windows.axis
    shape = list(x.shape)
    shape[axis] += top + bottom
    shape[axis + 1] += left + right
    padded = array_module(x).full(tuple(shape), fill, dtype=x.dtype)
    inside = (slice(None),) * axis + (slice(top, top + x.shape[axis]), slice(left, left + x.shape[axis + 1]))
    padded[inside] = x
    return padded


def window_view(x, windows: Windows, fill):
    """The windows of ``x``, padded with ``fill``, as a strided view: (N, C, kh, kw, Ho, Wo) for
    axis 2, (C, kh, kw, Ho, Wo, N) for axis 1. Nothing is copied but the padding."""
    x = _padded(x, windows, fill)
    axis = windows.axis
    (dh, dw), (sh, sw) = windows.dilation, windows.stride
    h_stride, w_stride = x.strides[axis:axis + 2]
    shape = x.shape[:axis] + windows.kernel + windows.out + x.shape[axis + 2:]
    strides = x.strides[:axis] + (h_stride * dh, w_stride * dw, h_stride * sh, w_stride * sw) + \
        x.strides[axis + 2:]
    return array_module(x).lib.stride_tricks.as_strided(x, shape, strides)


def unfold_array(x, windows: Windows):
    """im2col with zero padding, one copy: (N, C, H, W) -> (N, C*kh*kw, Ho*Wo) for axis 2,
    (C, H, W, N) -> (C*kh*kw, Ho*Wo*N) for axis 1."""
    kk, blocks = math.prod(windows.kernel), math.prod(windows.out)
    view = window_view(x, windows, 0)
    if windows.axis == 2:
        return view.reshape(x.shape[0], x.shape[1] * kk, blocks)
    return view.reshape(x.shape[0] * kk, blocks * x.shape[-1])


def fold_array(cols, windows: Windows):
    """col2im, the adjoint of ``unfold_array``: each column's entries added back where its
    window took them from, one strided add per kernel offset."""
    xp = array_module(cols)
    (kh, kw), (ho, wo) = windows.kernel, windows.out
    (dh, dw), (sh, sw) = windows.dilation, windows.stride
    (top, bottom), (left, right) = windows.padding
    h, w = windows.size
    padded = (h + top + bottom, w + left + right)
    if windows.axis == 2:
        n, c = cols.shape[0], cols.shape[1] // (kh * kw)
        taken, image = cols.reshape(n, c, kh, kw, ho, wo), xp.zeros((n, c) + padded, dtype=cols.dtype)
    else:
        c, n = cols.shape[0] // (kh * kw), cols.shape[1] // (ho * wo)
        taken, image = cols.reshape(c, kh, kw, ho, wo, n), xp.zeros((c,) + padded + (n,), dtype=cols.dtype)
    lead = (slice(None),) * windows.axis
    for i in range(kh):
        rows = slice(i * dh, i * dh + sh * (ho - 1) + 1, sh)
        for j in range(kw):
            image[lead + (rows, slice(j * dw, j * dw + sw * (wo - 1) + 1, sw))] += taken[lead + (i, j)]
    if top or bottom or left or right:
        return xp.ascontiguousarray(image[lead + (slice(top, top + h), slice(left, left + w))])
    return image


def im2col(F, x, windows: Windows):
    """``unfold_array`` in the algebra ``F``: a recorded op under ``create_graph``."""
    return Im2Col.apply(x, windows) if F.records else unfold_array(x, windows)


def col2im(F, cols, windows: Windows):
    """``fold_array`` in the algebra ``F``."""
    return Col2Im.apply(cols, windows) if F.records else fold_array(cols, windows)


def _refuse_integers(kernel: str, x) -> None:
    if x.dtype.kind in "iu":  # PyTorch has no integer kernel for these (bools it has)
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{scalar_type_name(x)}'")


def spread(F, values, windows: Windows, picks=None):
    """The backward of pooling: each window's value (N, C, Ho, Wo) added to every position of
    its window, or with ``picks`` (per kernel offset ``i*kw + j``, a mask of the windows that
    took it) only where the mask holds; (N, C, H, W) out. On arrays, one add per kernel offset
    straight into the image; under ``create_graph``, ``Col2Im`` of the columns it amounts to."""
    (kh, kw), (ho, wo) = windows.kernel, windows.out
    n, c = values.shape[:2]
    if F.records:
        cols = F.reshape(values, (n, c, 1, ho * wo))
        if picks is None:
            cols = F.expand(cols, (n, c, kh * kw, ho * wo))
        else:
            cols = F.masked(cols, F.constant(array_module(picks[0]).stack(picks, 2).reshape(n, c, -1, ho * wo)))
        return Col2Im.apply(F.reshape(cols, (n, c * kh * kw, ho * wo)), windows)
    xp = array_module(values)
    (dh, dw), (sh, sw) = windows.dilation, windows.stride
    (top, bottom), (left, right) = windows.padding
    h, w = windows.size
    image = xp.zeros((n, c, h + top + bottom, w + left + right), dtype=values.dtype)
    # a product by each mask, not ufunc where= (10x slower in NumPy), unless an inf or NaN
    # would then reach the windows that did not take the offset (inf * 0); checked once.
    # Windows that do not overlap (max pooling's usual stride) write their part in place.
    finite = picks is None or bool(xp.isfinite(values).all())
    apart = all(s >= d * (k - 1) + 1 for k, s, d in zip(windows.kernel, windows.stride, windows.dilation))
    taken = None if picks is None or apart or not finite else xp.empty_like(values)
    for i in range(kh):
        rows = slice(i * dh, i * dh + sh * (ho - 1) + 1, sh)
        for j in range(kw):
            target = image[:, :, rows, j * dw:j * dw + sw * (wo - 1) + 1:sw]
            if picks is None:
                target += values
            elif not finite:
                target += xp.where(picks[i * kw + j], values, 0)
            elif apart:
                xp.multiply(values, picks[i * kw + j], out=target)
            else:
                target += xp.multiply(values, picks[i * kw + j], out=taken)
    if top or bottom or left or right:
        return xp.ascontiguousarray(image[:, :, top:top + h, left:left + w])
    return image


class Im2Col(Op):
    """Every window of an (N, C, H, W) input as a column (``F.unfold``)."""

    __slots__ = ("windows",)
    node_name = "Im2ColBackward0"
    symbol = "im2col"
    formula = (r"u_{(c,i,j),\,p} = a_{c,\;s p + d (i,j)}:\quad "
               r"\frac{\partial L}{\partial a} = \operatorname{col2im}\frac{\partial L}{\partial u}")

    def forward(self, input, windows):
        _refuse_integers("im2col_out_cpu", input._data)
        self.windows = windows
        return unfold_array(input._data, windows)

    def backward(self, F, grad):
        return (col2im(F, grad, self.windows),)


class Col2Im(Op):
    """Columns added back onto an (N, C, H, W) image (``F.fold``)."""

    __slots__ = ("windows",)
    node_name = "Col2ImBackward0"
    symbol = "col2im"
    formula = (r"u_{c,\,q} = \textstyle\sum_{(i,j),\,p:\; s p + d (i,j) = q} a_{(c,i,j),\,p}:\quad "
               r"\frac{\partial L}{\partial a} = \operatorname{im2col}\frac{\partial L}{\partial u}")

    def forward(self, input, windows):
        _refuse_integers("col2im_out_cpu", input._data)
        self.windows = windows
        return fold_array(input._data, windows)

    def backward(self, F, grad):
        return (im2col(F, grad, self.windows),)


def place(size: tuple, kernel: tuple, stride: tuple, padding: tuple, dilation: tuple) -> Windows:
    """Windows with the same padding on both sides of each dimension (``padding``: one int
    per dimension), checked as ``F.unfold`` and ``F.fold`` check them."""
    for name, values, least in (("kernel_size", kernel, 1), ("stride", stride, 1),
                                ("dilation", dilation, 1), ("padding", padding, 0)):
        if any(v < least for v in values):
            raise RuntimeError(f"{name} should be {'greater than zero' if least else 'non-negative'}, "
                               f"but got {name}: {list(values)}")
    out = tuple((s + 2 * p - d * (k - 1) - 1) // st + 1
                for s, k, st, p, d in zip(size, kernel, stride, padding, dilation))
    if any(o < 1 for o in out):
        raise RuntimeError(f"Given input with spatial size {list(size)}, kernel_size={list(kernel)}, "
                           f"dilation={list(dilation)}, padding={list(padding)}, calculated shape of the "
                           f"array of sliding blocks as {list(out)}, but its components must be at least one.")
    return Windows(kernel, stride, dilation, tuple((p, p) for p in padding), tuple(size), out)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """``F.unfold``: every kernel-sized block of an (N, C, H, W) input as a column,
    (N, C*kh*kw, L); the im2col a convolution multiplies. A (C, H, W) input is one sample."""
    if input.ndim not in (3, 4):
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other "
                           f"non-zero dimensions for input, but got: {list(input.shape)}")
    if input.ndim == 3:
        return unfold(input.unsqueeze(0), kernel_size, dilation, padding, stride).squeeze(0)
    windows = place(tuple(input.shape[2:]), spatial(kernel_size, 2, "kernel_size"),
                    spatial(stride, 2, "stride"), spatial(padding, 2, "padding"), spatial(dilation, 2, "dilation"))
    return Im2Col.apply(input, windows)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """``F.fold``: columns (N, C*kh*kw, L) summed back onto an (N, C, *output_size) image
    (a (C*kh*kw, L) input is one sample)."""
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
                           f"non-zero dimensions for input, but got: {list(input.shape)}")
    if input.ndim == 2:
        return fold(input.unsqueeze(0), output_size, kernel_size, dilation, padding, stride).squeeze(0)
    kernel = spatial(kernel_size, 2, "kernel_size")
    windows = place(spatial(output_size, 2, "output_size"), kernel, spatial(stride, 2, "stride"),
                    spatial(padding, 2, "padding"), spatial(dilation, 2, "dilation"))
    rows, blocks = input.shape[1], input.shape[2]
    if rows % math.prod(kernel) or blocks != math.prod(windows.out):
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the product of "
                           f"kernel_size ({math.prod(kernel)}) and its dimension 2 to match the calculated "
                           f"number of sliding blocks {math.prod(windows.out)}, but got input.size(1)={rows} "
                           f"and input.size(2)={blocks}.")
    return Col2Im.apply(input, windows)
