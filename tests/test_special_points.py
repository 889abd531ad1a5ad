"""Degenerate shapes and special points against PyTorch: 0-d tensors reduced along dim 0,
empty tensors through reductions and losses, one-element statistics, and gradients where
PyTorch defines a value by convention (std of constant data, ``x ** 0`` at 0, NaN in a
reduction). Values, shapes and gradients must be torch's, or both must refuse."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")


def _functional(lib):
    return lib.nn.functional


def _targets(lib, x):
    return lib.zeros(x.numel() if x.dim() < 2 else x.shape[0], dtype=lib.int64)


OPS = {
    "sum_dim0": lambda lib, x: x.sum(0), "sum_dim_last": lambda lib, x: x.sum(-1),
    "sum_keepdim": lambda lib, x: x.sum(0, keepdim=True), "mean_dim0": lambda lib, x: x.mean(0),
    "softmax": lambda lib, x: x.softmax(0), "log_softmax": lambda lib, x: x.log_softmax(0),
    "norm_dim0": lambda lib, x: x.norm(dim=0), "var_dim0": lambda lib, x: x.var(0), "std_dim0": lambda lib, x: x.std(0),
    "std": lambda lib, x: x.std(), "var": lambda lib, x: x.var(), "std_biased": lambda lib, x: x.std(correction=0),
    "max_dim0": lambda lib, x: x.max(0)[0], "min_dim0": lambda lib, x: x.min(0)[0],
    "argmax_dim0": lambda lib, x: x.argmax(0), "max": lambda lib, x: x.max(), "mean": lambda lib, x: x.mean(),
    "sum": lambda lib, x: x.sum(), "norm": lambda lib, x: x.norm(), "unsqueeze": lambda lib, x: x.unsqueeze(0),
    "squeeze0": lambda lib, x: x.squeeze(0), "t": lambda lib, x: x.t(), "flatten": lambda lib, x: x.flatten(),
    "pow0": lambda lib, x: x ** 0, "pow_half": lambda lib, x: x ** 0.5, "pow_neg": lambda lib, x: x ** -1,
    "pow_tensor0": lambda lib, x: x ** (x.detach() * 0), "self_pow": lambda lib, x: x ** x,
    "zero_pow": lambda lib, x: 0 ** x, "sqrt": lambda lib, x: x.sqrt(), "abs": lambda lib, x: x.abs(),
    "relu": lambda lib, x: x.relu(), "clamp": lambda lib, x: x.clamp(0, 1),
    "maximum": lambda lib, x: x.maximum(lib.zeros_like(x)), "minimum": lambda lib, x: x.minimum(lib.zeros_like(x)),
    "log": lambda lib, x: x.log(), "div_zero": lambda lib, x: x / 0,
    "mse": lambda lib, x: _functional(lib).mse_loss(x, x.detach() * 0 + 1),
    "mse_sum": lambda lib, x: _functional(lib).mse_loss(x, x.detach() * 0 + 1, reduction="sum"),
    "cross_entropy": lambda lib, x: _functional(lib).cross_entropy(x.reshape(-1, 1) if x.dim() < 2 else x,
                                                                   _targets(lib, x)),
    "cat": lambda lib, x: lib.cat([x, x]), "stack": lambda lib, x: lib.stack([x, x]),
    "expand": lambda lib, x: x.expand(2, *x.shape), "where": lambda lib, x: lib.where(x > 0, x, x * 2),
    "index_empty_list": lambda lib, x: x[[]] if x.dim() else x, "slice_empty": lambda lib, x: x[1:1] if x.dim() else x,
}
DATA = {
    "0d": 2.0, "0d_zero": 0.0, "empty": [], "one": [3.0], "constant": [2.0, 2.0, 2.0],
    "zeros": [0.0, 0.0], "nan": [1.0, float("nan"), 2.0], "inf": [1.0, float("inf")],
    "empty_rows": np.zeros((0, 3)), "empty_columns": np.zeros((3, 0)),
}


def observe(lib, op, data):
    """(shape, values, gradient) or the kind of error; a backward error is recorded as such."""
    x = lib.tensor(np.array(data, dtype=np.float64), requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            y = op(lib, x)
        except (RuntimeError, IndexError, ValueError, TypeError) as error:
            return ("error", type(error).__name__)
        values = y.detach().numpy().astype(float)
        if not y.requires_grad:
            return (list(y.shape), values, None)
        try:
            y.sum().backward()
        except RuntimeError as error:
            return (list(y.shape), values, ("backward error", str(error)[:40]))
    return (list(y.shape), values, None if x.grad is None else x.grad.numpy())


def same(expected, got) -> bool:
    if expected[0] == "error" or got[0] == "error":
        return expected == got
    if expected[0] != got[0] or not np.allclose(expected[1], got[1], equal_nan=True):
        return False
    if expected[2] is None or got[2] is None or isinstance(expected[2], tuple):
        return type(expected[2]) is type(got[2])
    return np.allclose(expected[2], got[2], equal_nan=True)


@pytest.mark.parametrize("data", list(DATA))
def test_edge_cases_match_torch(data):
    wrong = []
    for name, op in OPS.items():
        expected, got = observe(torch, op, DATA[data]), observe(ag, op, DATA[data])
        if not same(expected, got):
            wrong.append(f"{name}: torch {expected}, ag {got}")
    assert not wrong, "\n".join(wrong)


LOSSES = {
    "cross_entropy_empty_sum": lambda lib, x: lib.nn.functional.cross_entropy(
        x[:0].reshape(0, 3), lib.zeros(0, dtype=lib.int64), reduction="sum"),
    "cross_entropy_empty_none": lambda lib, x: lib.nn.functional.cross_entropy(
        x[:0].reshape(0, 3), lib.zeros(0, dtype=lib.int64), reduction="none"),
    "nll_loss_empty": lambda lib, x: lib.nn.functional.nll_loss(x[:0].reshape(0, 3), lib.zeros(0, dtype=lib.int64)),
    "cross_entropy_every_target_ignored": lambda lib, x: lib.nn.functional.cross_entropy(
        x.reshape(2, 3), lib.tensor([-100, -100])),
    "cross_entropy_weighted_every_target_ignored": lambda lib, x: lib.nn.functional.cross_entropy(
        x.reshape(2, 3), lib.tensor([-100, -100]), weight=lib.ones(3, dtype=lib.float64)),
    "cross_entropy_one_class": lambda lib, x: lib.nn.functional.cross_entropy(x.reshape(6, 1),
                                                                              lib.zeros(6, dtype=lib.int64)),
    "log_softmax_with_minus_inf": lambda lib, x: lib.nn.functional.log_softmax(
        x.reshape(2, 3) * lib.tensor([[1, 1, float("-inf")]], dtype=lib.float64), dim=1),
}


@pytest.mark.parametrize("name", list(LOSSES))
def test_losses_at_the_edges_match_torch(name):
    expected = observe(torch, LOSSES[name], np.arange(6.0) * 0.3)
    got = observe(ag, LOSSES[name], np.arange(6.0) * 0.3)
    assert same(expected, got), f"torch {expected}, ag {got}"


def test_pow_at_exponent_zero_matches_torch_in_second_derivatives():
    results = []
    for lib in (torch, ag):
        a = lib.tensor(1.0, dtype=lib.float64, requires_grad=True)
        b = lib.tensor(0.0, dtype=lib.float64, requires_grad=True)
        grad_a, grad_b = lib.autograd.grad(a ** b, (a, b), create_graph=True)
        results.append([float(g) for g in lib.autograd.grad(grad_a, (a, b), allow_unused=True)])
    assert results[0] == results[1]


@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_ties_split_the_gradient_as_torch_does(name):
    # A tie is a kink finite differences cannot judge (op_registry draws none); PyTorch
    # gives each side half, also where one side is broadcast against several.
    a_values, b_values = [[-3.0], [1.0]], [-3.0, 1.0, 2.0]
    grads = []
    for lib in (ag, torch):
        a = lib.tensor(a_values, dtype=lib.float64, requires_grad=True)
        b = lib.tensor(b_values, dtype=lib.float64, requires_grad=True)
        (getattr(lib, name)(a, b) * lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64)).sum().backward()
        grads.append((a.grad.detach().numpy(), b.grad.detach().numpy()))
    for ours, theirs in zip(*grads):
        np.testing.assert_array_equal(ours, theirs)


def _overwritten(lib, x, how):
    y = x * 1
    getattr(y, how)(*([lib.tensor([9.0, 9.0, 9.0, 9.0], dtype=x.dtype)] if how == "copy_" else []))
    return y


SELECTING = {  # each op passes the gradient on to some entries and none to the rest
    "relu": lambda lib, x: x.relu(), "clamp": lambda lib, x: x.clamp(-1, 1),
    "maximum": lambda lib, x: lib.maximum(x, lib.zeros_like(x)),
    "minimum": lambda lib, x: lib.minimum(x, lib.zeros_like(x)),
    "where": lambda lib, x: lib.where(x > 0, x, x * 2), "max": lambda lib, x: x.max().expand(4),
    "min": lambda lib, x: x.min().expand(4), "max_dim": lambda lib, x: x.reshape(2, 2).max(1)[0],
    "copy_": lambda lib, x: _overwritten(lib, x, "copy_"), "zero_": lambda lib, x: _overwritten(lib, x, "zero_"),
}


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("name", list(SELECTING))
def test_an_inf_or_nan_gradient_reaches_only_the_entries_an_op_selected(name, create_graph):
    # A product with a 0/1 mask would turn inf into NaN (inf * 0) where PyTorch, which
    # selects, gives 0: sqrt(relu(x)) at x <= 0 sends relu an inf gradient. NumPy's
    # warning about that product must not reach the learner's cell either.
    grads = []
    for lib in (torch, ag):
        x = lib.tensor([-2.0, 3.0, 0.5, -0.5], requires_grad=True)
        y = SELECTING[name](lib, x)
        upstream = lib.tensor([float("inf"), float("nan"), float("-inf"), 2.0])[:y.numel()]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            (grad,) = lib.autograd.grad(y, x, upstream, create_graph=create_graph)
        grads.append(grad.detach().numpy())
    np.testing.assert_array_equal(grads[1], grads[0])
