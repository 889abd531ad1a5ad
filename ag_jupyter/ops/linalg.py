"""Matrix products. ``matmul`` follows NumPy/PyTorch rules for 1-D and batched inputs."""
from __future__ import annotations

from ..autograd.algebra import sum_to
from ..autograd.function import BinaryOp, Op
from ..backend import array_module
from ..dtypes import scalar_type_name
from ..promotion import kernel_for

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

    __slots__ = ("bias_shape", "scales")
    arity = 3
    node_name = "AddmmBackward0"
    symbol = "addmm"
    formula = (r"u = b + A B:\quad \frac{\partial L}{\partial b} = \textstyle\sum_{\text{rows}} "
               r"\frac{\partial L}{\partial u},\quad "
               r"\frac{\partial L}{\partial A} = \frac{\partial L}{\partial u} B^\top,"
               r"\quad \frac{\partial L}{\partial B} = A^\top \frac{\partial L}{\partial u}")
    formula_args = ("b", "A", "B")  # the bias first, then the two matrices

    def forward(self, bias, mat1, mat2, beta=1, alpha=1):
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
        self.scales = None if beta == 1 and alpha == 1 else (beta, alpha)
        if self.scales is not None:  # torch.addmm(..., beta=, alpha=): beta 0 ignores the bias, NaN or not
            out = (out * alpha).astype(out.dtype, copy=False)
            b = (b * beta).astype(b.dtype, copy=False) if beta != 0 else array_module(b).zeros_like(b)
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
        bias_grad = matrix_grad = grad
        if self.scales is not None:
            bias_grad, matrix_grad = grad * self.scales[0], grad * self.scales[1]
        return (sum_to(F, bias_grad, self.bias_shape) if follow_bias is not None else None,
                matrix_grad @ F.value(mat2).T if follow_1 is not None else None,
                # (gᵀA)ᵀ, not Aᵀg: for a weight seen through .t() the product then comes out
                # in the weight's own layout, which BLAS computes faster.
                (matrix_grad.T @ F.value(mat1)).T if follow_2 is not None else None)


class Baddbmm(Op):
    """``beta * input + alpha * (batch1 @ batch2)`` on a batch of matrices (``torch.baddbmm``)."""

    __slots__ = ("scales", "input_shape")
    arity = 3
    node_name = "BaddbmmBackward0"
    symbol = "baddbmm"
    formula = (r"u = \beta c + \alpha A B:\quad "
               r"\frac{\partial L}{\partial A} = \alpha \frac{\partial L}{\partial u} B^\top,\quad "
               r"\frac{\partial L}{\partial B} = \alpha A^\top \frac{\partial L}{\partial u}")
    formula_args = ("c", "A", "B")

    def forward(self, c, batch1, batch2, beta=1, alpha=1):
        x, y, base = batch1._data, batch2._data, c._data
        if x.ndim != 3 or y.ndim != 3:
            raise RuntimeError(f"batch1 must be a 3D tensor (got {x.ndim}D and {y.ndim}D)")
        if x.shape[0] != y.shape[0] or x.shape[2] != y.shape[1]:
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                               f"[{x.shape[0]}, {x.shape[2]}] but got: [{y.shape[0]}, {y.shape[1]}].")
        for array in (x, y, base):
            kernel_for(array, "baddbmm_cpu", "fiu")
        check_matmul_dtypes(x, y)
        check_matmul_dtypes(base, y)
        out = x @ y
        if alpha != 1:
            out = (out * alpha).astype(y.dtype, copy=False)
        out += (base * beta).astype(y.dtype, copy=False) if beta != 0 else array_module(base).zeros_like(base)
        self.saved = (batch1, batch2)
        self.scales, self.input_shape = (beta, alpha), base.shape
        return out

    def backward(self, F, grad):
        follow_c, follow_1, follow_2 = self._next
        batch1, batch2 = (F.value(t) for t in self.saved)
        beta, alpha = self.scales
        scaled = grad * alpha if alpha != 1 else grad
        return (sum_to(F, grad * beta, self.input_shape) if follow_c is not None else None,
                scaled @ F.swapaxes(batch2, 1, 2) if follow_1 is not None else None,
                F.swapaxes(batch1, 1, 2) @ scaled if follow_2 is not None else None)


class Vdot(Matmul):
    """``vdot``: ``dot`` for real vectors (conjugating the first, for complex ones)."""

    __slots__ = ()
    node_name = "VdotBackward0"

    def name(self) -> str:
        return self.node_name


def _vectors(op: str, input, other) -> None:
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {other.ndim}D tensors")
    if input.shape[0] != other.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{input.shape[0]}] and src "
                           f"[{other.shape[0]}] to have the same number of elements, but got "
                           f"{input.shape[0]} and {other.shape[0]} elements respectively")
    kernel_for(input._data, f"{op}_cpu", "fiu")
    if input._data.dtype != other._data.dtype:
        raise RuntimeError(f"{op} : expected both vectors to have same dtype, but found "
                           f"{scalar_type_name(input._data)} and {scalar_type_name(other._data)}")


def dot(input, other):
    _vectors("dot", input, other)
    return Matmul.apply(input, other)


def vdot(input, other):
    _vectors("vdot", input, other)
    return Vdot.apply(input, other)


def outer(input, vec2):
    """``input[:, None] * vec2``: PyTorch's outer is this product (MulBackward0)."""
    if input.ndim != 1 or vec2.ndim != 1:
        raise RuntimeError(f"outer: expected 1D tensors, got {input.ndim}D and {vec2.ndim}D")
    return input.reshape(-1, 1) * vec2


def bmm(input, mat2):
    if input.ndim != 3 or mat2.ndim != 3:
        raise RuntimeError(f"batch1 must be a 3D tensor (bmm got {input.ndim}D and {mat2.ndim}D, "
                           f"shapes {list(input.shape)} and {list(mat2.shape)})")
    if input.shape[0] != mat2.shape[0] or input.shape[2] != mat2.shape[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{input.shape[0]}, {input.shape[2]}] but got: [{mat2.shape[0]}, {mat2.shape[1]}].")
    kernel_for(input._data, "bmm_cpu", "fiu")
    return Matmul.apply(input, mat2)


def mv(input, vec):
    if input.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.ndim}, {vec.ndim}")
    return Matmul.apply(input, vec)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    kernel_for(mat1._data, "addmm_impl_cpu_", "fiu")
    return Addmm.apply(input, mat1, mat2, beta, alpha)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    return Baddbmm.apply(input, batch1, batch2, beta, alpha)
