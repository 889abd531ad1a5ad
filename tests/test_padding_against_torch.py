"""``F.pad`` in its four modes and adaptive max pooling against PyTorch, beyond the registry's
drawn cases: every mode's values and gradients on fixed inputs (negative pads included), the
node names, the errors, and ``nn.AdaptiveMaxPool2d`` with its indices."""
from __future__ import annotations

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

PADS = [((2, 3, 4, 5), (1, 2, 2, 1), "constant"), ((2, 3, 4, 5), (1, -2, 2, 1), "constant"),
        ((2, 3, 4, 5), (1, 2, 3, 1), "reflect"), ((3, 4, 5), (1, 2, 3, 1), "replicate"),
        ((3, 4, 5), (5, 2, 3, 1), "circular"), ((3, 4, 5), (-2, 2), "circular"), ((1, 5), (2, -2), "circular"),
        ((1, 5), (-2, -1), "circular"), ((3, 4, 5), (-2, 2), "reflect"),
        ((2, 1, 3, 4, 5), (1, 2, 3, 1, 1, 1), "reflect"),
        ((2, 1, 3, 4, 5), (1, 2, 3, 1, 2, 0), "replicate"), ((4, 5), (4, 3), "replicate"), ((3, 1), (0, 0), "reflect"),
        ((2, 3), (1, 1, 1, -1), "constant")]


@pytest.mark.parametrize("shape,pads,mode", PADS, ids=[f"{m}{p}" for _, p, m in PADS])
def test_pad_values_gradients_and_node_are_pytorchs(shape, pads, mode):
    rng = np.random.default_rng(len(shape) + sum(map(abs, pads)))
    a = rng.standard_normal(shape)
    x, t = ag.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    ours, theirs = ag.nn.functional.pad(x, pads, mode), torch.nn.functional.pad(t, pads, mode)
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())
    weights = rng.standard_normal(tuple(theirs.shape))
    (ours * ag.tensor(weights)).sum().backward()
    (theirs * torch.tensor(weights)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=1e-12, atol=1e-12)
    if mode != "circular":  # PyTorch composes circular padding; the engine draws one CircularPadNDBackward0
        assert ours.grad_fn.name() == theirs.grad_fn.name()


def test_constant_pad_keeps_integers_and_the_value():
    ours = ag.nn.functional.pad(ag.arange(6).view(2, 3), (1, 1), value=2.7)
    theirs = torch.nn.functional.pad(torch.arange(6).view(2, 3), (1, 1), value=2.7)
    assert ours.dtype == ag.int64
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


ERRORS = [((2, 3, 4, 5), (1, 5), "reflect", None), ((3, 4, 5), (1, 5), "reflect", None),
          ((2, 3, 4, 5), (1, 1, 4, 1), "reflect", None), ((2, 3, 4, 5), (1, 1), "reflect", 1.0),
          ((2, 3, 4, 5), (6, 1, 1, 1), "circular", None), ((2, 3, 4, 5), (1,) * 10, "constant", None),
          ((3,), (1, 1), "reflect", None), ((2, 3), (1, 2, 3), "constant", None), ((2, 3), (1, 1), "wrap", None),
          ((2, 2, 2), (-1, -1), "replicate", None), ((1, 4), (-5, 1), "constant", None),
          ((2, 3), (1, 1, 1, 1, 1, 1), "constant", None)]


@pytest.mark.parametrize("shape,pads,mode,value", ERRORS)
def test_pad_errors_are_pytorchs(shape, pads, mode, value):
    with pytest.raises(Exception) as theirs:
        torch.nn.functional.pad(torch.ones(shape), pads, mode, value)
    with pytest.raises(type(theirs.value)) as ours:
        ag.nn.functional.pad(ag.ones(shape), pads, mode, value)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("shape,size", [((2, 3, 5, 7), (2, 3)), ((3, 5, 7), 3), ((1, 2, 4, 4), (None, 3)),
                                        ((1, 1, 3, 4), (5, 6)), ((2, 1, 6, 6), 1)])
def test_adaptive_max_pool2d_values_indices_and_gradients(shape, size):
    a = np.random.default_rng(0).standard_normal(shape)
    a[..., 0, :2] = a.max() + 1  # a tie: the first position holding the maximum, as PyTorch picks
    x, t = ag.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    ours, indices = ag.nn.AdaptiveMaxPool2d(size, return_indices=True)(x)
    theirs, their_indices = torch.nn.AdaptiveMaxPool2d(size, return_indices=True)(t)
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())
    np.testing.assert_array_equal(indices.numpy(), their_indices.numpy())
    assert indices.dtype == ag.int64 and ours.grad_fn.name() == theirs.grad_fn.name()
    weights = np.random.default_rng(1).standard_normal(tuple(theirs.shape))
    (ours * ag.tensor(weights)).sum().backward()
    (theirs * torch.tensor(weights)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=1e-12, atol=1e-12)
    assert repr(ag.nn.AdaptiveMaxPool2d(size)) == repr(torch.nn.AdaptiveMaxPool2d(size))


def test_adaptive_max_pool2d_errors_are_pytorchs():
    for bad in (lambda m: m.nn.functional.adaptive_max_pool2d(m.ones(3, 4), 2),
                lambda m: m.nn.functional.adaptive_max_pool2d(m.arange(12).view(1, 3, 4), 2)):
        with pytest.raises(Exception) as theirs:
            bad(torch)
        with pytest.raises(type(theirs.value)) as ours:
            bad(ag)
        assert str(ours.value) == str(theirs.value)
