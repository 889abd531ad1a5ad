"""A view taken under ``no_grad``, against PyTorch. Such a view of a base that requires grad
requires grad too, with no history: a leaf whose gradient goes nowhere until
``requires_grad_()`` asks for its own (``with no_grad(): row = w[0]`` then
``(row * 2).sum().backward()`` runs and fills no ``.grad``), and that an in-place op with
grad on refuses as a no_grad view. ag_jupyter said ``requires_grad=False`` until issue 13's
twelfth round, so that backward raised where PyTorch's runs."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

from test_inplace_views_against_torch import VIEWS as IN_PLACE_VIEWS  # noqa: E402 - after torch's skip

VIEWS = {name: view for name, view in IN_PLACE_VIEWS.items() if name not in ("none", "expand_clone")}
VIEWS["expand"] = lambda y: y[0:1].expand(3, y.shape[1])
VIEWS["a copy, not a view"] = lambda y: y[[0, 2]]
BASES = {  # the tensor the view is taken of, from a leaf x
    "a leaf that requires grad": lambda lib, x: x,
    "a computed tensor": lambda lib, x: x * 1,
    "a leaf without grad": lambda lib, x: x.detach(),
}
VALUES = np.arange(12, dtype=np.float32).reshape(3, 4) / 4 + 0.5


def _program(lib, base_name, view_name):
    x = lib.tensor(VALUES, requires_grad=True)
    base = BASES[base_name](lib, x)
    with lib.no_grad():
        view = VIEWS[view_name](base)
    seen = {"requires_grad": view.requires_grad, "is_leaf": view.is_leaf,
            "has grad_fn": view.grad_fn is not None}
    if view.requires_grad:
        loss = (view * view).sum()
        loss.backward()
        seen["view.grad"] = None if view.grad is None else view.grad.numpy().tolist()
        seen["x.grad"] = None if x.grad is None else x.grad.numpy().tolist()
    return seen


@pytest.mark.parametrize("base_name, view_name", list(itertools.product(BASES, VIEWS)))
def test_a_view_taken_under_no_grad_is_what_pytorchs_is(base_name, view_name):
    assert _program(ag, base_name, view_name) == _program(torch, base_name, view_name)


@pytest.mark.parametrize("view_name", [v for v in VIEWS if v != "a copy, not a view"])
def test_writing_a_no_grad_view_with_grad_on_is_refused_as_pytorch_refuses(view_name):
    messages = []
    for lib in (ag, torch):
        x = lib.tensor(VALUES, requires_grad=True)
        with lib.no_grad():
            view = VIEWS[view_name](x)
        with pytest.raises(RuntimeError) as refused:
            view.mul_(2)
        messages.append(str(refused.value).split(".")[0])
        assert x.detach().numpy().tolist() == VALUES.tolist()  # nothing was written
    assert messages[0] == messages[1] == \
        "A view was created in no_grad mode and is being modified inplace with grad mode enabled"


ASKS = {  # what the program does with the view after the block, before using it
    "nothing": lambda view: None,
    "requires_grad_()": lambda view: view.requires_grad_(),
    "requires_grad_(False)": lambda view: view.requires_grad_(False),
    "retain_grad()": lambda view: view.retain_grad(),
}


def _a_row_of_a_weight(lib, ask):
    w = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    with lib.no_grad():
        row = w[0]
    ASKS[ask](row)
    seen = [row.requires_grad, row.is_leaf]
    (row * row).sum().backward()
    seen += [None if row.grad is None else row.grad.tolist(), w.grad, w.tolist()]
    return seen


@pytest.mark.parametrize("ask", ASKS)
def test_a_no_grad_row_of_a_weight_takes_a_gradient_only_when_asked_as_in_pytorch(ask):
    ours = _a_row_of_a_weight(ag, ask)
    assert ours == _a_row_of_a_weight(torch, ask)
    assert ours[2] == ([2.0, 4.0] if ask == "requires_grad_()" else None)


def test_autograd_grad_finds_a_no_grad_view_unused_as_pytorch_does():
    for lib in (ag, torch):
        w = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        with lib.no_grad():
            row = w[0]
        with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
            lib.autograd.grad((row * row).sum(), [row])
        assert lib.autograd.grad((row * row).sum(), [row], allow_unused=True) == (None,)


def test_a_no_grad_view_is_forgotten_when_it_dies():
    from ag_jupyter.autograd import views

    w = ag.ones(3, requires_grad=True)
    before = len(views.gradless)
    rows = []
    for _ in range(50):
        with ag.no_grad():
            rows.append(w[:2])
    assert len(views.gradless) == before + 50
    rows.clear()
    assert len(views.gradless) == before  # a tensor dies with its last reference
