"""Every registered op: gradients against float64 finite differences, the create_graph
path against the plain one, second derivatives, and values and gradients against
PyTorch."""
from __future__ import annotations

import numpy as np
import pytest
from gradient_helpers import assert_close, finite_difference, leaves
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from op_registry import CASES, INDIRECT

import ag_jupyter as ag
from ag_jupyter.autograd.function import Op
from ag_jupyter.tracing.op_info import concrete

ids = [case.name for case in CASES]


def _draw(case, data):
    arrays, params = case.draw(data)
    if case.extra.get("needs_two"):
        shape, dim = arrays[0].shape, params.get("dim")
        assume((np.prod(shape) if dim is None else shape[dim]) >= 2)
    return arrays, params


def _weights(data, shape):
    return data.draw(hnp.arrays(np.float64, shape, elements=st.floats(-2, 2, allow_nan=False)))


@pytest.mark.parametrize("case", CASES, ids=ids)
@given(data=st.data())
def test_gradient_matches_finite_differences(case, data):
    arrays, params = _draw(case, data)
    inputs = leaves(arrays)
    out = case.run(ag, *inputs, **params)
    weights = ag.tensor(_weights(data, tuple(out.shape)), dtype=ag.float64)
    (out * weights).sum().backward()

    def loss():
        with ag.no_grad():
            return float((case.run(ag, *inputs, **params) * weights).sum().item())

    eps = case.extra.get("eps", 1e-6)
    for k, tensor in enumerate(inputs):
        expected = finite_difference(loss, tensor, eps)
        actual = tensor.grad.numpy() if tensor.grad is not None else np.zeros_like(expected)
        assert tensor.grad is None or tensor.grad.dtype == ag.float64
        assert_close(actual, expected, max(1e-4, eps / 10), f"{case.name}: gradient of input {k}")


@pytest.mark.parametrize("case", CASES, ids=ids)
@given(data=st.data())
def test_create_graph_gives_the_same_gradient_and_correct_second_derivative(case, data):
    arrays, params = _draw(case, data)
    inputs = leaves(arrays)
    out = case.run(ag, *inputs, **params)
    weights = ag.tensor(_weights(data, tuple(out.shape)), dtype=ag.float64)
    plain = ag.autograd.grad((out * weights).sum(), inputs, retain_graph=True, allow_unused=True)
    recorded = ag.autograd.grad((out * weights).sum(), inputs, create_graph=True, allow_unused=True)
    for k, (p, r) in enumerate(zip(plain, recorded)):
        assert (p is None) == (r is None)
        if p is not None:
            assert_close(r.detach().numpy(), p.numpy(), 1e-10, f"{case.name}: create_graph gradient {k}")

    # d/dx of sum(grad * v): against finite differences of the plain gradient
    directions = [ag.tensor(_weights(data, tuple(t.shape)), dtype=ag.float64) for t in inputs]
    total = sum(((r * v).sum() for r, v in zip(recorded, directions) if r is not None and r.requires_grad),
                ag.tensor(0.0, dtype=ag.float64))
    if not total.requires_grad:
        return  # a linear op: its gradient does not depend on the inputs
    second = ag.autograd.grad(total, inputs, allow_unused=True)

    def directional():
        fresh = [ag.tensor(t._data, dtype=ag.float64, requires_grad=True) for t in inputs]
        result = case.run(ag, *fresh, **params)
        grads = ag.autograd.grad((result * weights).sum(), fresh, allow_unused=True)
        return float(sum((g._data * v._data).sum() for g, v in zip(grads, directions) if g is not None))

    for k, tensor in enumerate(inputs):
        expected = finite_difference(directional, tensor, case.extra.get("eps", 1e-6))
        actual = second[k].numpy() if second[k] is not None else np.zeros_like(expected)
        assert_close(actual, expected, 1e-4, f"{case.name}: second derivative for input {k}")


@pytest.mark.parametrize("case", [c for c in CASES if c.torch], ids=[c.name for c in CASES if c.torch])
@given(data=st.data())
def test_values_and_gradients_match_pytorch(case, data):
    torch = pytest.importorskip("torch")
    arrays, params = _draw(case, data)
    ours = leaves(arrays)
    theirs = [torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in arrays]
    out = case.run(ag, *ours, **params)
    expected = case.run(torch, *theirs, **params)
    assert_close(out.detach().numpy(), expected.detach().numpy(), case.tolerance, f"{case.name}: value")
    if expected.grad_fn is None:
        assert out is ours[0], f"{case.name}: PyTorch returned its input itself, and so should we"
    elif not case.extra.get("own_node_names"):
        assert out.grad_fn.name() == expected.grad_fn.name().replace("torch::autograd::", ""), case.name
    weights = _weights(data, tuple(out.shape))
    (out * ag.tensor(weights, dtype=ag.float64)).sum().backward()
    (expected * torch.tensor(weights)).sum().backward()
    for k, (a, t) in enumerate(zip(ours, theirs)):
        if t.grad is None:
            assert a.grad is None or not a.grad.numpy().any(), f"{case.name}: input {k}"
            continue
        # force: a step function's gradient is PyTorch's ZeroTensor, which converts only so
        assert_close(a.grad.numpy(), t.grad.numpy(force=True), case.tolerance, f"{case.name}: gradient of input {k}")


def _all_ops(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _all_ops(sub)


def test_registry_covers_every_op():
    """A new primitive must be registered in op_registry.py (or named in INDIRECT)."""
    every = {cls.__name__ for cls in _all_ops(Op) if concrete(cls)}
    covered = {name for case in CASES for name in case.covers} | set(INDIRECT)
    assert every - covered == set(), f"ops with no registered test case: {sorted(every - covered)}"


def test_every_op_has_a_node_name_symbol_and_formula():
    for cls in _all_ops(Op):
        if not concrete(cls):
            continue
        assert cls.node_name != "Node", cls
        assert getattr(cls, "symbol", None), f"{cls.__name__} has no symbol"
        assert getattr(cls, "formula", None), f"{cls.__name__} has no formula"
