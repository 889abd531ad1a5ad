"""Binary elementwise primitives, with NumPy broadcasting.

Broadcasting is undone once, in ``Binary.backward`` (through ``algebra.sum_to``);
no op handles it itself.
"""
from __future__ import annotations

import math

import numpy

from ..autograd.algebra import sum_to
from ..autograd.function import BinaryOp, Op
from ..backend import array_module
from ..core import TENSOR_TYPES
from ..dtypes import default_float
from ..promotion import cast_operands, check_python_int, result_type


def _true_divide(x, y):
    """After promotion both operands share a dtype (or one is a number): integers and bools
    are divided in the default float, as in PyTorch."""
    try:
        kind = x.dtype.kind
    except AttributeError:  # a number divided by a tensor
        kind = y.dtype.kind
    if kind == "f":
        return numpy.true_divide(x, y)
    return numpy.true_divide(_as_float(x), _as_float(y))


def _as_float(x):
    """True division of integers gives the default float, as in PyTorch."""
    if getattr(x, "dtype", None) is not None and x.dtype.kind != "f":
        return x.astype(default_float().numpy)
    return float(x) if isinstance(x, int) else x


_NUMBERS = {float, int, bool}


def _plain(x):
    """A NumPy scalar becomes a Python number, so it never upcasts a tensor either."""
    return x.item() if isinstance(x, numpy.generic) else x


def _shape(x) -> tuple:
    return x.shape if x.__class__ in TENSOR_TYPES else ()


def promoted(x, y):
    """``x`` and ``y`` cast to PyTorch's result dtype, and the dtypes of the tensor inputs
    (for backward to cast their gradients back), or None when no cast was needed. Only
    operands of different dtypes pay for this; a number with a float tensor never does."""
    dx, dy = getattr(x, "dtype", None), getattr(y, "dtype", None)
    if dx is dy or (dy is None and dx.kind == "f") or (dx is None and dy.kind == "f"):
        return x, y, None
    if dx is None and isinstance(x, int) and not isinstance(x, bool):
        check_python_int(x)
    if dy is None and isinstance(y, int) and not isinstance(y, bool):
        check_python_int(y)
    x, y, _ = cast_operands(x, y)
    return x, y, (dx, dy)


def _kind(x) -> str | None:
    """The dtype kind of an array ("b", "i", "f", ...), None for a Python number."""
    dtype = getattr(x, "dtype", None)
    return None if dtype is None else dtype.kind


def _power(x, y):
    if _kind(x) == "b" or _kind(y) == "b":
        return _bool_power(x, y)
    if _kind(y) in ("i", "u") and getattr(x, "dtype", y.dtype).kind in "iu" and (y < 0).any():
        return _negative_integer_power(x, y)
    return numpy.power(x, y)


def _negative_integer_power(x, y):
    """PyTorch's integer power with a negative tensor exponent: 1 and -1 keep their
    magnitude, every other base gives 0 (NumPy refuses)."""
    xp = array_module(y)
    x = xp.asarray(x, dtype=numpy.result_type(x, y))  # a Python int takes the tensor's dtype, as in 2 ** t
    positive = xp.power(x, xp.where(y < 0, 0, y))
    sign = xp.where(y % 2 == 0, 1, -1).astype(positive.dtype)
    small = xp.where(x == 1, 1, xp.where(x == -1, sign, 0)).astype(positive.dtype)
    return xp.where(y < 0, small, positive)


def _bool_power(x, y):
    """NumPy has no bool ** bool; PyTorch's (with one Python bool) is ``x or not y``."""
    if _kind(y) == "b" and (x.__class__ is bool or _kind(x) == "b"):
        raise RuntimeError('"pow" not implemented for \'Bool\' (a bool tensor as the exponent of a bool)')
    target = result_type(x, y)
    as_int = [numpy.asarray(v).astype(numpy.int64) if target.kind == "b" else v for v in (x, y)]
    return numpy.power(*as_int).astype(target)


