"""Random tensors, with PyTorch's overloads, each drawing from ``generator=`` or the global
source (``ag.manual_seed``): rand, randn, randint, randperm, normal, bernoulli, multinomial
and their ``_like`` forms; also ``ag.random``, as ``torch.random`` (seed, get_rng_state...).

>>> import ag_jupyter as ag
>>> g = ag.Generator().manual_seed(2147483647)
>>> ag.randint(0, 27, (5,), generator=g).shape
ag.Size([5])
"""
from __future__ import annotations

import contextlib

import numpy

from . import backend, dtypes
from .arrays import get_default_device
from .core import TENSOR_TYPES
from .creation import _finish, _float_or, _like, _require, _sizes
from .generator import Generator, check_bounds, default_generator, multinomial_indices, random_array, resolve
from .ops.binary import broadcast_error
from .tensor import Tensor
from .tensor_random import refuse_gradient_through, require_floating

__all__ = ["Generator", "bernoulli", "default_generator", "fork_rng", "get_rng_state", "initial_seed", "manual_seed",
           "multinomial", "normal", "rand", "rand_like", "randint", "randint_like", "randn", "randn_like",
           "randperm", "seed", "set_rng_state"]


def manual_seed(seed) -> Generator:
    """Seed the global source behind every random function, dropout and nn.init; returns it."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    return default_generator.get_state()


def set_rng_state(new_state: Tensor) -> None:
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled: bool = True, *, device_type: str = "cuda"):
    """Draw inside the block, then put the global source back as it was (one source serves
    CPU and GPU, so ``devices`` changes nothing)."""
    if not enabled:
        yield
        return
    saved = default_generator.get_state()
    try:
        yield
    finally:
        default_generator.set_state(saved)


def _size_keyword(keywords: dict, name: str):
    """``size=`` is a keyword PyTorch takes beside ``*size`` (a Python signature cannot)."""
    unknown = set(keywords) - {"size", "layout", "pin_memory"}
    if unknown:
        raise TypeError(f"{name}() got an unexpected keyword argument {sorted(unknown)[0]!r}")
    return keywords.get("size")


def _shape(size: tuple, keyword, name: str) -> tuple:
    """``rand(2, 3)``, ``rand((2, 3))`` or ``rand(size=(2, 3))``, not two at once, nor none."""
    if keyword is None:
        if not size:
            raise TypeError(f"{name}() needs a size: {name}(2, 3), {name}((2, 3)) or {name}(size=(2, 3)); "
                            f"{name}(()) is a 0-d tensor")
        shape = _sizes(size)
    elif size:
        raise TypeError(f"{name}() got both sizes {size} and size={keyword!r}: give one")
    else:
        shape = (keyword,) if isinstance(keyword, int) else tuple(keyword)
    return _checked(shape)


def _checked(shape: tuple) -> tuple:
    """Sizes as PyTorch takes them: ints (a float is refused, not truncated), none negative."""
    for size in shape:
        if not _is_int(size):
            raise TypeError(f"size must be a tuple of ints, but got {type(size).__name__} in {shape}")
        if size < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {size}: {list(shape)}")
    return shape


def _target(device) -> backend.device:
    """Where a new tensor goes: ``device``, else the default device (which a generator must match)."""
    return backend.as_device(device) if device is not None else get_default_device()


def _floats(kind: str, name: str, size, keywords, generator, dtype, device, requires_grad) -> Tensor:
    shape = _shape(size, _size_keyword(keywords, name), name)  # PyTorch reads the arguments first
    if kind == "uniform" or 0 not in shape:  # randn runs no kernel (no dtype check) for an empty tensor
        _require("f", dtype, name)
    target = _target(device)
    array = random_array(kind, shape, _float_or(dtype), target, 0.0, 1.0, generator)
    return _finish(array, target, requires_grad)


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False, **keywords) -> Tensor:
    """Uniform numbers in ``[0, 1)``: ``rand(2, 3)``, ``rand((2, 3))``, ``rand(size=(2, 3))``."""
    return _floats("uniform", "rand", size, keywords, generator, dtype, device, requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False, **keywords) -> Tensor:
    """Standard normal numbers: ``randn(2, 3)``, ``randn((2, 3))``, ``randn(size=(2, 3))``."""
    return _floats("normal", "randn", size, keywords, generator, dtype, device, requires_grad)


def _is_int(value) -> bool:
    return isinstance(value, (int, numpy.integer)) and not isinstance(value, bool)


def randint(*args, size=None, low=None, high=None, generator=None, dtype=None, device=None,
            requires_grad=False) -> Tensor:
    """Integers in ``[low, high)``: ``randint(high, size)`` or ``randint(low, high, size)``, ``size=``
    as a keyword too; int64 unless ``dtype`` says otherwise."""
    if len(args) == 3 and args[0].__class__ is int and args[1].__class__ is int and size is None \
            and low is None and high is None:  # randint(0, n, (32,)): once per training step, kept short
        low, high, size = args
    else:
        low, high, size = _randint_overload(args, size, low, high)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    numpy_dtype = dtypes.to_numpy(dtype) if dtype is not None else _INT64
    check_bounds(low, high, numpy_dtype)
    target = _target(device)
    shape = _checked((size,) if isinstance(size, int) else tuple(size))
    array = random_array("integers", shape, numpy_dtype, target, low, high, generator)
    return _finish(array, target, requires_grad)


_INT64 = dtypes.int64.numpy


def _randint_overload(args: tuple, size, low, high) -> tuple:
    """``(low, high, size)`` from PyTorch's overloads ``(high, size)`` and ``(low, high, size)``,
    any of them as keywords, refused in PyTorch's words."""
    bounds = list(args)
    if size is None and bounds and not _is_int(bounds[-1]):
        size = bounds.pop()
    elif size is None and len(bounds) >= 2:
        raise TypeError(f"randint(): argument 'size' (position {len(bounds)}) must be tuple of ints, "
                        f"not {type(bounds[-1]).__name__}")
    bounds = ([] if low is None else [low]) + bounds + ([] if high is None else [high])
    if size is None or len(bounds) not in (1, 2):
        raise TypeError(f"randint() takes (high, size) or (low, high, size), as randint(10, (3,)) or "
                        f"randint(0, 10, (3,)); got the bounds {tuple(bounds)} and size={size!r}")
    for position, bound in enumerate(bounds, 1):
        if not _is_int(bound):
            raise TypeError(f"randint(): argument '{'high' if position == len(bounds) else 'low'}' "
                            f"(position {position}) must be int, not {type(bound).__name__}")
    if len(bounds) == 1:
        return 0, int(bounds[0]), size
    return int(bounds[0]), int(bounds[1]), size


