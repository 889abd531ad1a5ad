"""The math methods of ``Tensor``: each one calls the op defined in ``ops/``.

Kept apart from ``tensor.py`` so that file holds the tensor itself (storage,
autograd state, conversions) and this one only the PyTorch method names.
"""
from __future__ import annotations

from .ops import activation, elementwise, indexing, linalg, reduction, shape
from .ops.elementwise import Add, Div, Exp, Log, Mul, Neg, Pow, Relu, Rsub, Sigmoid, Sub, Tanh
from .ops.float_methods import float_method
from .ops.linalg import Matmul
from .ops.number_operators import number_operator


class TensorMath:
    __slots__ = ()

    # ----- operators --------------------------------------------------------------
    # + - * / with a Python number are the commonest ops of all: see number_operators.py
    __add__ = number_operator("__add__", Add)
    __radd__ = number_operator("__radd__", Add, reflected=True)

    __sub__ = number_operator("__sub__", Sub)
    __rsub__ = number_operator("__rsub__", Rsub, reflected=True)

    __mul__ = number_operator("__mul__", Mul)
    __rmul__ = number_operator("__rmul__", Mul, reflected=True)

    __truediv__ = number_operator("__truediv__", Div)
    __rtruediv__ = number_operator("__rtruediv__", Div, reflected=True)

    def __pow__(self, exponent):
        return Pow.apply(self, exponent)

    def __rpow__(self, base):
        return Pow.apply(base, self)

    def __matmul__(self, other):
        return Matmul.apply(self, other)

    def __rmatmul__(self, other):
        return Matmul.apply(other, self)

    def __neg__(self):
        return Neg.apply(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return elementwise.Abs.apply(self)

    def __getitem__(self, key):
        if key.__class__ is tuple:  # ints beside index arrays: PyTorch's order (indexing.ints_first)
            return indexing.index(self, key)
        return indexing.Index.apply(self, key)

    # ----- elementwise --------------------------------------------------------------
    def add(self, other, *, alpha=1):
        return elementwise.add(self, other, alpha=alpha)

    def sub(self, other, *, alpha=1):
        return elementwise.sub(self, other, alpha=alpha)

    def mul(self, other):
        return Mul.apply(self, other)

    def div(self, other):
        return Div.apply(self, other)

    def pow(self, exponent):
        return Pow.apply(self, exponent)

    def neg(self):
        return Neg.apply(self)

    exp = float_method("exp", Exp)
    log = float_method("log", Log)
    sqrt = float_method("sqrt", elementwise.Sqrt)

    def abs(self):
        return elementwise.Abs.apply(self)

    sin = float_method("sin", elementwise.Sin)
    cos = float_method("cos", elementwise.Cos)
    tanh = float_method("tanh", Tanh)
    sigmoid = float_method("sigmoid", Sigmoid)

    def relu(self):
        return Relu.apply(self)

    def clamp(self, min=None, max=None):  # noqa: A002
        return elementwise.clamp(self, min, max)

    def maximum(self, other):
        return elementwise.maximum(self, other)

    def minimum(self, other):
        return elementwise.minimum(self, other)

    def where(self, condition, other):
        return elementwise.where(condition, self, other)

    # ----- reductions ---------------------------------------------------------------
    def sum(self, dim=None, keepdim=False, *, axis=None, keepdims=None, dtype=None):
        source = self if dtype is None else self.to(dtype)
        return reduction.Sum.apply(source, dim if axis is None else axis, keepdim if keepdims is None else keepdims)

    def mean(self, dim=None, keepdim=False, *, axis=None, keepdims=None, dtype=None):
        source = self if dtype is None else self.to(dtype)
        return reduction.Mean.apply(source, dim if axis is None else axis, keepdim if keepdims is None else keepdims)

    def max(self, dim=None, keepdim=False):
        return reduction.max(self, dim, keepdim)

    def min(self, dim=None, keepdim=False):
        return reduction.min(self, dim, keepdim)

    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return reduction.var(self, dim, unbiased, keepdim, correction=correction)

    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return reduction.std(self, dim, unbiased, keepdim, correction=correction)

    def norm(self, p=2, dim=None, keepdim=False):
        return reduction.norm(self, p, dim, keepdim)

    def argmax(self, dim=None, keepdim=False, *, axis=None):  # axis: NumPy's name, as PyTorch accepts it
        return reduction.argmax(self, dim if axis is None else axis, keepdim)

    def argmin(self, dim=None, keepdim=False, *, axis=None):
        return reduction.argmin(self, dim if axis is None else axis, keepdim)

    # ----- linear algebra and shape -------------------------------------------------
    def mm(self, mat2):
        return linalg.mm(self, mat2)

    def matmul(self, other):
        return Matmul.apply(self, other)

    def reshape(self, *shape):
        return shape_ops_reshape(self, shape)

    def view(self, *sizes):
        return shape.Reshape.apply(self, shape.sizes_from(sizes), True)

    def view_as(self, other):
        return shape.Reshape.apply(self, tuple(other.shape), True)

    def flatten(self, start_dim=0, end_dim=-1):
        return shape.flatten(self, start_dim, end_dim)

    def transpose(self, dim0, dim1):
        return shape.Transpose.apply(self, dim0, dim1)

    def swapaxes(self, dim0, dim1):
        return shape.Transpose.apply(self, dim0, dim1)

    def t(self):
        if self.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self.ndim}D")
        return shape.T.apply(self) if self.ndim == 2 else self

    @property
    def T(self):
        return shape.Permute.apply(self, tuple(range(self.ndim - 1, -1, -1)))

    def permute(self, *dims):
        return shape.permute(self, *dims)

    def squeeze(self, dim=None):
        return shape.Squeeze.apply(self, dim)

    def unsqueeze(self, dim):
        return shape.Unsqueeze.apply(self, dim)

    def expand(self, *sizes):
        return shape.Expand.apply(self, shape.sizes_from(sizes))

    def expand_as(self, other):
        return shape.Expand.apply(self, tuple(other.shape))

    def softmax(self, dim):
        return activation.Softmax.apply(self, dim)

    def log_softmax(self, dim):
        return activation.LogSoftmax.apply(self, dim)

    def clone(self):
        return shape.Clone.apply(self)


def shape_ops_reshape(tensor, sizes):
    return shape.Reshape.apply(tensor, shape.sizes_from(sizes))
