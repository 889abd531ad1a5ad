"""The two algebras a backward formula runs in.

Each op writes its backward once, as ``backward(self, F, grad)``, using Python
operators (``* / + - @``, comparisons, indexing, ``.reshape``, ``.T``) that arrays
and tensors share, plus the few named functions below, reached through ``F``.

- ``ARRAYS`` (a plain backward): ``grad`` and every value are NumPy/CuPy arrays and
  nothing is recorded, which keeps backward as fast as hand-written NumPy.
- ``TENSORS`` (``create_graph=True``): the same formula runs on tensors with grad
  mode on, so it records a graph and gives higher-order gradients.

NumPy ufuncs (``numpy.exp`` and friends) dispatch to CuPy for CuPy arrays through
``__array_ufunc__``; anything else asks ``backend`` for the array module.

The algebra sits in the autograd layer, below the ops. ``TENSORS`` needs two ops of its
own (``where``, and ``IndexAdd`` for an index's gradient), which the modules that
define them hand over when they load (``provide``), as ``tensor.py`` hands ``core`` its
class: the layer below never imports the layer above.
"""
from __future__ import annotations

import math

import numpy

from ..backend import array_module, scatter_add
from ..core import TENSOR_TYPES, _wrap
from ..dtypes import from_numpy
from ..operands import operand

# vdot, not dot: the same BLAS call, without NumPy's overflow warning for huge entries
_vdot = numpy.vdot
_dot = numpy.dot
_BLAS_FLOATS = frozenset(map(numpy.dtype, ("float32", "float64")))  # summed by BLAS in their own precision
_LEADING = [tuple(range(count)) for count in range(64)]  # dims (0, ..., count - 1)
_ones: dict = {}  # (rows, dtype char) -> read-only ones, at most 64 of them


def _sum_leading(x, count: int, keepdim: bool):
    """``x`` summed over its first ``count`` dimensions as one BLAS product, ``ones @ x``
    seen as (rows, rest): a batch's gradient summed down to a bias. NumPy's ``add.reduce``
    over a leading axis walks the array row by row behind its iterator and took 3-4x as
    long ((100, 16): 3.0 us against 0.7; (256, 256): 9.7 against 3.0), with no smaller
    error (float32 is summed in float32 by both). An overflow warns as NumPy's sum does."""
    shape = x.shape
    rows = shape[0] if count == 1 else math.prod(shape[:count])
    key = (rows, x.dtype.char)
    ones = _ones.get(key)
    if ones is None:
        if len(_ones) >= 64:
            _ones.clear()
        ones = _ones[key] = numpy.ones(rows, x.dtype)
        ones.flags.writeable = False
    summed = _dot(ones, x.reshape(rows, -1))
    kept = (1,) * count + shape[count:] if keepdim else shape[count:]
    return summed if summed.shape == kept else summed.reshape(kept)


def stable_sigmoid(x):
    """``1 / (1 + e^-x)`` with ``exp`` of a non-positive number only, so no ``x`` overflows."""
    xp = array_module(x)
    e = xp.exp(-xp.abs(x))
    return xp.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)


def sum_to(F, x, shape: tuple):
    """Undo broadcasting: sum ``x`` down to ``shape``. The one place this happens."""
    if x.shape == shape:
        return x
    lead = len(x.shape) - len(shape)
    if lead < 0:  # a value written with leading 1s, which PyTorch drops (y[0] = v, v of shape (1, 3))
        return F.reshape(sum_to(F, x, shape[-lead:]), shape)
    dims = tuple(range(lead))
    if x.shape[lead:] != shape:  # most broadcasts only add leading dimensions (a bias): no loop for them
        dims += tuple(lead + i for i, size in enumerate(shape) if size == 1 and x.shape[lead + i] != 1)
    summed = F.sum(x, dims, False)
    # Only dimensions of size 1 need putting back (a bias's gradient needs none): a reshape
    # that changes nothing would still be a view, which a leaf's .grad must then copy.
    return summed if summed.shape == shape else F.reshape(summed, shape)