def _refuse_bool_subtraction(x, y) -> None:
    """Called for operands of different dtypes only (NumPy itself refuses bool - bool)."""
    bool_x = _kind(x) == "b" or x.__class__ is bool
    bool_y = _kind(y) == "b" or y.__class__ is bool
    if bool_x and bool_y:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    if bool_x or bool_y:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


def broadcast_error(shape_a: tuple, shape_b: tuple) -> RuntimeError:
    """PyTorch's wording for shapes that do not broadcast."""
    ndim = max(len(shape_a), len(shape_b))
    a = (1,) * (ndim - len(shape_a)) + tuple(shape_a)
    b = (1,) * (ndim - len(shape_b)) + tuple(shape_b)
    for dim in range(ndim - 1, -1, -1):
        if a[dim] != b[dim] and a[dim] != 1 and b[dim] != 1:
            return RuntimeError(
                f"The size of tensor a ({a[dim]}) must match the size of tensor b ({b[dim]}) "
                f"at non-singleton dimension {dim} (shapes {list(shape_a)} and {list(shape_b)})"
            )
    return RuntimeError(f"shapes {list(shape_a)} and {list(shape_b)} cannot be broadcast together")


class Binary(BinaryOp):
    """Two inputs that broadcast; ``local`` gives the gradients at the output's shape."""

    __slots__ = ("shapes", "casts")
    ufunc = None
    refuse = None  # a check of mixed operands before promotion (subtraction refuses bools)

    def forward(self, a, b):
        # The commonest case, a float tensor and a Python number (``y * 0.5``), is written out
        # in the Tensor's operators (number_operators.py) and rarely reaches this.
        # A Python number never has its gradient summed back.
        if a.__class__ in TENSOR_TYPES:
            x = a._data
            dx = x.dtype
        else:
            x = a = a if a.__class__ in _NUMBERS else _plain(a)
            dx = None
        if b.__class__ in TENSOR_TYPES:
            y = b._data
            dy = y.dtype
        else:
            y = b = b if b.__class__ in _NUMBERS else _plain(b)
            dy = None
        if dx is dy or (dy is None and dx.kind == "f" and y.__class__ is not bool) or \
                (dx is None and dy.kind == "f" and x.__class__ is not bool):
            self.casts = None
        else:
            if self.refuse is not None:
                self.refuse(x, y)
            x, y, self.casts = promoted(x, y)
        out = self.ufunc(x, y)
        shape = out.shape
        # the shape to sum each input's gradient back to; None: it has the output's (or is a number)
        shape_a = x.shape if dx is not None and x.shape != shape else None
        shape_b = y.shape if dy is not None and y.shape != shape else None
        self.shapes = None if shape_a is None and shape_b is None else (shape_a, shape_b)
        if self.remember is not None:
            self.remember(a, b, out)
        return out

    def remember(self, a, b, out) -> None:
        """Keep what backward needs; most ops keep both inputs (``remember = None``: nothing)."""
        self.saved = (a, b)

    @classmethod
    def explain(cls, args, error):
        if isinstance(error, ValueError) and "broadcast" in str(error):
            return broadcast_error(_shape(args[0]), _shape(args[1]))
        return None

    def backward(self, F, grad):
        if self.casts is None and self.shapes is None:  # no cast or broadcast to undo: most nodes
            return self.local(F, grad)
        grad_a, grad_b = self.local(F, grad)
        if self.casts is not None:  # each input gets its gradient in its own dtype, as in PyTorch
            dtype_a, dtype_b = self.casts
            if grad_a is not None and dtype_a is not None:
                grad_a = F.cast(grad_a, dtype_a)
            if grad_b is not None and dtype_b is not None:
                grad_b = F.cast(grad_b, dtype_b)
        if self.shapes is not None:
            shape_a, shape_b = self.shapes
            if grad_a is not None and shape_a is not None:
                grad_a = sum_to(F, grad_a, shape_a)
            if grad_b is not None and shape_b is not None:
                grad_b = sum_to(F, grad_b, shape_b)
        return grad_a, grad_b


class Add(Binary):
    __slots__ = ()
    node_name = "AddBackward0"
    symbol = "+"
    ufunc = numpy.add
    formula = r"\frac{\partial u}{\partial a} = 1,\quad \frac{\partial u}{\partial b} = 1"

    remember = None  # keeps nothing: the gradients are the output's, as they are or negated

    def local(self, F, grad):
        return grad, grad


