"""Edges of the engine where PyTorch is the oracle: what a gradient given to backward is
cast to, and which nodes a backward with named inputs visits. Found by a differential fuzz."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")


def test_a_gradient_of_another_dtype_is_cast_to_the_outputs_as_pytorch_does():
    seen = []
    for lib in (torch, ag):
        x = lib.tensor([0.1, 0.2, 0.3], requires_grad=True)  # float32
        upstream = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64)
        (by_grad,) = lib.autograd.grad(x.exp(), x, grad_outputs=upstream)
        h = x * 2
        h.retain_grad()
        h.exp().backward(upstream)
        wide = lib.tensor([0.1, 0.2], dtype=lib.float64, requires_grad=True)
        (of_wide,) = lib.autograd.grad(wide * 3, wide, grad_outputs=lib.tensor([1.0, 1.0]))
        point = lib.tensor(0.7, requires_grad=True)  # std of one number: no degrees of freedom
        with warnings.catch_warnings():  # both libraries warn of that, and give NaN
            warnings.simplefilter("ignore")
            (of_std,) = lib.autograd.grad(point.std(), point)
        seen.append([str(t.dtype).split(".")[-1] for t in (by_grad, x.grad, h.grad, of_wide, of_std)]
                    + [np.round(by_grad.detach().numpy(), 5).tolist()])
    assert seen[1] == seen[0]


def test_a_backward_with_named_inputs_leaves_the_rest_of_the_graph_as_it_was():
    # PyTorch's engine runs only the nodes on a path to the inputs: the others keep what
    # they saved, so a later backward through them still works.
    seen = []
    for lib in (torch, ag):
        x = lib.tensor([0.5, 1.0], requires_grad=True)
        y = lib.tensor([2.0, 3.0], requires_grad=True)
        a = x.exp()  # saves its output
        (by_grad,) = lib.autograd.grad((a * y).sum(), y)
        (a * y).sum().backward(inputs=[y])
        (a * 2).sum().backward()  # through ExpBackward0, which neither of the above ran
        seen.append([np.round(t.detach().numpy(), 5).tolist() for t in (by_grad, y.grad, x.grad)])
    assert seen[1] == seen[0]



def test_clamp_takes_tensor_bounds_as_pytorch_and_refuses_a_bound_that_wants_a_gradient():
    seen = []
    for lib in (torch, ag):
        x = lib.tensor([[0.5, -1.0, 2.0], [1.0, 3.0, -3.0]], requires_grad=True)
        y = x.clamp(lib.tensor([0.0, -2.0, 0.0]), lib.tensor(1.5))
        (y * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
        z = x.detach().clone()
        z.clamp_(min=lib.tensor(0.0))
        seen.append((y.tolist(), x.grad.tolist(), z.tolist(), lib.clamp(x, max=lib.tensor(0.7)).tolist()))
    assert seen[1] == seen[0]
    with pytest.raises(RuntimeError, match="'min' tensor requires grad"):
        ag.ones(3).clamp(ag.zeros(3, requires_grad=True))
    with pytest.raises(RuntimeError, match=r"'max' tensor of shape \[2, 3\] does not broadcast"):
        ag.ones(3).clamp(max=ag.ones(2, 3))