class _Arrays:
    records = False
    exp, log, sqrt = numpy.exp, numpy.log, numpy.sqrt
    sin, cos, tanh = numpy.sin, numpy.cos, numpy.tanh
    sigmoid = staticmethod(stable_sigmoid)

    @staticmethod
    def sign(x):
        return numpy.nan_to_num(numpy.sign(x), nan=0.0)  # PyTorch's sgn(NaN) is 0

    @staticmethod
    def zeros_like(x):
        return array_module(x).zeros_like(x)

    @staticmethod
    def value(x):
        """A saved input as this algebra's kind of value (Python scalars stay scalars)."""
        return x._data if x.__class__ in TENSOR_TYPES else x

    @staticmethod
    def operand(x, like):
        """A saved input to combine with the array ``like``: a number as the 0-d array NumPy
        would make of it beside ``like`` (converted once: see ``operands.py``)."""
        return x._data if x.__class__ in TENSOR_TYPES else operand(x, like)

    @staticmethod
    def output(node):
        return node.out

    @staticmethod
    def constant(array):
        return array

    @staticmethod
    def where(condition, a, b):
        return array_module(condition).where(condition, a, b)

    @staticmethod
    def masked(grad, mask):
        """``grad`` where ``mask`` holds and 0 elsewhere, chosen, as PyTorch's backward
        chooses: an inf or NaN gradient where the mask is false gives 0 there, where a
        product would give NaN (inf * 0, and NumPy's warning in the learner's cell). The
        product is NumPy's fastest way (``where`` took 3.5x as long on a 256x256 ReLU), so it
        is taken when every entry of ``grad`` is finite, which one BLAS dot product tells (a
        sum of squares is finite only then)."""
        if grad.__class__ is numpy.ndarray:
            squares = float(_vdot(grad, grad))
            if squares - squares == 0.0:
                return grad * mask
        return _Arrays.where(mask, grad, grad.dtype.type(0))

    @staticmethod
    def sum(x, dims, keepdim: bool):
        if x.__class__ is numpy.ndarray:  # ndarray.sum is this call behind Python (_methods._sum)
            if dims is not None and len(dims) < x.ndim and dims == _LEADING[len(dims)] and \
                    x.dtype in _BLAS_FLOATS and x.size and x.flags.c_contiguous:
                return _sum_leading(x, len(dims), keepdim)
            return numpy.add.reduce(x, dims, None, None, keepdim)
        return x.sum(axis=dims, keepdims=keepdim)

    @staticmethod
    def reshape(x, shape):
        return x.reshape(shape)

    @staticmethod
    def expand(x, shape):
        # A new array rather than broadcast_to's view: broadcast_to costs ~2.5 us of Python
        # per call (once per backward pass, from a sum), filling costs ~0.3, and what comes
        # next reads every element anyway (a leaf's .grad copied the view; a matmul ran
        # 1.5x slower on its zero strides).
        out = array_module(x).empty(shape, dtype=x.dtype)
        out[...] = x
        return out

    @staticmethod
    def permute(x, dims):
        return x.transpose(dims)

    @staticmethod
    def swapaxes(x, a: int, b: int):
        return x.swapaxes(a, b)

    @staticmethod
    def cast_like(x, like):
        return x.astype(like.dtype, copy=False)

    @staticmethod
    def cast(x, numpy_dtype):
        return x.astype(numpy_dtype, copy=False)

    @staticmethod
    def index_add(grad, key, shape):
        out = array_module(grad).zeros(shape, dtype=grad.dtype)
        scatter_add(out, key, grad)
        return out

    @staticmethod
    def cumsum(x, dim: int):
        return array_module(x).cumsum(x, axis=dim, dtype=x.dtype)

    @staticmethod
    def cumprod(x, dim: int):
        return array_module(x).cumprod(x, axis=dim, dtype=x.dtype)

    @staticmethod
    def flip(x, dims: tuple):
        return array_module(x).flip(x, axis=dims)

    @staticmethod
    def roll(x, shifts: tuple, dims: tuple):
        return array_module(x).roll(x, shifts, axis=dims)

    @staticmethod
    def as_tensor(x):
        return _wrap(x, False, None)

    @staticmethod
    def from_tensor(t):
        return t._data if t.__class__ in TENSOR_TYPES else t


class _Tensors:
    records = True

    @staticmethod
    def value(x):
        return x

    @staticmethod
    def operand(x, like):
        return x

    @staticmethod
    def output(node):
        # Rebuilt on demand so the node never holds its own output (no reference cycle).
        return _wrap(node.out, True, node)

    @staticmethod
    def constant(array):
        return _wrap(array, False, None)

    exp = staticmethod(lambda x: x.exp())
    log = staticmethod(lambda x: x.log())
    sqrt = staticmethod(lambda x: x.sqrt())
    sin = staticmethod(lambda x: x.sin())
    cos = staticmethod(lambda x: x.cos())
    tanh = staticmethod(lambda x: x.tanh())
    sigmoid = staticmethod(lambda x: x.sigmoid())

    @staticmethod
    def sign(x):
        return _wrap(numpy.nan_to_num(numpy.sign(x._data), nan=0.0), False, None)

    @staticmethod
    def zeros_like(x):
        return _wrap(array_module(x._data).zeros_like(x._data), False, None)

    where = None  # ops/elementwise.py's where, given by provide()

    @staticmethod
    def masked(grad, mask):
        return _Tensors.where(mask, grad, 0)

    @staticmethod
    def sum(x, dims, keepdim: bool):
        return x.sum(dims, keepdim)

    @staticmethod
    def reshape(x, shape):
        return x.reshape(shape)

    @staticmethod
    def expand(x, shape):
        return x.expand(shape)

    @staticmethod
    def permute(x, dims):
        return x.permute(dims)

    @staticmethod
    def swapaxes(x, a: int, b: int):
        return x.transpose(a, b)

    @staticmethod
    def cast_like(x, like):
        return x.to(like.dtype)

    @staticmethod
    def cast(x, numpy_dtype):
        return x.to(from_numpy(numpy_dtype))

    index_add = None  # ops/indexing.py's IndexAdd.apply(grad, key, shape), given by provide()

    cumsum = staticmethod(lambda x, dim: x.cumsum(dim))
    cumprod = staticmethod(lambda x, dim: x.cumprod(dim))
    flip = staticmethod(lambda x, dims: x.flip(dims))
    roll = staticmethod(lambda x, shifts, dims: x.roll(shifts, dims))

    @staticmethod
    def as_tensor(x):
        return x

    @staticmethod
    def from_tensor(t):
        return t


def provide(name: str, function) -> None:
    """An op module gives the tensor algebra the op ``name`` runs as (see the module's doc)."""
    setattr(_Tensors, name, staticmethod(function))


ARRAYS = _Arrays()
TENSORS = _Tensors()