class Sub(Binary):
    __slots__ = ()
    node_name = "SubBackward0"
    symbol = "−"
    ufunc = numpy.subtract
    formula = r"\frac{\partial u}{\partial a} = 1,\quad \frac{\partial u}{\partial b} = -1"

    refuse = staticmethod(_refuse_bool_subtraction)

    @classmethod
    def explain(cls, args, error):
        if isinstance(error, TypeError) and "boolean subtract" in str(error):  # bool - bool
            return RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                                "Use the `^` or `logical_xor()` operator instead.")
        return Binary.explain(args, error)

    remember = None  # keeps nothing: the gradients are the output's, as they are or negated

    def local(self, F, grad):
        return grad, (-grad if self._next[1] is not None else None)


class Rsub(Sub):
    """``2.0 - x``: a number minus a tensor, which PyTorch computes as ``rsub(x, 2.0)`` and
    draws as ``RsubBackward1``; the same subtraction as ``Sub`` (the number first)."""

    __slots__ = ()
    node_name = "RsubBackward1"


class Mul(Binary):
    __slots__ = ()
    node_name = "MulBackward0"
    symbol = "×"
    ufunc = numpy.multiply
    formula = r"\frac{\partial u}{\partial a} = b,\quad \frac{\partial u}{\partial b} = a"

    def remember(self, a, b, out):
        # Keep a only if b needs it for its gradient, and b only if a does (as PyTorch):
        # an in-place change of something not needed must not break backward. (Written
        # out, not a helper: * is the commonest op, and a call is 2% of W1.)
        self.saved = (a if b.__class__ in TENSOR_TYPES and b._requires_grad else None,
                      b if a.__class__ in TENSOR_TYPES and a._requires_grad else None)

    def local(self, F, grad):
        a, b = self.saved
        follow_a, follow_b = self._next
        return (grad * F.operand(b, grad) if follow_a is not None else None,
                grad * F.operand(a, grad) if follow_b is not None else None)


class Div(Binary):
    __slots__ = ()
    node_name = "DivBackward0"
    symbol = "÷"
    ufunc = staticmethod(_true_divide)
    formula = r"\frac{\partial u}{\partial a} = \frac{1}{b},\quad \frac{\partial u}{\partial b} = -\frac{a}{b^2}"

    def remember(self, a, b, out):
        self.saved = (a if b.__class__ in TENSOR_TYPES and b._requires_grad else None, b)

    def local(self, F, grad):
        a, b = self.saved
        b = F.operand(b, grad)
        follow_a, follow_b = self._next
        grad_a = grad / b if follow_a is not None else None
        grad_b = -grad * F.value(a) / (b * b) if follow_b is not None else None
        return grad_a, grad_b


class Pow(Binary):
    __slots__ = ("out",)
    saves_output = True
    node_name = "PowBackward0"
    symbol = "^"
    ufunc = staticmethod(_power)
    formula = r"\frac{\partial u}{\partial a} = b\,a^{b-1},\quad \frac{\partial u}{\partial b} = a^b \ln a"

    def name(self) -> str:
        # PyTorch: PowBackward0 for a number exponent, 1 for tensor ** tensor, 2 for number ** tensor.
        if not self.saved or self.saved[1].__class__ not in TENSOR_TYPES:
            return "PowBackward0"
        return "PowBackward1" if self.saved[0].__class__ in TENSOR_TYPES else "PowBackward2"

    def remember(self, a, b, out):
        self.saved = (a, b)
        self.out = out

    def local(self, F, grad):
        a, b = self.saved
        a, b = F.value(a), F.value(b)
        follow_a, follow_b = self._next
        grad_a = None
        if follow_a is not None:
            # PyTorch: the gradient is 0 where the exponent is 0, even at a = 0 (0 * 0**-1)
            if isinstance(b, (int, float)):
                grad_a = F.zeros_like(grad) if b == 0 else grad * b * a ** (b - 1)
            else:
                grad_a = F.where(b == 0, F.zeros_like(grad), grad * b * a ** (b - 1))
        grad_b = None
        if follow_b is not None:
            # PyTorch: u * log(a), so NaN for a < 0 and -inf or inf at a = 0 with b < 0, but 0
            # at a = 0 with b >= 0 (where u is 0 or 1). NumPy's warnings there are expected.
            with numpy.errstate(divide="ignore", invalid="ignore"):
                if isinstance(a, (int, float)):
                    log_a = math.log(a) if a > 0 else (-math.inf if a == 0 else math.nan)
                    grad_b = grad * F.output(self) * log_a
                    if a == 0:
                        grad_b = F.where(b >= 0, F.zeros_like(grad_b), grad_b)
                else:
                    grad_b = grad * F.output(self) * F.log(a)
                    grad_b = F.where((a == 0) & (b >= 0), F.zeros_like(grad_b), grad_b)
        return grad_a, grad_b


