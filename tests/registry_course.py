"""Registry cases of issue 30's Tensor surface (the ops a PyTorch course calls); op_registry.py
gathers them. Each family's file in ``ops/`` is named above its cases."""
from __future__ import annotations

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from registry_tools import (
    Case,
    away_from,
    binary,
    distinct,
    nonscalar_shapes,
    nonzero,
    positive,
    small_shapes,
    unary,
    values,
    with_dim,
)


def _clamp(data):
    shape = data.draw(small_shapes)
    return [data.draw(away_from(shape, [-1.0, 1.5], 0.2))], {"min": -1.0, "max": 1.5}


def reduced(method: str):
    """``a.METHOD()`` over everything, or ``a.METHOD(dim, keepdim=...)``."""
    def run(m, a, dim, keepdim):
        return getattr(a, method)() if dim is None else getattr(a, method)(dim, keepdim=keepdim)
    return run

_HALVES = [k / 2 for k in range(-8, 9)]  # where floor/ceil/round/trunc jump


def _apart_from_whole_quotients(data):
    """``a`` and a divisor away from 0, with no ``a / b`` near a whole number (where
    remainder and fmod jump)."""
    a, b = binary(values, lambda s: away_from(s, [0.0], 0.5))(data)[0]
    quotient = np.asarray(a) / np.asarray(b)
    assume(np.all(np.abs(quotient - np.round(quotient)) > 0.02))
    return [a, b], {}


def _lerp_tensor(data):
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=3, max_side=3)).input_shapes
    return [data.draw(values(s)) for s in shapes], {}


def _with_zeros(shape):
    return hnp.arrays(np.float64, shape, elements=st.sampled_from([0.0, 0.5, -1.5, 2.0, 1.25]))


def _topk(data):
    shape = data.draw(nonscalar_shapes)
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    k = data.draw(st.integers(1, shape[dim]))
    return [data.draw(distinct(shape))], {"k": k, "dim": dim, "largest": data.draw(st.booleans())}


def _along_dim(data, unique: bool):
    """An input, a dim, and an int64 index no larger than the input off ``dim`` (unique
    positions along ``dim`` for scatter, where a repeat's winner is unspecified)."""
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    dim = data.draw(st.integers(0, len(shape) - 1))
    index_shape = tuple(data.draw(st.integers(1, s)) for s in shape)
    if unique:
        index_shape = tuple(min(s, shape[dim]) if k == dim else s for k, s in enumerate(index_shape))
        keys = data.draw(hnp.arrays(np.float64, (shape[dim],) + index_shape[:dim] + index_shape[dim + 1:],
                                    elements=st.floats(0, 1), unique=False))
        order = np.argsort(keys, axis=0, kind="stable")[: index_shape[dim]]
        index = np.moveaxis(order, 0, dim)
    else:
        index = data.draw(hnp.arrays(np.int64, index_shape, elements=st.integers(0, shape[dim] - 1)))
    return shape, dim, index


def _gather(data):
    shape, dim, index = _along_dim(data, unique=False)
    return [data.draw(values(shape))], {"dim": dim, "index": index}


def _scatter(data, unique=True):
    shape, dim, index = _along_dim(data, unique=unique)
    # a src larger than the index is read in part; PyTorch's backward refuses it (tested apart)
    return [data.draw(values(shape)), data.draw(values(index.shape))], {"dim": dim, "index": index}


def _index_select(data):
    shape = data.draw(nonscalar_shapes)
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    index = data.draw(hnp.arrays(np.int64, (data.draw(st.integers(0, 4)),), elements=st.integers(0, shape[dim] - 1)))
    return [data.draw(values(shape))], {"dim": dim, "index": index}


def _masked(data):
    shape = data.draw(small_shapes)
    mask_shape = shape[data.draw(st.integers(0, len(shape))):]
    return [data.draw(values(shape))], {"mask": data.draw(hnp.arrays(np.bool_, mask_shape))}


def _masked_tensor(data):
    arrays, params = _masked(data)
    return arrays + [data.draw(values(()))], params


def _split(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=4))
    return [data.draw(values(shape))], {"dim": data.draw(st.integers(-len(shape), len(shape) - 1))}


def _repeat(data):
    shape = data.draw(small_shapes)
    extra = data.draw(st.integers(0 if shape else 1, 1))  # PyTorch's repeat() needs one size at least
    sizes = tuple(data.draw(st.integers(1, 3)) for _ in range(len(shape) + extra))
    return [data.draw(values(shape))], {"sizes": sizes}


