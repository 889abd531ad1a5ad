"""The Tensor methods of the op families a PyTorch course reaches past the basics: rounding
and division, logs and powers, trigonometry, cumulative ops, sorting, gather/scatter,
rearranging, diagonals, more products, and the ``new_*`` constructors. Each calls the
function of the same name in ``ops/`` (``ag.cumsum(x, 0)`` is ``x.cumsum(0)``)."""
from __future__ import annotations

import numpy

from . import backend, dtypes
from .core import TENSOR_TYPES, _wrap
from .ops import (
    cumulative,
    diagonals,
    gather,
    histograms,
    interpolation,
    linalg,
    powers_and_logs,
    rearrange,
    rounding,
    sorting,
    trigonometric,
)
from .ops.binary import Pow
from .ops.unary import Clamp, ClampMax, ClampMin
from .tensor_inplace import inplace


class TensorFamilies:
    __slots__ = ()

    # ----- rounding, sign and the divisions that round ------------------------------
    def floor(self):
        return rounding.Floor.apply(self)

    def ceil(self):
        return rounding.Ceil.apply(self)

    def trunc(self):
        return rounding.Trunc.apply(self)

    fix = trunc

    def round(self, *, decimals=None):
        return rounding.Round.apply(self, decimals)

    def frac(self):
        return rounding.Frac.apply(self)

    def sign(self):
        return rounding.Sign.apply(self)

    def sgn(self):
        return rounding.Sgn.apply(self)

    def floor_divide(self, other):
        return rounding.FloorDivide.apply(self, other)

    def remainder(self, other):
        return rounding.Remainder.apply(self, other)

    def fmod(self, other):
        return rounding.Fmod.apply(self, other)

    def __floordiv__(self, other):
        return rounding.FloorDivide.apply(self, other)

    def __rfloordiv__(self, other):
        return rounding.FloorDivide.apply(other, self)

    def __mod__(self, other):
        return rounding.Remainder.apply(self, other)

    def __rmod__(self, other):
        return rounding.Remainder.apply(other, self)

    # ----- logs, powers, trigonometry, clamps ---------------------------------------
    def log1p(self):
        return powers_and_logs.Log1p.apply(self)

    def log10(self):
        return powers_and_logs.Log10.apply(self)

    def log2(self):
        return powers_and_logs.Log2.apply(self)

    def expm1(self):
        return powers_and_logs.Expm1.apply(self)

    def rsqrt(self):
        return powers_and_logs.Rsqrt.apply(self)

    def reciprocal(self):
        return powers_and_logs.Reciprocal.apply(self)

    def square(self):
        return Pow.apply(self, 2)  # PyTorch's square is pow(2): PowBackward0

    def asin(self):
        return trigonometric.Asin.apply(self)

    def acos(self):
        return trigonometric.Acos.apply(self)

    def atan(self):
        return trigonometric.Atan.apply(self)

    arcsin, arccos, arctan = asin, acos, atan

    def sinh(self):
        return trigonometric.Sinh.apply(self)

    def cosh(self):
        return trigonometric.Cosh.apply(self)

    def erf(self):
        return trigonometric.Erf.apply(self)

    def erfc(self):
        return trigonometric.Erfc.apply(self)

    def atan2(self, other):
        return trigonometric.Atan2.apply(self, other)

    def hypot(self, other):
        return trigonometric.Hypot.apply(self, other)

    def lerp(self, end, weight):
        return interpolation.lerp(self, end, weight)

    def clip(self, min=None, max=None):  # noqa: A002 - PyTorch's names
        return Clamp.apply(self, min, max)

    def clamp_min(self, min):  # noqa: A002
        return ClampMin.apply(self, min)

    def clamp_max(self, max):  # noqa: A002
        return ClampMax.apply(self, max)

    # ----- cumulative, sorting, extremes --------------------------------------------
    def cumsum(self, dim=None, *, dtype=None, axis=None):  # axis: NumPy's name, as PyTorch accepts it
        return cumulative.cumsum(self, dim, dtype=dtype, axis=axis)

    def cumprod(self, dim, *, dtype=None):
        return cumulative.Cumprod.apply(self, dim, dtype)

    def prod(self, dim=None, keepdim=False, *, dtype=None):
        return cumulative.Prod.apply(self, dim, keepdim, dtype)

    def logsumexp(self, dim, keepdim=False):
        return cumulative.Logsumexp.apply(self, dim, keepdim)

    def sort(self, dim=-1, descending=False, *, stable=False):
        return sorting.sort(self, dim, descending, stable=stable)

    def argsort(self, dim=-1, descending=False, *, stable=False):
        return sorting.argsort(self, dim, descending, stable=stable)

    def topk(self, k, dim=-1, largest=True, sorted=True):  # noqa: A002
        return sorting.topk(self, k, dim, largest, sorted)

    def amax(self, dim=(), keepdim=False):
        return sorting.Amax.apply(self, dim, keepdim)

    def amin(self, dim=(), keepdim=False):
        return sorting.Amin.apply(self, dim, keepdim)

    def aminmax(self, *, dim=None, keepdim=False):
        return sorting.aminmax(self, dim=dim, keepdim=keepdim)

    # ----- gather, scatter, masks -------------------------------------------------------
    def gather(self, dim, index, *, sparse_grad=False):
        return gather.Gather.apply(self, dim, index)

    def scatter(self, dim, index, src=None, *, value=None, reduce=None):
        return gather.scatter(self, dim, index, src, value=value, reduce=reduce)

    def scatter_add(self, dim, index, src):
        return gather.ScatterAdd.apply(self, src, dim, index)

    def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
        source = value if src is None else src
        if reduce is not None:
            raise NotImplementedError(f"scatter_(reduce={reduce!r}) is not implemented here; use scatter_add_")
        if source.__class__ in TENSOR_TYPES:
            return inplace(self, gather.Scatter, source, dim, index)
        return inplace(self, gather.ScatterValue, dim, index, source)

    def scatter_add_(self, dim, index, src):
        return inplace(self, gather.ScatterAdd, src, dim, index)

    def index_select(self, dim, index):
        return gather.IndexSelect.apply(self, dim, index)

    def masked_fill(self, mask, value):
        return gather.masked_fill(self, mask, value)

    def masked_fill_(self, mask, value):
        if value.__class__ in TENSOR_TYPES and (value._requires_grad or value.grad_fn is not None):
            return inplace(self, gather.MaskedFillTensor, value, mask)
        if value.__class__ in TENSOR_TYPES and value.ndim == 0:
            value = value.item()
        return inplace(self, gather.MaskedFill, mask, value)

    # ----- rearranging and diagonals ----------------------------------------------------
    def flip(self, *dims):
        return rearrange.Flip.apply(self, dims[0] if len(dims) == 1 and not isinstance(dims[0], int) else dims)

    def roll(self, shifts, dims=None):
        return rearrange.Roll.apply(self, shifts, dims)

    def repeat(self, *sizes):
        sizes = tuple(sizes[0]) if len(sizes) == 1 and not isinstance(sizes[0], int) else sizes
        return rearrange.Repeat.apply(self, sizes)

    def tile(self, *dims):
        return rearrange.tile(self, tuple(dims[0]) if len(dims) == 1 and not isinstance(dims[0], int) else dims)

    def repeat_interleave(self, repeats=None, dim=None, *, output_size=None):
        return rearrange.repeat_interleave(self, repeats, dim, output_size=output_size)

    def split(self, split_size, dim=0):
        return rearrange.split(self, split_size, dim)

    def chunk(self, chunks, dim=0):
        return rearrange.chunk(self, chunks, dim)

    def unbind(self, dim=0):
        return rearrange.unbind(self, dim)

    def narrow(self, dim, start, length):
        return rearrange.narrow(self, dim, start, length)

    def diagonal(self, offset=0, dim1=0, dim2=1):
        return diagonals.Diagonal.apply(self, offset, dim1, dim2)

    def diag(self, diagonal=0):
        return diagonals.diag(self, diagonal)

    def trace(self):
        return diagonals.Trace.apply(self)

    def tril(self, diagonal=0):
        return diagonals.Tril.apply(self, diagonal)

    def triu(self, diagonal=0):
        return diagonals.Triu.apply(self, diagonal)

    # ----- products -----------------------------------------------------------------
    def dot(self, other):
        return linalg.dot(self, other)

    def vdot(self, other):
        return linalg.vdot(self, other)

    def outer(self, vec2):
        return linalg.outer(self, vec2)

    ger = outer

    def bmm(self, mat2):
        return linalg.bmm(self, mat2)

    def mv(self, vec):
        return linalg.mv(self, vec)

    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        return linalg.addmm(self, mat1, mat2, beta=beta, alpha=alpha)

    def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
        return linalg.baddbmm(self, batch1, batch2, beta=beta, alpha=alpha)

    # ----- new tensors like this one, and conversions ---------------------------------
    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return self._new_filled(size, 0, dtype, device, requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return self._new_filled(size, 1, dtype, device, requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        return self._new_filled(size, 0, dtype, device, requires_grad)

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
        return self._new_filled((tuple(size),), fill_value, dtype, device, requires_grad)

    def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
        """A new tensor of ``data`` with this one's dtype and device unless told otherwise
        (a copy, never sharing memory, as PyTorch's)."""
        if data.__class__ in TENSOR_TYPES:
            data = backend.move(data._data, backend.CPU)
        array = numpy.array(data, dtype=dtypes.to_numpy(dtype or self.dtype))
        where = backend.as_device(device) if device is not None else self.device
        made = _wrap(backend.move(array, where), False, None)
        return made.requires_grad_(requires_grad) if requires_grad else made

    def _new_filled(self, size, value, dtype, device, requires_grad):
        shape = tuple(size[0]) if len(size) == 1 and not isinstance(size[0], int) else tuple(size)
        target = dtypes.to_numpy(dtype or self.dtype)
        where = backend.as_device(device) if device is not None else self.device
        array = numpy.full(shape, value, dtype=target)
        made = _wrap(backend.move(array, where), False, None)
        return made.requires_grad_(requires_grad) if requires_grad else made

    def type_as(self, other):
        return self.to(other.dtype)

    # ----- counts in bins (no gradient, as in PyTorch) ------------------------------
    def histogram(self, bins=100, *, range=None, weight=None, density=False):  # noqa: A002
        return histograms.histogram(self, bins, range=range, weight=weight, density=density)

    def histc(self, bins=100, min=0, max=0):  # noqa: A002
        return histograms.histc(self, bins, min, max)
