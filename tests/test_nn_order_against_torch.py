"""Held-out cases of issue 30: parameter order after re-assignment and with tied weights,
and cross_entropy whose every target is ignored, each against PyTorch."""
from __future__ import annotations

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")


def _names(lib, build):
    model = build(lib)
    return [n for n, _ in model.named_parameters()], list(model.state_dict())


def _reassigned(lib):
    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = lib.nn.Parameter(lib.zeros(1))
            self.b = lib.nn.Parameter(lib.zeros(1))
            self.register_buffer("stat", lib.zeros(1))
            self.c = lib.nn.Linear(1, 1)
            self.d = lib.nn.Linear(1, 1)
            self.a = lib.nn.Parameter(lib.ones(1))  # again: it keeps its first place
            self.register_buffer("stat", lib.ones(1))
            self.c = lib.nn.Linear(1, 1)
            self.register_parameter("b", lib.nn.Parameter(lib.ones(2)))
    return Net()


def _tied(lib):
    encoder, decoder = lib.nn.Linear(3, 3), lib.nn.Linear(3, 3)
    model = lib.nn.Sequential(encoder, lib.nn.Tanh(), decoder)
    decoder.weight = encoder.weight  # tied: named once, at its first place
    return model


def _tied_backwards(lib):
    encoder, decoder = lib.nn.Linear(3, 3), lib.nn.Linear(3, 3)
    model = lib.nn.Sequential(encoder, decoder)
    encoder.weight = decoder.weight
    return model


@pytest.mark.parametrize("build", [_reassigned, _tied, _tied_backwards])
def test_parameter_order_is_pytorchs(build):
    assert _names(ag, build) == _names(torch, build)


def test_tied_parameters_are_counted_once():
    ours, theirs = _tied(ag), _tied(torch)
    assert len(list(ours.parameters())) == len(list(theirs.parameters())) == 3
    assert [n for n, _ in ours.named_parameters(remove_duplicate=False)] == \
        [n for n, _ in theirs.named_parameters(remove_duplicate=False)]


@pytest.mark.parametrize("smoothing", [0.0, 0.1])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_with_every_target_ignored(smoothing, weighted, reduction):
    logits = np.arange(12, dtype=np.float32).reshape(3, 4) / 5
    results = []
    for lib in (ag, torch):
        x = lib.tensor(logits, requires_grad=True)
        weight = lib.tensor([1.0, 2.0, 3.0, 4.0]) if weighted else None
        loss = lib.nn.functional.cross_entropy(x, lib.tensor([-100, -100, -100]), weight=weight,
                                               reduction=reduction, label_smoothing=smoothing)
        loss.sum().backward()
        results.append((loss.detach().numpy(), x.grad.numpy()))
    (ours, our_grad), (theirs, their_grad) = results
    np.testing.assert_allclose(ours, theirs, equal_nan=True)  # nan for the mean, as PyTorch
    np.testing.assert_allclose(our_grad, their_grad)