def _flip(data):
    shape = data.draw(nonscalar_shapes)
    dims = data.draw(st.lists(st.integers(0, len(shape) - 1), min_size=1, max_size=len(shape), unique=True))
    return [data.draw(values(shape))], {"dims": tuple(dims)}


def _roll(data):
    shape = data.draw(nonscalar_shapes)
    if data.draw(st.booleans()):
        return [data.draw(values(shape))], {"shifts": data.draw(st.integers(-5, 5)), "dims": None}
    dims = data.draw(st.lists(st.integers(0, len(shape) - 1), min_size=1, max_size=len(shape), unique=True))
    return [data.draw(values(shape))], {"shifts": tuple(data.draw(st.integers(-4, 4)) for _ in dims),
                                        "dims": tuple(dims)}


def _matrix_and_offset(data, min_dims=2, max_dims=3):
    shape = data.draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=1, max_side=4))
    return [data.draw(values(shape))], {"offset": data.draw(st.integers(-2, 2))}


def _diagonal(data):
    arrays, params = _matrix_and_offset(data)
    ndim = arrays[0].ndim
    dim1, dim2 = data.draw(st.lists(st.integers(-ndim, ndim - 1), min_size=2, max_size=2).filter(
        lambda d: d[0] % ndim != d[1] % ndim))
    return arrays, {**params, "dim1": dim1, "dim2": dim2}


def _vector_and_offset(data):
    return [data.draw(values((data.draw(st.integers(1, 4)),)))], {"offset": data.draw(st.integers(-2, 2))}


def _vectors(data):
    n = data.draw(st.integers(1, 4))
    return [data.draw(values((n,))), data.draw(values((n,)))], {}


def _batched(data, with_input=False):
    b, n, k, m = (data.draw(st.integers(1, 3)) for _ in range(4))
    arrays = [data.draw(values((b, n, k))), data.draw(values((b, k, m)))]
    if with_input:
        input_shape = data.draw(st.sampled_from([(b, n, m), (n, m), (m,), ()]))
        return [data.draw(values(input_shape))] + arrays, {"beta": data.draw(st.sampled_from([1, 0.5, 0])),
                                                           "alpha": data.draw(st.sampled_from([1, -2.0]))}
    return arrays, {}


def _addmm(data):
    n, k, m = (data.draw(st.integers(1, 3)) for _ in range(3))
    bias = data.draw(st.sampled_from([(n, m), (m,), ()]))
    return [data.draw(values(bias)), data.draw(values((n, k))), data.draw(values((k, m)))], {
        "beta": data.draw(st.sampled_from([1, 0.5, 0])), "alpha": data.draw(st.sampled_from([1, -2.0]))}


_EINSUM_FORMS = {"ij,jk->ik": ((2, 3), (3, 4)), "bij,bjk->bik": ((2, 2, 3), (2, 3, 2)), "i,i->": ((3,), (3,)),
                 "i,j->ij": ((2,), (3,)), "ij,ij->i": ((2, 3), (2, 3)), "ij,j": ((2, 3), (3,)),
                 "ij->ji": ((2, 3),), "ij->": ((2, 3),), "ijk->kj": ((2, 3, 2),),
                 "bhqd,bhkd->bhqk": ((1, 2, 2, 3), (1, 2, 3, 3))}


def _einsum(data):
    equation = data.draw(st.sampled_from(sorted(_EINSUM_FORMS)))
    return [data.draw(values(s)) for s in _EINSUM_FORMS[equation]], {"equation": equation}


