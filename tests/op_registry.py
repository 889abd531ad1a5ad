"""Every differentiable op, registered once, with how to draw its inputs.

The gradient tests (finite differences, PyTorch parity, create_graph) iterate over
``CASES``; ``test_registry_covers_every_op`` fails when an ``Op`` subclass is not
covered, so a new op is tested by being registered: here, or in an area's own module
(``registry_layers.py``: issue 30's layers; ``registry_windows.py``: convolution and
pooling; ``registry_course.py``: its Tensor surface) whose lists are gathered at the end;
the Case class and the input strategies are in ``registry_tools.py``.
"""
from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from registry_course import COURSE_CASES, COURSE_INDIRECT
from registry_layers import LAYER_CASES
from registry_round2 import ROUND2_CASES
from registry_tools import (
    Case,
    away_from,
    binary,
    distinct,
    functional,
    nonscalar_shapes,
    nonzero,
    positive,
    small_shapes,
    unary,
    values,
    with_dim,
)
from registry_windows import WINDOW_CASES

import ag_jupyter as ag


def _matmul_shapes(data):
    kind = data.draw(st.sampled_from(["mm", "vv", "mv", "vm", "batched", "broadcast"]))
    n, k, m, b = (data.draw(st.integers(1, 3)) for _ in range(4))
    return {"mm": ((n, k), (k, m)), "vv": ((k,), (k,)), "mv": ((n, k), (k,)), "vm": ((k,), (k, m)),
            "batched": ((b, n, k), (b, k, m)), "broadcast": ((b, n, k), (k, m))}[kind]


def _matmul(data):
    sa, sb = _matmul_shapes(data)
    return [data.draw(values(sa)), data.draw(values(sb))], {}


def _index(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=4))
    kind = data.draw(st.sampled_from(["int", "slice", "array", "mask", "pair"]))
    key = {"int": 1, "slice": slice(0, None, 2), "array": [0, 1, 0],
           "mask": np.arange(shape[0]) % 2 == 0, "pair": (slice(None), 0) if len(shape) > 1 else 0}[kind]
    return [data.draw(values(shape))], {"key": key}


def _permutation(data):
    shape = data.draw(nonscalar_shapes)
    return [data.draw(values(shape))], {"dims": tuple(data.draw(st.permutations(range(len(shape)))))}


def _transpose(data):
    shape = data.draw(hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=4))
    d0, d1 = data.draw(st.lists(st.integers(-len(shape), len(shape) - 1), min_size=2, max_size=2))
    return [data.draw(values(shape))], {"dim0": d0, "dim1": d1}


def _reshape(data):
    shape = data.draw(nonscalar_shapes)
    size = int(np.prod(shape))
    return [data.draw(values(shape))], {"shape": data.draw(st.sampled_from([(size,), (-1, 1), (1, size)]))}


def _expand(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=3))
    target = (2,) + tuple(3 if s == 1 else s for s in shape)
    return [data.draw(values(shape))], {"sizes": target}


def _cat(data):
    shape = data.draw(nonscalar_shapes)
    dim = data.draw(st.integers(0, len(shape) - 1))
    other = list(shape)
    other[dim] = data.draw(st.integers(1, 3))
    return [data.draw(values(shape)), data.draw(values(tuple(other)))], {"dim": dim}


def _stack(data):
    shape = data.draw(small_shapes)
    return [data.draw(values(shape)), data.draw(values(shape))], {"dim": data.draw(st.integers(0, len(shape)))}


def _where(data):
    a, b = binary()(data)[0]
    shape = np.broadcast_shapes(a.shape, b.shape)
    return [a, b], {"condition": data.draw(hnp.arrays(np.bool_, shape))}


def _clamp(data):
    shape = data.draw(small_shapes)
    return [data.draw(away_from(shape, [-1.0, 1.5], 0.2))], {"min": -1.0, "max": 1.5}


def _setitem(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=2, min_side=2, max_side=4))
    return [data.draw(values(shape)), data.draw(values(shape[1:]))], {}


def _run_setitem(m, base, value):
    out = base * 1  # a non-leaf, which may be written in place
    out[0] = value
    return out


def _run_copy(m, base, value):
    out = base * 1
    out.copy_(value)
    return out


def _run_fill(m, base):
    out = base * 1
    out.fill_(0.5)
    return out * base


