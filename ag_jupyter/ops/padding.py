"""``F.pad``: constant, reflect, replicate and circular padding, one node each as PyTorch draws
it (``ConstantPadNdBackward0``, ``ReflectionPad2DBackward0``, ``ReplicationPad1DBackward0``...).

Each mode reads the input through one index key: a slice per dimension for constant padding
(the padded output holds the input in a box, a negative pad crops), or per padded dimension an
array of the source position of each output position (reflected, clamped, or wrapped), which
NumPy's advanced indexing reads in one gather. The backward is that key's adjoint, an
``index_add`` (repeated sources add up), the same in both algebras, so ``create_graph`` works.
"""
from __future__ import annotations

import numpy

from ..autograd.function import Op
from ..backend import array_module

_MODES = ("constant", "reflect", "replicate", "circular")
_COMBINATIONS = ("Supported combinations for non-constant padding:\n"
                 "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                 "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                 "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def _pairs(pad, ndim: int) -> list:
    """``pad`` (last dimension first, before then after) as (dim, before, after), checked as PyTorch."""
    pad = [int(p) for p in pad]
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > ndim:
        raise RuntimeError(f"Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {ndim}")
    return [(ndim - 1 - k, pad[2 * k], pad[2 * k + 1]) for k in range(len(pad) // 2)]


def _sources(mode: str, size: int, before: int, after: int):
    """For each output position along one dimension, the input position it copies."""
    positions = numpy.arange(-before, size + after)
    if mode == "replicate":
        return numpy.clip(positions, 0, size - 1)
    if mode == "circular":  # as PyTorch: a negative pad crops first, and the wrapping reads the cropped part
        start, kept = max(-before, 0), size - max(-before, 0) - max(-after, 0)
        return start + numpy.arange(-max(before, 0), kept + max(after, 0)) % max(kept, 1)
    period = 2 * (size - 1) if size > 1 else 1  # reflect: mirror about the first and last entries
    folded = numpy.abs(positions) % period
    return numpy.where(folded >= size, period - folded, folded)


def _check_mode(mode: str, x, pairs: list, value) -> None:
    if mode not in _MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode == "constant":
        return
    if value not in (None, 0, 0.0):
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    dims = len(pairs)
    if dims not in (1, 2, 3) or x.ndim not in (dims + 1, dims + 2):
        raise NotImplementedError(f"Padding size {2 * dims} is not supported for {x.ndim}D input tensor.\n"
                                  + _COMBINATIONS)
    for dim, before, after in pairs:
        size = x.shape[dim]
        if mode == "reflect" and (before >= size or after >= size):
            raise RuntimeError(f"Argument #{2 * dims + 2}: Padding size should be less than the corresponding "
                               f"input dimension, but got: padding ({before}, {after}) at dimension {dim} of "
                               f"input {list(x.shape)}")
        if mode == "circular" and (before > size or after > size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if dims == 1 and mode != "circular" and size + before + after < 1:  # PyTorch's 1-D kernels refuse it
            raise RuntimeError(f"input (W: {size}) is too small. Calculated output W: {size + before + after}")
        if size + before + after < 0:
            raise RuntimeError(f"input tensor of shape {list(x.shape)} padded by ({before}, {after}) at dimension "
                               f"{dim} would have a negative size")
    if mode != "circular" and x.dtype.kind == "b":  # after the shape checks, as PyTorch's kernels
        kernel = "reflection" if mode == "reflect" else "replication"
        raise NotImplementedError(f"\"{kernel}_pad{dims}d\" not implemented for 'Bool'")


class Pad(Op):
    """The input in a larger (or cropped) box, the border filled by the mode."""

    __slots__ = ("key", "inner", "in_shape", "mode", "dims", "pads", "value")
    node_name = "ConstantPadNdBackward0"
    symbol = "pad"
    formula = (r"u_p = a_{\mathrm{src}(p)}\ \text{(or the constant)}:\quad \frac{\partial L}{\partial a_q} = "
               r"\textstyle\sum_{p:\ \mathrm{src}(p) = q} \frac{\partial L}{\partial u_p}")

    def name(self) -> str:
        # PyTorch's circular padding is a composite (its last node CopySlices); here it is one node
        kind = {"reflect": "ReflectionPad", "replicate": "ReplicationPad", "circular": "CircularPad"}.get(self.mode)
        return self.node_name if kind is None else f"{kind}{self.dims}DBackward0"

    def forward(self, input, pad, mode, value):
        x = input._data
        pairs = _pairs(pad, x.ndim)
        _check_mode(mode, x, pairs, value)
        xp = array_module(x)
        self.in_shape, self.mode, self.dims, self.pads = x.shape, mode, len(pairs), tuple(pad)
        self.value = value if mode == "constant" and value else None
        out_shape = list(x.shape)
        for dim, before, after in pairs:
            out_shape[dim] += before + after
            if mode == "constant" and x.shape[dim] - max(-before, 0) - max(-after, 0) < 0:
                raise RuntimeError("narrow(): length must be non-negative.")  # cropped past the input's end
        if mode == "constant":
            # the part of the input kept (``key``) and where it lands in the output (``inner``)
            key, inner = [slice(None)] * x.ndim, [slice(None)] * x.ndim
            for dim, before, after in pairs:
                size = x.shape[dim]
                key[dim] = slice(max(-before, 0), size - max(-after, 0))
                inner[dim] = slice(max(before, 0), max(before, 0) + max(size - max(-before, 0) - max(-after, 0), 0))
            self.key, self.inner = tuple(key), tuple(inner)
            fill = 0 if value is None else value
            out = xp.full(tuple(out_shape), fill, dtype=x.dtype)
            out[self.inner] = x[self.key]
            return out
        padded = [dim for dim, _, _ in pairs]
        key = []
        for dim in range(x.ndim):
            if dim not in padded:
                key.append(xp.arange(x.shape[dim]).reshape((-1,) + (1,) * (x.ndim - 1 - dim)))
                continue
            _, before, after = pairs[padded.index(dim)]
            source = _sources(mode, x.shape[dim], before, after)
            key.append(xp.asarray(source).reshape((-1,) + (1,) * (x.ndim - 1 - dim)))
        self.key, self.inner = tuple(key), None
        return x[self.key]

    def constants(self) -> dict:
        shown = {"pad": self.pads}
        if self.mode != "constant":
            shown["mode"] = self.mode
        if self.value is not None:
            shown["value"] = self.value
        return shown

    def backward(self, F, grad):
        if self.inner is None:
            return (F.index_add(grad, self.key, self.in_shape),)
        return (F.index_add(grad[self.inner], self.key, self.in_shape),)


def pad(input, pad, mode: str = "constant", value=None):
    """``F.pad``: ``pad`` lists (before, after) per dimension from the last one backwards."""
    return Pad.apply(input, tuple(pad), mode, value)