def _compared(F, node, grad):
    """maximum/minimum's inputs as they were compared: in the result's dtype, so a tie
    after promotion is a tie in backward too."""
    a, b = (F.value(v) for v in node.saved)
    if node.casts is not None:
        a, b = (F.cast_like(v, grad) if getattr(v, "dtype", None) is not None else v for v in (a, b))
    return a, b


class Maximum(Binary):
    __slots__ = ()
    node_name = "MaximumBackward0"
    symbol = "max"
    ufunc = numpy.maximum
    formula = (r"\frac{\partial u}{\partial a} = [a > b] + \tfrac12[a = b],\quad "
               r"\frac{\partial u}{\partial b} = [b > a] + \tfrac12[a = b]")

    def local(self, F, grad):
        a, b = _compared(F, self, grad)
        # PyTorch: ties share, the smaller gets 0, and a NaN (neither smaller) gets it all
        shared = F.where(a == b, grad * 0.5, grad)
        return F.masked(shared, ~(a < b)), F.masked(shared, ~(b < a))


class Minimum(Binary):
    __slots__ = ()
    node_name = "MinimumBackward0"
    symbol = "min"
    ufunc = numpy.minimum
    formula = (r"\frac{\partial u}{\partial a} = [a < b] + \tfrac12[a = b],\quad "
               r"\frac{\partial u}{\partial b} = [b < a] + \tfrac12[a = b]")

    def local(self, F, grad):
        a, b = _compared(F, self, grad)
        shared = F.where(a == b, grad * 0.5, grad)
        return F.masked(shared, ~(a > b)), F.masked(shared, ~(b > a))


class Where(Binary):
    """``where(condition, a, b)``: the condition is a parameter, not an input."""

    __slots__ = ("condition",)
    node_name = "WhereBackward0"
    symbol = "where"
    formula = r"\frac{\partial u}{\partial a} = [c],\quad \frac{\partial u}{\partial b} = [\lnot c]"
    formula_args = ("c", "a", "b")  # the condition first
    apply = Op.__dict__["apply"]  # three arguments: the condition is not an input

    def forward(self, a, b, condition):
        cond = condition._data if condition.__class__ in TENSOR_TYPES else condition
        if _kind(cond) != "b":
            raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor "
                               f"with dtype {getattr(cond, 'dtype', type(cond).__name__)}")
        x = a._data if a.__class__ in TENSOR_TYPES else _plain(a)
        y = b._data if b.__class__ in TENSOR_TYPES else _plain(b)
        x, y, self.casts = promoted(x, y)
        out = array_module(cond).where(cond, x, y)
        target = result_type(x, y)  # NumPy would make two numbers float64
        if out.dtype != target:
            out = out.astype(target)
        self.condition = cond
        shape_a = a._data.shape if a.__class__ in TENSOR_TYPES else None
        shape_b = b._data.shape if b.__class__ in TENSOR_TYPES else None
        self.shapes = None if shape_a == shape_b == out.shape else (shape_a, shape_b)
        return out

    def local(self, F, grad):
        cond = F.constant(self.condition)
        return F.masked(grad, cond), F.masked(grad, ~cond)
