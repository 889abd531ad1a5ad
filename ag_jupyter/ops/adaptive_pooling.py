"""Adaptive max pooling (``AdaptiveMaxPool2DBackward0``): the largest entry of each of the
``output_size`` windows that tile the input, PyTorch's windows from ``floor(i*H/Ho)`` to
``ceil((i+1)*H/Ho)`` (neighbouring windows may share a row when the sizes do not divide).

The forward finds each window's maximum and where it lies (one pass per output position, each
over the whole batch and every channel, never per pixel); the result is then a gather of the
input at those positions, and the backward that gather's adjoint, an ``index_add`` (a position
that is the maximum of two windows gets both gradients), the same in both algebras."""
from __future__ import annotations

from ..autograd.function import Op
from ..backend import array_module
from ..core import _wrap
from .pooling import adaptive_size, refuse_dtype


def _bounds(size: int, out: int) -> list:
    return [((i * size) // out, -((-(i + 1) * size) // out)) for i in range(out)]


def _argmax_positions(x, out_size: tuple):
    """(lead, Ho, Wo) flat positions (row * W + column) of each window's first maximum."""
    xp = array_module(x)
    height, width = x.shape[-2:]
    lead = x.reshape((-1, height, width))
    positions = xp.empty((lead.shape[0],) + out_size, dtype=xp.int64)
    for i, (top, bottom) in enumerate(_bounds(height, out_size[0])):
        for j, (left, right) in enumerate(_bounds(width, out_size[1])):
            window = lead[:, top:bottom, left:right].reshape(lead.shape[0], -1)
            found = window.argmax(axis=1)
            positions[:, i, j] = (top + found // (right - left)) * width + left + found % (right - left)
    return positions


class AdaptiveMaxPool2d(Op):
    """The largest entry of each adaptive window; its gradient goes to that one position."""

    __slots__ = ("key", "in_shape", "out_size")
    node_name = "AdaptiveMaxPool2DBackward0"
    symbol = "adaptive max pool"
    formula = (r"u_p = \max_{q \in \text{window}(p)} a_q:\quad \frac{\partial u_p}{\partial a_q} = "
               r"[q = \operatorname{argmax}]")

    def forward(self, input, output_size, indices_out=None):
        x = input._data
        if x.ndim not in (3, 4) or 0 in x.shape[-2:] or (x.ndim == 4 and x.shape[1] == 0):
            raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {list(x.shape)}")
        refuse_dtype("adaptive_max_pool2d", x, "b", "i", "u")
        out_size = adaptive_size(x, output_size)
        positions = _argmax_positions(x, out_size)
        self.key = (array_module(x).arange(positions.shape[0])[:, None, None], positions)
        self.in_shape, self.out_size = x.shape, out_size
        if indices_out is not None:  # return_indices: the caller's list receives them (apply returns one tensor)
            indices_out.append(positions.reshape(x.shape[:-2] + out_size))
        return x.reshape(positions.shape[0], -1)[self.key].reshape(x.shape[:-2] + out_size)

    def constants(self) -> dict:
        return {"output_size": self.out_size}

    def backward(self, F, grad):
        lead = self.key[1].shape
        rows = F.index_add(F.reshape(grad, lead), self.key, (lead[0], self.in_shape[-2] * self.in_shape[-1]))
        return (F.reshape(rows, self.in_shape),)


def adaptive_max_pool2d(input, output_size, return_indices: bool = False):
    """The largest entry of each adaptive window (``return_indices``: also where, as row * W + column)."""
    if not return_indices:
        return AdaptiveMaxPool2d.apply(input, output_size)
    found: list = []
    out = AdaptiveMaxPool2d.apply(input, output_size, found)
    return out, _wrap(found[0], False, None)