def _fill_with_tensor(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=4))
    return [data.draw(values(shape)), data.draw(values(()))], {}


def _run_fill_with_tensor(m, base, value):
    out = base * 1
    out.fill_(value)  # a 0-d tensor: it gets the sum of the gradient
    return out * base


def reduced(method: str):
    """``a.METHOD()`` over everything, or ``a.METHOD(dim, keepdim=...)``."""
    def run(m, a, dim, keepdim):
        return getattr(a, method)() if dim is None else getattr(a, method)(dim, keepdim=keepdim)
    return run


CASES = [
    Case("add", binary(), lambda m, a, b: m.add(a, b), ("Add",)),
    Case("sub", binary(), lambda m, a, b: a - b, ("Sub",)),
    Case("rsub", unary(), lambda m, a: 2.5 - a, ("Rsub",)),  # a number first: RsubBackward1
    Case("mul", binary(), lambda m, a, b: a * b, ("Mul",)),
    Case("div", binary(values, nonzero), lambda m, a, b: a / b, ("Div",)),
    # An exponent of exactly 0 is a special point PyTorch defines (gradient 0 even in the
    # second derivative), tested against torch in test_special_points.py, not by differences.
    Case("pow", binary(positive, lambda s: away_from(s, [0.0], 0.05, -2, 2)), lambda m, a, b: a ** b, ("Pow",)),
    Case("pow_scalar", unary(positive), lambda m, a: a ** 2.5, ("Pow",)),
    Case("rpow_scalar", unary(), lambda m, a: 2.0 ** a, ("Pow",)),
    Case("maximum", binary(lambda s: away_from(s, [0.0], 0.1), lambda s: away_from(s, [0.5], 0.3), apart=True),
         lambda m, a, b: m.maximum(a, b), ("Maximum",)),
    Case("minimum", binary(lambda s: away_from(s, [0.0], 0.1), lambda s: away_from(s, [0.5], 0.3), apart=True),
         lambda m, a, b: m.minimum(a, b), ("Minimum",)),
    Case("where", _where, lambda m, a, b, condition: m.where(m.as_tensor(condition), a, b), ("Where",)),
    Case("neg", unary(), lambda m, a: -a, ("Neg",)),
    Case("exp", unary(), lambda m, a: m.exp(a), ("Exp",)),
    Case("log", unary(positive), lambda m, a: m.log(a), ("Log",)),
    Case("sqrt", unary(positive), lambda m, a: m.sqrt(a), ("Sqrt",)),
    Case("abs", unary(nonzero), lambda m, a: m.abs(a), ("Abs",)),
    Case("sin", unary(), lambda m, a: m.sin(a), ("Sin",)),
    Case("cos", unary(), lambda m, a: m.cos(a), ("Cos",)),
    Case("tanh", unary(), lambda m, a: m.tanh(a), ("Tanh",)),
    Case("sigmoid", unary(lambda s: values(s, -8, 8)), lambda m, a: m.sigmoid(a), ("Sigmoid",)),
    Case("relu", unary(nonzero), lambda m, a: m.relu(a), ("Relu",)),
    Case("clamp", _clamp, lambda m, a, min, max: m.clamp(a, min=min, max=max), ("Clamp",)),
    Case("sum", with_dim(), reduced("sum"), ("Sum",)),
    Case("mean", with_dim(), reduced("mean"), ("Mean",)),
    Case("var", with_dim(), reduced("var"), ("Var",), extra={"needs_two": True}),
    Case("std", with_dim(lambda s: distinct(s)), reduced("std"), ("Std",), extra={"needs_two": True}),
    Case("norm", with_dim(nonzero), lambda m, a, dim, keepdim: a.norm(dim=dim, keepdim=keepdim), ("Norm",)),
    Case("max", unary(distinct), lambda m, a: a.max(), ("Max",)),
    Case("min", unary(distinct), lambda m, a: a.min(), ("Min",)),
    Case("max_dim", with_dim(distinct, allow_none=False), lambda m, a, dim, keepdim: a.max(dim, keepdim=keepdim)[0],
         ("MaxAlongDim",)),
    Case("min_dim", with_dim(distinct, allow_none=False), lambda m, a, dim, keepdim: a.min(dim, keepdim=keepdim)[0],
         ("MinAlongDim",)),
    # PyTorch draws vector and batched matmul as several nodes (views around Mm/Bmm); we draw one.
    Case("matmul", _matmul, lambda m, a, b: a @ b, ("Matmul",), extra={"own_node_names": True}),
    Case("reshape", _reshape, lambda m, a, shape: a.reshape(shape), ("Reshape",)),
    Case("flatten", unary(), lambda m, a: m.flatten(a), ("Reshape",)),
    Case("transpose", _transpose, lambda m, a, dim0, dim1: a.transpose(dim0, dim1), ("Transpose",)),
    Case("permute", _permutation, lambda m, a, dims: a.permute(*dims), ("Permute",)),
    Case("t", _transpose, lambda m, a, dim0, dim1: a[0].t() if a.ndim == 3 else a.t(), ("T",)),
    Case("T", unary(), lambda m, a: a.permute(tuple(reversed(range(a.ndim)))) if m is not ag else a.T, ("Permute",)),
    Case("squeeze", unary(), lambda m, a: a.squeeze(), ("Squeeze",)),
    Case("unsqueeze", unary(), lambda m, a: a.unsqueeze(0), ("Unsqueeze",)),
    Case("expand", _expand, lambda m, a, sizes: a.expand(*sizes), ("Expand",)),
    Case("index", _index, lambda m, a, key: a[_key(m, key)], ("Index",)),
    Case("cat", _cat, lambda m, a, b, dim: m.cat([a, b], dim), ("Cat",)),
    Case("stack", _stack, lambda m, a, b, dim: m.stack([a, b], dim), ("Stack",)),
    Case("softmax", with_dim(keepdim=False, allow_none=False), lambda m, a, dim: m.softmax(a, dim), ("Softmax",)),
    Case("log_softmax", with_dim(keepdim=False, allow_none=False), lambda m, a, dim: m.log_softmax(a, dim),
         ("LogSoftmax",)),
    Case("clone", unary(), lambda m, a: a.clone(), ("Clone",)),
    Case("to_float32_and_back", unary(), lambda m, a: a.float().double(), ("ToDtype",), tolerance=1e-4,
         extra={"eps": 1e-2}),  # float32 rounding swamps the usual 1e-6 step
    Case("setitem", _setitem, _run_setitem, ("SetIndex",)),
    Case("copy_", _setitem, _run_copy, ("Copy",)),
    Case("fill_", unary(), _run_fill, ("Fill",)),
    Case("fill_tensor", _fill_with_tensor, _run_fill_with_tensor, ("FillFromTensor",)),
]

