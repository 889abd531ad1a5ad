"""Matrix products. ``matmul`` follows NumPy/PyTorch rules for 1-D and batched inputs."""
from __future__ import annotations

from ..autograd.algebra import sum_to
from ..autograd.function import BinaryOp, Op
from ..dtypes import scalar_type_name

_MATMUL_NAMES = {(2, 2): "MmBackward0", (1, 1): "DotBackward0", (2, 1): "MvBackward0"}  # PyTorch's, by ndims


class Matmul(BinaryOp):
    __slots__ = ("ndims",)
    node_name = "MmBackward0"
    symbol = "@"
    formula = (r"\frac{\partial L}{\partial A} = \frac{\partial L}{\partial U} B^\top,\quad "
               r"\frac{\partial L}{\partial B} = A^\top \frac{\partial L}{\partial U}")
    formula_args = ("A", "B")  # matrices

    def name(self) -> str:
        return _MATMUL_NAMES.get(self.ndims) or ("MmBackward0" if self.ndims == (1, 2) else "BmmBackward0")

    def forward(self, a, b):
        x, y = a._data, b._data
        ndims = self.ndims = (x.ndim, y.ndim)
        if 0 in ndims:
            raise RuntimeError(
                f"both arguments to matmul need to be at least 1D, but they are {x.ndim}D and {y.ndim}D"
            )
        if x.dtype is not y.dtype or x.dtype.kind == "b":  # not one (non-bool) dtype object: check it
            check_matmul_dtypes(x, y)
        self.saved = (a, b)
        return x @ y  # NumPy's or CuPy's matmul, without looking the module up

    @classmethod
    def explain(cls, args, error):
        if not isinstance(error, ValueError):
            return None
        sa, sb = tuple(args[0].shape), tuple(args[1].shape)
        if len(sa) <= 2 and len(sb) <= 2:
            rows = sa if len(sa) == 2 else (1,) + sa
            cols = sb if len(sb) == 2 else sb + (1,)
            return RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({rows[0]}x{rows[1]} and {cols[0]}x{cols[1]})"
            )
        return RuntimeError(f"matmul: shapes {list(sa)} and {list(sb)} cannot be multiplied "
                            f"(inner dimensions {sa[-1]} and {sb[-2] if len(sb) > 1 else sb[0]} differ)")

    def backward(self, F, grad):
        a, b = self.saved
        a, b = F.value(a), F.value(b)
        follow_a, follow_b = self._next
        if self.ndims == (2, 2):
            return (grad @ b.T if follow_a is not None else None,
                    a.T @ grad if follow_b is not None else None)
        # Promote 1-D operands to matrices, as matmul did, then undo it.
        a2 = F.reshape(a, (1,) + a.shape) if a.ndim == 1 else a
        b2 = F.reshape(b, b.shape + (1,)) if b.ndim == 1 else b
        g2 = grad
        if a.ndim == 1:
            g2 = F.reshape(g2, g2.shape[:-1] + (1,) + g2.shape[-1:]) if b.ndim > 1 else g2
        if b.ndim == 1:
            g2 = F.reshape(g2, g2.shape + (1,)) if a.ndim > 1 else F.reshape(g2, (1, 1))
        grad_a = grad_b = None
        if follow_a is not None:
            grad_a = sum_to(F, g2 @ F.swapaxes(b2, -1, -2), a2.shape)
            grad_a = F.reshape(grad_a, a.shape)
        if follow_b is not None:
            grad_b = sum_to(F, F.swapaxes(a2, -1, -2) @ g2, b2.shape)
            grad_b = F.reshape(grad_b, b.shape)
        return grad_a, grad_b


def check_matmul_dtypes(x, y) -> None:
    """PyTorch multiplies matrices of one dtype only, and not bool ones (NumPy would promote)."""
    if x.dtype != y.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {x.dtype} != {y.dtype} "
                           f"(convert one with .to(other.dtype))")
    if x.dtype == bool:
        raise RuntimeError("matmul is not implemented for bool tensors "
                           "(convert them with .int() or .float())")


def matmul(input, other):
    return Matmul.apply(input, other)


def mm(input, mat2):
    if input.ndim != 2 or mat2.ndim != 2:
        raise RuntimeError(
            f"mm: both arguments must be 2D matrices, got {input.ndim}D and {mat2.ndim}D "
            f"(shapes {list(input.shape)} and {list(mat2.shape)}); use matmul for other shapes"
        )
    return Matmul.apply(input, mat2)


class Addmm(Op):
    """``bias + mat1 @ mat2`` (``torch.addmm``): a linear layer on a batch of rows."""

    __slots__ = ("bias_shape",)
    arity = 3
    node_name = "AddmmBackward0"
    symbol = "addmm"
    formula = (r"u = b + A B:\quad \frac{\partial L}{\partial b} = \textstyle\sum_{\text{rows}} "
               r"\frac{\partial L}{\partial u},\quad "
               r"\frac{\partial L}{\partial A} = \frac{\partial L}{\partial u} B^\top,"
               r"\quad \frac{\partial L}{\partial B} = A^\top \frac{\partial L}{\partial u}")
    formula_args = ("b", "A", "B")  # the bias first, then the two matrices

    def forward(self, bias, mat1, mat2):
        x, w, b = mat1._data, mat2._data, bias._data
        if x.ndim != 2 or w.ndim != 2:
            raise RuntimeError(f"addmm: mat1 and mat2 must be matrices, got {x.ndim}D and {w.ndim}D "
                               f"(shapes {list(x.shape)} and {list(w.shape)})")
        if x.shape[1] != w.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied "
                               f"({x.shape[0]}x{x.shape[1]} and {w.shape[0]}x{w.shape[1]})")
        if x.dtype != w.dtype:
            raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                               f"{scalar_type_name(x)} and {scalar_type_name(w)}")
        if b.dtype != w.dtype:
            raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                               f"{scalar_type_name(b)} and {scalar_type_name(w)}")
        check_matmul_dtypes(x, w)
        out = x @ w
        out += b  # in place: one temporary fewer; raises if the bias does not broadcast
        self.saved = (mat1, mat2)
        self.bias_shape = b.shape
        return out

    @classmethod
    def explain(cls, args, error):
        if isinstance(error, ValueError) and "broadcast" in str(error):
            return RuntimeError(f"addmm: the bias of shape {list(args[0].shape)} does not broadcast "
                                f"to the product's shape [{args[1].shape[0]}, {args[2].shape[1]}]")
        return None

    def backward(self, F, grad):
        follow_bias, follow_1, follow_2 = self._next
        mat1, mat2 = self.saved
        return (sum_to(F, grad, self.bias_shape) if follow_bias is not None else None,
                grad @ F.value(mat2).T if follow_1 is not None else None,
                # (gᵀA)ᵀ, not Aᵀg: for a weight seen through .t() the product then comes out
                # in the weight's own layout, which BLAS computes faster.
                (grad.T @ F.value(mat1)).T if follow_2 is not None else None)