COURSE_CASES = [
    # ops/powers_and_logs.py, ops/trigonometric.py, ops/interpolation.py, ops/unary.py (clamp_min/max)
    Case("log1p", unary(lambda s: values(s, -0.7, 3)), lambda m, a: m.log1p(a), ("Log1p",)),
    Case("log10", unary(positive), lambda m, a: a.log10(), ("Log10",)),
    Case("log2", unary(positive), lambda m, a: m.log2(a), ("Log2",)),
    Case("expm1", unary(), lambda m, a: a.expm1(), ("Expm1",)),
    Case("rsqrt", unary(positive), lambda m, a: m.rsqrt(a), ("Rsqrt",)),
    Case("reciprocal", unary(nonzero), lambda m, a: a.reciprocal(), ("Reciprocal",)),
    Case("square", unary(), lambda m, a: m.square(a), ("Pow",)),
    Case("asin", unary(lambda s: values(s, -0.9, 0.9)), lambda m, a: m.asin(a), ("Asin",)),
    Case("acos", unary(lambda s: values(s, -0.9, 0.9)), lambda m, a: a.acos(), ("Acos",)),
    Case("atan", unary(), lambda m, a: m.atan(a), ("Atan",)),
    Case("sinh", unary(), lambda m, a: a.sinh(), ("Sinh",)),
    Case("cosh", unary(), lambda m, a: m.cosh(a), ("Cosh",)),
    Case("erf", unary(), lambda m, a: m.erf(a), ("Erf",)),
    Case("erfc", unary(), lambda m, a: a.erfc(), ("Erfc",)),
    Case("atan2", binary(nonzero, nonzero), lambda m, a, b: m.atan2(a, b), ("Atan2",)),
    Case("hypot", binary(nonzero, nonzero), lambda m, a, b: m.hypot(a, b), ("Hypot",)),
    Case("lerp", binary(), lambda m, a, b: m.lerp(a, b, 0.3), ("Lerp",)),
    Case("lerp_tensor_weight", _lerp_tensor, lambda m, a, b, w: a.lerp(b, w), ("LerpTensor",)),
    Case("clamp_min", unary(lambda s: away_from(s, [0.5], 0.2)), lambda m, a: m.clamp_min(a, 0.5), ("ClampMin",)),
    Case("clamp_max", unary(lambda s: away_from(s, [0.5], 0.2)), lambda m, a: a.clamp_max(0.5), ("ClampMax",)),
    Case("clip", _clamp, lambda m, a, min, max: m.clip(a, min, max), ("Clamp",)),
    # ops/rounding.py
    Case("floor", unary(lambda s: away_from(s, _HALVES, 0.02)), lambda m, a: m.floor(a), ("Floor",)),
    Case("ceil", unary(lambda s: away_from(s, _HALVES, 0.02)), lambda m, a: a.ceil(), ("Ceil",)),
    Case("trunc", unary(lambda s: away_from(s, _HALVES, 0.02)), lambda m, a: m.trunc(a), ("Trunc",)),
    Case("round", unary(lambda s: away_from(s, _HALVES, 0.02)), lambda m, a: m.round(a), ("Round",)),
    Case("round_decimals", unary(lambda s: away_from(s, [k / 20 for k in range(-60, 61)], 0.004)),
         lambda m, a: a.round(decimals=1), ("Round",)),
    Case("frac", unary(lambda s: away_from(s, _HALVES, 0.02)), lambda m, a: m.frac(a), ("Frac",)),
    Case("sign", unary(nonzero), lambda m, a: m.sign(a), ("Sign",)),
    Case("sgn", unary(nonzero), lambda m, a: a.sgn(), ("Sgn",)),
    Case("remainder", _apart_from_whole_quotients, lambda m, a, b: a % b, ("Remainder",)),
    Case("remainder_number", unary(lambda s: away_from(s, [k * 0.7 for k in range(-5, 6)], 0.02)),
         lambda m, a: m.remainder(a, 0.7), ("Remainder",)),
    Case("fmod", _apart_from_whole_quotients, lambda m, a, b: m.fmod(a, b), ("Fmod",)),
    # ops/cumulative.py
    Case("cumsum", with_dim(keepdim=False, allow_none=False), lambda m, a, dim: m.cumsum(a, dim), ("Cumsum",)),
    # without zeros both divide by the input, as PyTorch does (a denormal one overflows): nonzero draws
    Case("cumprod", with_dim(nonzero, keepdim=False, allow_none=False), lambda m, a, dim: a.cumprod(dim), ("Cumprod",)),
    Case("cumprod_zeros", with_dim(_with_zeros, keepdim=False, allow_none=False),
         lambda m, a, dim: m.cumprod(a, dim), ("Cumprod",)),
    Case("prod", with_dim(nonzero), reduced("prod"), ("Prod",)),
    Case("prod_zeros", with_dim(_with_zeros), reduced("prod"), ("Prod",)),
    Case("logsumexp", with_dim(allow_none=False), lambda m, a, dim, keepdim: m.logsumexp(a, dim, keepdim),
         ("Logsumexp",)),
    # ops/sorting.py
    Case("sort", with_dim(distinct, keepdim=False, allow_none=False), lambda m, a, dim: m.sort(a, dim)[0], ("Sort",)),
    Case("sort_descending", with_dim(distinct, keepdim=False, allow_none=False),
         lambda m, a, dim: a.sort(dim, descending=True).values, ("Sort",)),
    Case("topk", _topk, lambda m, a, k, dim, largest: m.topk(a, k, dim, largest)[0], ("Topk",)),
    Case("amax", with_dim(distinct), lambda m, a, dim, keepdim: a.amax(() if dim is None else dim, keepdim),
         ("Amax",)),
    Case("amin", with_dim(distinct), lambda m, a, dim, keepdim: m.amin(a, () if dim is None else dim, keepdim),
         ("Amin",)),
    # ops/gather.py
    Case("gather", _gather, lambda m, a, dim, index: m.gather(a, dim, m.as_tensor(index)), ("Gather",)),
    Case("scatter", _scatter, lambda m, a, src, dim, index: a.scatter(dim, m.as_tensor(index), src), ("Scatter",)),
    Case("scatter_value", _gather, lambda m, a, dim, index: a.scatter(dim, m.as_tensor(index), 0.5),
         ("ScatterValue",)),
    Case("scatter_add", lambda data: _scatter(data, unique=False),
         lambda m, a, src, dim, index: m.scatter_add(a, dim, m.as_tensor(index), src), ("ScatterAdd",)),
    Case("index_select", _index_select, lambda m, a, dim, index: a.index_select(dim, m.as_tensor(index)),
         ("IndexSelect",)),
    Case("masked_fill", _masked, lambda m, a, mask: a.masked_fill(m.as_tensor(mask), 0.5), ("MaskedFill",)),
    Case("masked_fill_tensor", _masked_tensor, lambda m, a, v, mask: m.masked_fill(a, m.as_tensor(mask), v),
         ("MaskedFillTensor",)),
    # ops/rearrange.py, ops/diagonals.py
    Case("split", _split, lambda m, a, dim: a.split(2, dim)[-1], ("SplitPiece",)),
    Case("split_sizes", _split, lambda m, a, dim: m.split(a, [1, a.shape[dim] - 1], dim)[1], ("SplitWithSizesPiece",)),
    Case("chunk", _split, lambda m, a, dim: a.chunk(2, dim)[0], ("SplitPiece",)),
    Case("unbind", _split, lambda m, a, dim: m.unbind(a, dim)[1], ("UnbindPiece",)),
    Case("repeat", _repeat, lambda m, a, sizes: a.repeat(*sizes), ("Repeat",)),
    Case("tile", _repeat, lambda m, a, sizes: m.tile(a, sizes), ("Repeat",)),
    Case("flip", _flip, lambda m, a, dims: m.flip(a, dims), ("Flip",)),
    Case("roll", _roll, lambda m, a, shifts, dims: a.roll(shifts, dims), ("Roll",)),
    Case("diagonal", _diagonal, lambda m, a, offset, dim1, dim2: a.diagonal(offset, dim1, dim2), ("Diagonal",)),
    Case("diag_of_vector", _vector_and_offset, lambda m, a, offset: m.diag(a, offset), ("DiagEmbed",)),
    Case("trace", lambda data: _matrix_and_offset(data, 2, 2), lambda m, a, offset: a.trace(), ("Trace",)),
    Case("tril", lambda data: _matrix_and_offset(data), lambda m, a, offset: m.tril(a, offset), ("Tril",)),
    Case("triu", lambda data: _matrix_and_offset(data), lambda m, a, offset: a.triu(offset), ("Triu",)),
    # ops/linalg.py, ops/einsum.py
    Case("dot", _vectors, lambda m, a, b: m.dot(a, b), ("Matmul",)),
    Case("vdot", _vectors, lambda m, a, b: a.vdot(b), ("Vdot",)),
    Case("outer", _vectors, lambda m, a, b: m.outer(a, b), ("Mul",)),
    Case("bmm", _batched, lambda m, a, b: m.bmm(a, b), ("Matmul",)),
    Case("addmm_scaled", _addmm, lambda m, c, a, b, beta, alpha: m.addmm(c, a, b, beta=beta, alpha=alpha),
         ("Addmm",)),
    Case("baddbmm", lambda data: _batched(data, with_input=True),
         lambda m, c, a, b, beta, alpha: m.baddbmm(c, a, b, beta=beta, alpha=alpha), ("Baddbmm",)),
    # PyTorch draws einsum as the views around its bmm; here it is one node, EinsumBackward0
    Case("einsum", _einsum, lambda m, *operands, equation: m.einsum(equation, *operands), ("Einsum",),
         extra={"own_node_names": True}),
]
COURSE_INDIRECT = {
    "FloorDivide": "test_course_surface_against_torch.py (PyTorch defines no derivative: its error is checked)",
}
