"""The ``out=`` keyword of PyTorch's functions (``torch.add(a, b, out=c)``), in one place: each
listed function of the package is wrapped once, when it loads (``install``), so no op carries
the keyword itself.

As PyTorch does it: the result is written into ``out`` (which keeps its identity, and its
memory when the shapes agree: a view writes through to its base) and ``out`` is returned; an
``out`` of another shape is resized, with PyTorch's warning unless it was empty; the result
must be castable to ``out``'s dtype (a float result does not go into an integer ``out``), and
a factory (``zeros``, ``arange``) makes ``out``'s dtype. Nothing is recorded: with grad mode on,
an input or ``out`` that requires grad is PyTorch's error."""
from __future__ import annotations

import functools
import warnings

import numpy

from . import backend, dtypes
from .autograd import state
from .autograd.grad_mode import no_grad
from .promotion import category
from .tensor import TENSOR_TYPES

# the functions a course writes with out= (the factories take out's dtype as theirs)
COMPUTED = ("add", "sub", "mul", "div", "pow", "matmul", "mm", "bmm", "cat", "stack", "sum", "mean", "exp",
            "log", "sqrt", "abs", "neg", "sin", "cos", "tanh", "sigmoid", "clamp", "clip", "where", "maximum",
            "minimum")
FACTORIES = ("arange", "zeros", "ones", "full", "linspace", "eye", "empty")


def _requires_grad(values) -> bool:
    for value in values:
        if value.__class__ in TENSOR_TYPES:
            if value._requires_grad:
                return True
        elif isinstance(value, (list, tuple)) and _requires_grad(value):
            return True
    return False


def write_out(out, result, name: str):
    """``result`` written into ``out`` as PyTorch writes an out= argument; ``out`` back."""
    values = result._data
    target = out._data
    if category(values.dtype) > category(target.dtype):
        raise RuntimeError(f"result type {dtypes.scalar_type_name(values)} can't be cast to the desired output "
                           f"type {dtypes.scalar_type_name(target)}")
    if tuple(out.shape) != tuple(result.shape):
        if target.size:
            warnings.warn(f"An output with one or more elements was resized since it had shape {list(out.shape)}, "
                          f"which does not match the required output shape {list(result.shape)}. This behavior is "
                          f"deprecated, and in a future PyTorch release outputs will not be resized unless they "
                          f"have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, "
                          f"to zero elements with t.resize_(0).", UserWarning, stacklevel=3)
        out._data = backend.array_module(target).empty(tuple(result.shape), dtype=target.dtype)
    with no_grad():
        out.copy_(result)
    return out


def accepts_out(function, name: str, factory: bool = False):
    """``function`` with PyTorch's ``out=`` keyword."""
    @functools.wraps(function)
    def with_out(*args, out=None, **kwargs):
        if out is None:
            return function(*args, **kwargs)
        if out.__class__ not in TENSOR_TYPES:
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
        if factory:
            given = kwargs.get("dtype")
            if given is not None and given != out.dtype:
                asked = dtypes.scalar_type_name(numpy.empty(0, dtypes.to_numpy(given)))
                raise RuntimeError(f"dtype {asked} does not match dtype of out parameter "
                                   f"({dtypes.scalar_type_name(out._data)})")
            kwargs["dtype"] = out.dtype
            kwargs.setdefault("device", out.device)
        if state.grad_enabled and (out._requires_grad or _requires_grad(args) or _requires_grad(kwargs.values())):
            raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                               f"differentiation, but one of the arguments requires grad.")
        with no_grad():
            result = function(*args, **kwargs)
        return write_out(out, result, name)
    return with_out


def install(namespace: dict) -> None:
    """Give each listed function of ``namespace`` (the package's) the out= keyword."""
    for name in COMPUTED + FACTORIES:
        namespace[name] = accepts_out(namespace[name], name, factory=name in FACTORIES)
