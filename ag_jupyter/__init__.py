"""ag_jupyter: watch automatic differentiation happen.

A define-by-run autograd tensor with PyTorch's API, on NumPy (CPU) or CuPy (GPU).

>>> import ag_jupyter as ag
>>> x = ag.tensor([1.0, 2.0], requires_grad=True)
>>> (x * x).sum().backward()
>>> x.grad
tensor([2., 4.])
"""
from . import autograd, backends, cuda, distributions, nn, optim, random, utils
from .arrays import get_default_device, set_default_device
from .autograd.grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .backend import device
from .backends import (
    are_deterministic_algorithms_enabled,
    is_deterministic_algorithms_warn_only_enabled,
    use_deterministic_algorithms,
)
from .creation import (
    arange,
    as_tensor,
    empty,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    tensor,
    zeros,
    zeros_like,
)
from .dtypes import bool_ as bool  # noqa: A001 - PyTorch's names
from .dtypes import (
    dtype,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    set_default_dtype,
    uint8,
)
from .generator import Generator, default_generator
from .nn.top_level import batch_norm, binary_cross_entropy_with_logits, dropout, embedding, layer_norm
from .ops.activation import log_softmax, softmax
from .ops.cumulative import cumprod, cumsum, logsumexp, prod
from .ops.diagonals import diag, diagonal, tril, triu
from .ops.einsum import einsum
from .ops.elementwise import (
    abs,
    add,
    clamp,
    cos,
    div,
    exp,
    log,
    maximum,
    minimum,
    mul,
    neg,
    pow,
    relu,
    sigmoid,
    sin,
    sqrt,
    sub,
    tanh,
    where,
)
from .ops.elementwise import clamp as clip
from .ops.gather import gather, index_select, masked_fill, scatter, scatter_add
from .ops.histograms import histc, histogram
from .ops.indexing import index
from .ops.interpolation import lerp
from .ops.linalg import addmm, baddbmm, bmm, dot, matmul, mm, mv, outer, vdot
from .ops.powers_and_logs import expm1, log1p, log2, log10, reciprocal, rsqrt, square
from .ops.rearrange import chunk, flip, meshgrid, narrow, repeat_interleave, roll, split, tile, unbind
from .ops.reduction import argmax, argmin, max, mean, min, norm, std, std_mean, sum, var, var_mean
from .ops.rounding import ceil, floor, floor_divide, fmod, frac, remainder, round, sgn, sign, trunc  # noqa: A004
from .ops.shape import cat, flatten, permute, reshape, squeeze, stack, t, transpose, unsqueeze
from .ops.sorting import amax, amin, aminmax, argsort, sort, topk
from .ops.trigonometric import acos, asin, atan, atan2, cosh, erf, erfc, hypot, sinh
from .ops.unary import clamp_max, clamp_min
from .out_argument import install as _install_out_keyword
from .random import (
    bernoulli,
    get_rng_state,
    initial_seed,
    manual_seed,
    multinomial,
    normal,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    seed,
    set_rng_state,
)
from .tensor import Size, Tensor  # first: the engine and ops import names from it
from .tensor_compare import (  # noqa: A004 - PyTorch's names
    all,
    allclose,
    any,
    count_nonzero,
    eq,
    equal,
    ge,
    gt,
    isclose,
    isfinite,
    isinf,
    isnan,
    le,
    lt,
    ne,
    nonzero,
)

# issue 30, the switch: `with ag.as_torch(): import torch` gives the engine (and %%autograd --engine)
from .torch_switch import as_torch

# the tracing layer sits above the engine (which never imports it); it is small and
# imports neither torch nor IPython, so it loads with the package
from .tracing import from_torch, trace, trace_torch

half, float, double, long, int = float16, float32, float64, int64, int32  # noqa: A001
short = int16

__version__ = "0.1.0"

_install_out_keyword(globals())  # issue 30: torch.add(a, b, out=c) and the like (out_argument.py)


def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)


def numel(input: Tensor) -> int:
    return input.numel()


def clone(input: Tensor) -> Tensor:
    return input.clone()


def detach(input: Tensor) -> Tensor:
    return input.detach()



def __getattr__(name: str):
    # save/load import zipfile and json, show imports anywidget and IPython: only when first
    # used, so `import ag_jupyter` stays light (and works where Jupyter is not installed)
    if name in ("save", "load"):
        from . import serialization

        return getattr(serialization, name)
    if name == "show":
        from .widgets.show import show

        return show
    raise AttributeError(f"module 'ag_jupyter' has no attribute {name!r}")


def load_ipython_extension(ipython) -> None:
    """``%load_ext ag_jupyter``: register ``%%autograd`` and ``%autograd_show``."""
    from .magics import AutogradMagics

    ipython.register_magics(AutogradMagics)