def _linear(data):
    n, k, m = (data.draw(st.integers(1, 3)) for _ in range(3))
    return [data.draw(values((n, k))), data.draw(values((m, k))), data.draw(values((m,)))], {}


def _mse(data):
    shape = data.draw(small_shapes)
    return [data.draw(values(shape)), data.draw(values(shape))], {
        "reduction": data.draw(st.sampled_from(["mean", "sum", "none"]))}


def _nll(data):
    n, c = data.draw(st.integers(1, 4)), data.draw(st.integers(2, 4))
    target = data.draw(hnp.arrays(np.int64, (n,), elements=st.integers(0, c - 1)))
    return [data.draw(values((n, c)))], {"target": target,
                                          "reduction": data.draw(st.sampled_from(["mean", "sum", "none"]))}


CASES += [
    Case("linear", _linear, lambda m, x, w, b: functional(m).linear(x, w, b), ("Addmm",)),
    Case("mse_loss", _mse, lambda m, a, t, reduction: functional(m).mse_loss(a, t, reduction=reduction), ("MseLoss",)),
    Case("nll_loss", _nll, lambda m, a, target, reduction: functional(m).nll_loss(
        a, m.as_tensor(target), reduction=reduction), ("NllLoss",)),
]

# Ops reached only through others: checked by the cases named here.
INDIRECT = {
    "IndexAdd": "index (its create_graph pass differentiates Index's backward)",
    "ToDevice": "test_gpu.py (moving between devices needs a GPU)",
}


def _key(m, key):
    if m.__name__ != "torch":  # ag, or test_gpu's view of it
        return key
    import torch

    if isinstance(key, (list, np.ndarray)):
        return torch.as_tensor(np.asarray(key))
    return key


CASES += COURSE_CASES
INDIRECT.update(COURSE_INDIRECT)
CASES += LAYER_CASES
CASES += WINDOW_CASES
CASES += ROUND2_CASES