def randperm(n: int, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """The integers ``0 .. n-1`` in random order (int64 unless ``dtype`` says otherwise)."""
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    numpy_dtype = dtypes.to_numpy(dtype) if dtype is not None else dtypes.int64.numpy
    target = _target(device)
    return _finish(resolve(generator, target).permutation(n).astype(numpy_dtype), target, requires_grad)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None,
           requires_grad=False) -> Tensor:
    """Normal numbers: ``normal(mean_tensor, std_tensor)`` (broadcast), ``normal(mean_tensor,
    std=1.0)``, ``normal(mean, std_tensor)``, or ``normal(mean, std, size)`` of floats."""
    tensors = [v for v in (mean, std) if v.__class__ in TENSOR_TYPES]
    if not tensors:
        if size is None:
            raise TypeError("normal() with a float mean and a float std needs a size: normal(0.0, 1.0, (2, 3)), "
                            "or pass mean or std as a tensor")
        _require("f", dtype, "normal_kernel_cpu")
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
        target = _target(device)
        array = random_array("normal", tuple(size), _float_or(dtype), target, mean, std, generator)
        return _finish(array, target, requires_grad)
    if size is not None:
        raise TypeError("normal() takes a size only with a float mean and a float std; with a tensor "
                        "the result has its shape")
    for t in tensors:
        require_floating(t, "normal_kernel_cpu")
    refuse_gradient_through("normal", mean, std)
    if std.__class__ in TENSOR_TYPES:
        if bool((std._data < 0).any()):
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    arrays = [v._data if v.__class__ in TENSOR_TYPES else v for v in (mean, std)]
    from_data = tensors[0]._data.dtype if len(tensors) == 1 else numpy.promote_types(*[a.dtype for a in arrays])
    shapes = [a.shape for a in arrays if hasattr(a, "shape")]
    try:
        shape = numpy.broadcast_shapes(*shapes)
    except ValueError:
        raise broadcast_error(*shapes) from None
    device = tensors[0].device
    draws = random_array("normal", shape, from_data, device, 0.0, 1.0, generator)
    return _finish((arrays[0] + arrays[1] * draws).astype(from_data, copy=False), device, False)


def bernoulli(input: Tensor, p=None, *, generator=None) -> Tensor:
    """0 or 1 in ``input``'s dtype: 1 with probability ``input`` (each element), or ``p``."""
    return input.bernoulli(p, generator=generator)


def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *, generator=None) -> Tensor:
    """Indices drawn from each row of ``input``'s weights (non-negative, any sum): int64 of shape
    (num_samples,) or (rows, num_samples)."""
    source = resolve(generator, input.device)
    picks = multinomial_indices(backend.move(input._data, backend.CPU), num_samples, replacement, source)
    return _finish(picks, input.device, False)


def rand_like(input: Tensor, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    dtype, device = _like(input, dtype, device)
    return rand(input.shape, generator=generator, dtype=dtype, device=device, requires_grad=requires_grad)


def randn_like(input: Tensor, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    dtype, device = _like(input, dtype, device)
    return randn(input.shape, generator=generator, dtype=dtype, device=device, requires_grad=requires_grad)


def randint_like(input: Tensor, low=0, high=None, *, generator=None, dtype=None, device=None,
                 requires_grad=False) -> Tensor:
    if high is None:
        low, high = 0, low
    dtype, device = _like(input, dtype, device)
    return randint(low, high, tuple(input.shape), generator=generator, dtype=dtype, device=device,
                   requires_grad=requires_grad)
