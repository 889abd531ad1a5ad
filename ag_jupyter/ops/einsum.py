"""``einsum`` for the subscripts a course writes: one or two operands, each letter once per
operand (``ij,jk->ik``, ``bij,bjk->bik``, ``i,i->``, ``i,j->ij``, ``ij->ji``, ``ij->``).

The contraction is NumPy's/CuPy's ``einsum`` with ``optimize=True``, which hands a
product of two operands to BLAS (``tensordot``). Each operand's gradient is again an
einsum, of the output's gradient with the other operand, so ``create_graph`` works.
Forms outside this (a repeated letter such as the trace ``ii``, ``...``, three operands,
a letter summed within one of two operands) raise a clear error.
"""
from __future__ import annotations

from ..autograd.function import Op
from ..backend import array_module
from ..core import TENSOR_TYPES
from ..promotion import kernel_for, result_type

_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _unsupported(equation: str, why: str) -> NotImplementedError:
    return NotImplementedError(
        f"einsum({equation!r}): {why}. ag_jupyter's einsum takes one or two operands with each "
        f"letter at most once per operand (e.g. 'ij,jk->ik', 'bij,bjk->bik', 'i,j->ij', 'ij->ji'); "
        f"write this one with diagonal/sum/matmul instead")


def parse(equation: str, ndims: tuple) -> tuple:
    """``(inputs, output)``: the subscripts of each operand and of the result, checked."""
    compact = equation.replace(" ", "")
    if "..." in compact:
        raise _unsupported(equation, "'...' is not supported")
    left, arrow, right = compact.partition("->")
    inputs = left.split(",")
    if len(inputs) != len(ndims):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation"
                           if len(ndims) > len(inputs) else
                           "einsum(): fewer operands were provided than specified in the equation")
    if not 1 <= len(inputs) <= 2:
        raise _unsupported(equation, f"{len(inputs)} operands")
    for k, (subscripts, ndim) in enumerate(zip(inputs, ndims)):
        if any(c not in _LETTERS for c in subscripts):
            raise RuntimeError(f"einsum(): invalid subscript given at index {k} in the equation string, "
                               f"subscripts must be in [a-zA-Z]")
        if len(subscripts) != ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(subscripts)}) does "
                               f"not match the number of dimensions ({ndim}) for operand {k} and no "
                               f"ellipsis was given")
        if len(set(subscripts)) != len(subscripts):
            raise _unsupported(equation, f"operand {k} repeats a letter ({subscripts!r})")
    if arrow:
        output = right
        if len(set(output)) != len(output) or any(c not in "".join(inputs) for c in output):
            raise RuntimeError(f"einsum(): output subscript {output!r} repeats a letter or names one that "
                               f"no operand has")
    else:  # implicit: the letters seen once, in alphabetical order
        joined = "".join(inputs)
        output = "".join(sorted(c for c in set(joined) if joined.count(c) == 1))
    if len(inputs) == 2:
        for k, subscripts in enumerate(inputs):
            lone = [c for c in subscripts if c not in output and c not in inputs[1 - k]]
            if lone:
                raise _unsupported(equation, f"letter {lone[0]!r} is summed within operand {k} alone")
    return tuple(inputs), output


class Einsum(Op):
    __slots__ = ("inputs", "output", "shapes")
    arity = None  # every argument but the last (the equation) is an operand
    node_name = "EinsumBackward0"
    symbol = "einsum"
    formula = (r"u = \textstyle\sum a\,b \text{ over the letters not kept}:\quad "
               r"\frac{\partial L}{\partial a} = \text{einsum of } \frac{\partial L}{\partial u} \text{ with } b")

    def forward(self, *args):
        *operands, equation = args
        arrays = [t._data for t in operands]
        self.inputs, self.output = parse(equation, tuple(x.ndim for x in arrays))
        self.shapes = tuple(x.shape for x in arrays)
        if len(arrays) == 2 and not set("".join(self.inputs)) - set(self.output):
            target = result_type(*arrays)  # nothing contracted: a product, promoted as PyTorch's mul
            arrays = [x.astype(target, copy=False) for x in arrays]
        if len({x.dtype for x in arrays}) > 1:
            raise RuntimeError(f"einsum(): expected all operands to have the same dtype, got "
                               f"{', '.join(str(t.dtype) for t in operands)}")
        self.saved = tuple(operands)
        xp = array_module(arrays[0])
        spec = ",".join(self.inputs) + "->" + self.output
        if len(arrays) == 2 and set("".join(self.inputs)) - set(self.output):
            kernel_for(arrays[0], "bmm", "fiu")  # PyTorch contracts by bmm, which has no bool kernel
        if len(arrays) == 1 and arrays[0].dtype.kind in "biu" and len(self.output) < len(self.inputs[0]):
            arrays = [arrays[0].astype("int64")]  # a sum of integers (or bools) is int64, as PyTorch's
        return xp.asarray(xp.einsum(spec, *arrays, optimize=len(arrays) > 1))

    def backward(self, F, grad):
        if len(self.inputs) == 1:
            return (self._spread(F, grad),)
        (sa, sb), out = self.inputs, self.output
        a, b = (F.value(t) for t in self.saved)
        follow_a, follow_b = self._next
        return (_contract(F, f"{out},{sb}->{sa}", grad, b, self.shapes[0]) if follow_a is not None else None,
                _contract(F, f"{out},{sa}->{sb}", grad, a, self.shapes[1]) if follow_b is not None else None)

    def _spread(self, F, grad):
        """One operand: its letters kept in the output come back in place, summed ones broadcast."""
        (subscripts,), out = self.inputs, self.output
        kept = [c for c in subscripts if c in out]
        moved = F.permute(grad, tuple(out.index(c) for c in kept)) if kept else grad
        with_ones = tuple(self.shapes[0][i] if c in out else 1 for i, c in enumerate(subscripts))
        return F.expand(F.reshape(moved, with_ones), self.shapes[0])


def _contract(F, spec: str, grad, other, shape: tuple):
    """``einsum(spec, grad, other)`` in the backward's algebra; a letter of the operand that
    is in neither (a size-1 broadcast) cannot occur: parse refused such forms."""
    if F.records:
        return Einsum.apply(grad, other, spec)
    return array_module(grad).einsum(spec, grad, other, optimize=True).reshape(shape)


def einsum(equation, *operands):
    if len(operands) == 1 and operands[0].__class__ not in TENSOR_TYPES:
        operands = tuple(operands[0])  # einsum('ij,jk', [a, b]), as PyTorch accepts
    for k, t in enumerate(operands):
        if t.__class__ not in TENSOR_TYPES:
            raise TypeError(f"einsum(): argument 'operands' must be tuple of Tensors, not "
                            f"{type(t).__name__} (operand {k})")
    return Einsum.apply(*operands, equation)
