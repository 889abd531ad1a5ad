"""Diagonals and triangles of matrices: ``diagonal``, ``diag``, ``trace``, ``tril``, ``triu``."""
from __future__ import annotations

from ..autograd.function import Op
from ..autograd.views import ViewOp
from ..backend import array_module
from ..promotion import kernel_for
from .dims import normalize_dim


def _diagonal_places(rows: int, cols: int, offset: int, xp):
    """Row and column indices of the ``offset`` diagonal of a rows x cols matrix."""
    count = max(0, min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols))
    start_row, start_col = (0, offset) if offset >= 0 else (-offset, 0)
    steps = xp.arange(count)
    return steps + start_row, steps + start_col


class Diagonal(ViewOp):
    """``diagonal(offset, dim1, dim2)``: a view, the diagonal as the last dimension."""

    __slots__ = ("order", "places", "moved_shape")
    node_name = "DiagonalBackward0"
    symbol = "diag"
    formula = r"\frac{\partial L}{\partial a} = \text{the gradient on the diagonal, zero elsewhere}"

    def forward(self, a, offset=0, dim1=0, dim2=1):
        x = a._data
        if x.ndim < 2:
            raise RuntimeError(f"diagonal dimensions requires ndim larger than 1, got {x.ndim}")
        d1, d2 = normalize_dim(dim1, x.ndim), normalize_dim(dim2, x.ndim)
        if d1 == d2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
        self.order = tuple(d for d in range(x.ndim) if d not in (d1, d2)) + (d1, d2)
        self.moved_shape = tuple(x.shape[d] for d in self.order)
        self.places = _diagonal_places(x.shape[d1], x.shape[d2], offset, array_module(x))
        out = x.diagonal(offset, d1, d2)
        if not getattr(out.flags, "writeable", True) and x.flags.writeable:  # NumPy's; CuPy's views write
            out.flags.writeable = True  # PyTorch's diagonal is a view one may write through
        return out

    def backward(self, F, grad):
        moved = F.index_add(grad, (Ellipsis,) + self.places, self.moved_shape)
        back = [0] * len(self.order)
        for i, d in enumerate(self.order):
            back[d] = i
        return (F.permute(moved, tuple(back)),)


class DiagEmbed(Op):
    """``diag(vector, k)``: a square matrix with the vector on its k-th diagonal."""

    __slots__ = ("places",)
    node_name = "DiagEmbedBackward0"
    symbol = "diag"
    formula = r"\frac{\partial L}{\partial v} = \text{the gradient read on the diagonal}"

    def forward(self, a, offset=0):
        v = a._data
        size = v.shape[0] + abs(offset)
        xp = array_module(v)
        self.places = _diagonal_places(size, size, offset, xp)
        out = xp.zeros((size, size), dtype=v.dtype)
        out[self.places] = v
        return out

    def backward(self, F, grad):
        return (grad[self.places],)


class Trace(Op):
    __slots__ = ("places", "shape")
    node_name = "TraceBackward0"
    symbol = "tr"
    formula = r"u = \textstyle\sum_i a_{ii}:\quad \frac{\partial u}{\partial a_{ij}} = [i = j]"

    def forward(self, a):
        x = a._data
        if x.ndim != 2:
            raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {x.ndim}")
        kernel_for(x, "trace", "fiu")
        self.shape = x.shape
        self.places = _diagonal_places(x.shape[0], x.shape[1], 0, array_module(x))
        out = x.trace()
        return out.astype("int64") if x.dtype.kind in "biu" else out

    def backward(self, F, grad):
        count = self.places[0].shape[0]
        along = F.expand(F.reshape(grad, (1,)), (count,))
        return (F.index_add(along, self.places, self.shape),)


class Tril(Op):
    """``tril(k)``: entries on and below the k-th diagonal; ``Triu``: on and above."""

    __slots__ = ("kept",)
    node_name = "TrilBackward0"
    symbol = "tril"
    formula = r"\frac{\partial u_{ij}}{\partial a_{ij}} = [j - i \le k]"
    lower = True

    def forward(self, a, diagonal=0):
        x = a._data
        if x.ndim < 2:
            raise RuntimeError(f"{'tril' if self.lower else 'triu'}: input tensor must have at least 2 dimensions")
        xp = array_module(x)
        rows, cols = x.shape[-2:]
        offsets = xp.arange(cols)[None, :] - xp.arange(rows)[:, None]
        self.kept = offsets <= diagonal if self.lower else offsets >= diagonal
        return xp.where(self.kept, x, xp.zeros((), dtype=x.dtype))

    def backward(self, F, grad):
        return (F.masked(grad, F.constant(self.kept)),)


class Triu(Tril):
    __slots__ = ()
    node_name = "TriuBackward0"
    symbol = "triu"
    formula = r"\frac{\partial u_{ij}}{\partial a_{ij}} = [j - i \ge k]"
    lower = False


def diagonal(input, offset=0, dim1=0, dim2=1):
    return Diagonal.apply(input, offset, dim1, dim2)


def diag(input, diagonal=0):
    if input.ndim == 1:
        return DiagEmbed.apply(input, diagonal)
    if input.ndim != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")
    return Diagonal.apply(input, diagonal, 0, 1).clone()


def trace(input):
    return Trace.apply(input)


def tril(input, diagonal=0):
    return Tril.apply(input, diagonal)


def triu(input, diagonal=0):
    return Triu.apply(input, diagonal)
