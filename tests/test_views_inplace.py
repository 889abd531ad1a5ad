"""Views and in-place ops against PyTorch: every view kind, every way of writing, with
``retain_grad`` before or after the write, on a base that is computed, a leaf, or constant.

Each scenario runs the same code on ``torch`` and on ``ag`` and compares what a user can
see: the values, every gradient (leaves and retained), and whether an error was raised.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

VIEWS = {
    "slice": lambda y: y[1:3],
    "index": lambda y: y[1],
    "index2": lambda y: y[1, 2],
    "view": lambda y: y.view(4, 3),
    "reshape": lambda y: y.reshape(12),
    "transpose": lambda y: y.t(),
    "permute": lambda y: y.permute(1, 0),
    "unsqueeze": lambda y: y.unsqueeze(0),
    "expand": lambda y: y[:, :1].expand(3, 4),
    "slice_of_transpose": lambda y: y.t()[1:, ::2],
}
WRITES = ("view_mul", "view_add_w", "view_setitem", "view_copy", "base_mul", "base_setitem")
BASES = ("computed", "leaf", "constant")


def scenario(lib, view_name: str, write: str, base_kind: str, retain_before: bool):
    """What a user sees after one write; the same code for both libraries."""
    x = lib.tensor(np.arange(1.0, 13.0).reshape(3, 4), requires_grad=True)
    w = lib.tensor(0.5, requires_grad=True)
    coefficients = lib.tensor(np.linspace(-1.0, 2.0, 12).reshape(3, 4))
    y = {"computed": lambda: x * 1.5, "leaf": lambda: x,
         "constant": lambda: lib.tensor(np.arange(12.0).reshape(3, 4))}[base_kind]()
    v = VIEWS[view_name](y)
    retained = [t for t in (y, v) if t.requires_grad and t.grad_fn is not None]

    def retain():
        for t in retained:
            t.retain_grad()

    if retain_before:
        retain()
    try:
        if write == "view_mul":
            v.mul_(w)
        elif write == "view_add_w":
            v.add_(w * 2)
        elif write == "view_setitem":
            v[0 if v.dim() else ...] = w * 3
        elif write == "view_copy":
            v.copy_((w * 4).expand(v.shape))
        elif write == "base_mul":
            y.mul_(w)
        else:
            y[0, 1:3] = w * 5
    except (RuntimeError, IndexError) as error:
        return {"error": type(error).__name__}
    if not retain_before:
        retained = [t for t in (y, v) if t.requires_grad and t.grad_fn is not None]
        retain()
    loss = (y * coefficients).sum() + (v * v).sum()
    if not loss.requires_grad:
        return {"error": False, "y": y.tolist(), "v": v.tolist(), "requires_grad": False}
    loss.backward()

    def grad_of(t):
        return None if t.grad is None else t.grad.tolist()

    return {"error": False, "y": y.tolist(), "v": v.tolist(), "x": grad_of(x), "w": grad_of(w),
            "retained": [grad_of(t) for t in retained], "y_is_leaf": y.is_leaf,
            "v_requires_grad": v.requires_grad}


def _close(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and a and isinstance(a[0], (list, type(None))) or isinstance(a, list) and not a:
        return len(a) == len(b) and all(_close(p, q) for p, q in zip(a, b))
    if a is None or isinstance(a, (bool, str)):
        return a == b
    if b is None or isinstance(b, (bool, str)):
        return False
    return np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("retain_before", [False, True], ids=["retain_after", "retain_before"])
@pytest.mark.parametrize("base_kind", BASES)
@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize("view_name", list(VIEWS))
def test_view_and_inplace_match_torch(view_name, write, base_kind, retain_before):
    expected = scenario(torch, view_name, write, base_kind, retain_before)
    got = scenario(ag, view_name, write, base_kind, retain_before)
    assert _close(expected, got), f"\ntorch: {expected}\nag:    {got}"


def test_the_issue_examples():
    x = ag.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    y[0:2].mul_(2)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 1.0]

    x = ag.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    z = y[0:2]
    y.mul_(2)
    z.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 0.0]

    x = ag.zeros(3)
    x[1].add_(1)
    assert x.tolist() == [0.0, 1.0, 0.0]


def test_views_share_memory_and_know_their_base():
    y = ag.arange(6.0).reshape(2, 3).clone()
    for view in (y[1], y[0, 1], y[:, 1:], y.t(), y.view(6), y.transpose(0, 1), y.unsqueeze(0)):
        assert view._base is y
    assert y[[0, 1]]._base is None  # advanced indexing copies, as in PyTorch
    assert y.t().reshape(6)._base is None  # a transposed tensor cannot be flattened in place
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        y.t().view(6)
    assert y.t().contiguous()._base is None and y.contiguous() is y


def test_views_of_views_chain_to_the_first_base():
    x = ag.tensor(np.arange(12.0).reshape(3, 4), requires_grad=True)
    tx = torch.tensor(np.arange(12.0).reshape(3, 4), requires_grad=True)
    for leaf in (x, tx):
        y = leaf * 2
        inner = y[1:][:, 1:3].t()
        inner[0].mul_(leaf[0, 0])
        (y * y).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy())


@pytest.mark.parametrize("create_graph", [False, True])
def test_copy_slices_matches_finite_differences(create_graph):
    def f(a, b):
        y = a * a
        y[1:].mul_(b)
        y.t()[0].add_(b * a[0, 0])
        return (y * y).sum()

    a = ag.tensor(np.random.default_rng(0).normal(size=(3, 2)), dtype=ag.float64, requires_grad=True)
    b = ag.tensor(0.7, dtype=ag.float64, requires_grad=True)
    assert ag.autograd.gradcheck(f, (a, b))
    if create_graph:
        ta = torch.tensor(a.detach().numpy(), requires_grad=True)
        tb = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)
        outs = []
        for lib_a, lib_b, grad in ((a, b, ag.autograd.grad), (ta, tb, torch.autograd.grad)):
            (ga,) = grad(f(lib_a, lib_b), (lib_a,), create_graph=True)
            (gb,) = grad(ga.sum(), (lib_b,))
            outs.append(float(gb))
        assert outs[0] == pytest.approx(outs[1])


def test_view_made_under_no_grad_is_refused_when_written_with_grad():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    with ag.no_grad():
        v = y[:1]
    with pytest.raises(RuntimeError, match="created in no_grad mode"):
        v.mul_(2)
    assert y.tolist() == [1.0, 2.0]  # a refused op changes nothing


def test_inplace_on_a_view_of_a_leaf_under_no_grad_writes_the_leaf():
    w = ag.zeros(2, 3, requires_grad=True)
    with ag.no_grad():
        w[0].fill_(1.0)
        w.t()[2].add_(5.0)
    assert w.tolist() == [[1.0, 1.0, 6.0], [0.0, 0.0, 5.0]]
    assert w.is_leaf and w.grad_fn is None


def test_views_do_not_keep_dead_tensors_alive():
    y = ag.zeros(4)
    for _ in range(1000):
        y[1:3]
    assert len(y._views) < 100  # dead weak references are pruned as the list grows


def test_every_combination_is_exercised():
    combos = list(itertools.product(VIEWS, WRITES, BASES))
    errors = sum(bool(scenario(torch, v, w, b, False)["error"]) for v, w, b in combos)
    assert 0 < errors < len(combos)  # the matrix covers both refusals and recorded writes


OVERLAPS = {
    "setitem_disjoint_slices": lambda y: y.__setitem__(slice(0, 2), y[2:4]),
    "setitem_overlapping_slices": lambda y: y.__setitem__(slice(0, 3), y[1:4]),
    "setitem_advanced_from_self": lambda y: y.__setitem__([0, 1], y[2:4]),
    "copy_overlapping": lambda y: y[1:3].copy_(y[0:2]),
    "add_overlapping": lambda y: y[1:3].add_(y[0:2]),
    "add_self": lambda y: y.add_(y),
    "mul_same_view": lambda y: y[1:3].mul_(y[1:3]),
}


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("name", list(OVERLAPS))
def test_overlapping_memory_is_refused_as_torch_refuses_it(name, requires_grad):
    outcomes = []
    for lib in (torch, ag):
        x = lib.tensor([1.0, 2.0, 3.0, 4.0, 5.0], requires_grad=requires_grad)
        y = x * 1
        try:
            OVERLAPS[name](y)
            outcomes.append(y.tolist())
        except RuntimeError as error:
            outcomes.append("refused" if "single memory location" in str(error) else str(error))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("name", ["sub_", "add_", "mul_", "div_"])
def test_an_update_under_no_grad_into_an_expanded_tensor_is_refused_and_changes_nothing(name):
    """The optimizer's short path (the ufunc writing in place) must refuse what PyTorch
    refuses: more than one element of the target on one memory location."""
    outcomes = []
    for lib in (torch, ag):
        x = lib.tensor([1.0, 2.0, 3.0])
        for other in (1.5, lib.ones(3)):
            with lib.no_grad(), pytest.raises(RuntimeError, match="single memory location"):
                getattr(x.expand(2, 3), name)(other)
        total = lib.tensor([1.0, 2.0]).sum()  # 0-d: a NumPy scalar here, which no ufunc writes into
        with lib.no_grad():
            getattr(total, name)(0.5)
        outcomes.append((x.tolist(), total.item()))
    assert outcomes[0] == outcomes[1]


UPDATES = {  # under no_grad, where the optimizer's short path writes with the ufunc itself
    "into its own transpose": lambda lib: (lambda m: m.t().add_(m))(lib.tensor([[0.0, 1.0], [2.0, 3.0]])),
    "from its own transpose": lambda lib: (lambda m: m.add_(m.t()))(lib.tensor([[0.0, 1.0], [2.0, 3.0]])),
    "itself": lambda lib: (lambda m: m.mul_(m))(lib.tensor([[0.0, 1.0], [2.0, 3.0]])),
    "minus a Python bool": lambda lib: lib.ones(2).sub_(True),
    "plus a Python bool": lambda lib: lib.ones(2).add_(True),
}


@pytest.mark.parametrize("name", list(UPDATES))
def test_an_update_under_no_grad_does_what_torch_does(name):
    outcomes = []
    for lib in (torch, ag):
        try:
            with lib.no_grad():
                outcomes.append(UPDATES[name](lib).tolist())
        except RuntimeError as error:
            outcomes.append(str(error).split(".")[0])
    assert outcomes[0] == outcomes[1]


def test_a_view_made_a_leaf_that_requires_grad_is_refused_like_torch():
    outcomes = []
    for lib in (torch, ag):
        x = lib.zeros(3)
        v = x[0:2]
        v.requires_grad_()
        with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
            v.mul_(2)
        outcomes.append(x.tolist())
    assert outcomes[0] == outcomes[1] == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("make_view", [lambda y: y.transpose(0, 0), lambda y: y.expand(1, *y.shape),
                                       lambda y: y.expand(*y.shape)],
                         ids=["transpose_of_0d_or_same_dim", "expand_adding_one", "expand_to_same"])
def test_views_that_move_nothing_are_still_writable_views(make_view):
    grads = []
    for lib in (torch, ag):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 1
        view = make_view(y)
        view.mul_(3)
        y.sum().backward()
        grads.append(x.grad.tolist())
    assert grads[0] == grads[1] == [3.0, 3.0]


def test_the_graph_after_inplace_has_torchs_node_names():
    names = []
    for lib in (torch, ag):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        y = x * 1
        row, corner = y[0], y.t()[1:][:, :1]
        row.mul_(2)
        names.append([y.grad_fn.name().replace("torch::autograd::", ""), row.grad_fn.name(), corner.grad_fn.name(),
                      row.grad_fn.next_functions[0][0].name().replace("torch::autograd::", "")])
    assert names[0] == names[1] == ["CopySlices", "AsStridedBackward0", "AsStridedBackward0", "CopySlices"]


def test_a_no_grad_view_whose_base_is_then_written_with_grad_is_refused_before_any_grad():
    for lib in (torch, ag):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor(3.0, requires_grad=True)
        y = x * 1
        with lib.no_grad():
            d = y[0]
        y.mul_(2)
        with pytest.raises(RuntimeError, match="created in no_grad mode"):
            (d * w).backward()  # torch refuses at d * w, ag when backward starts
        assert w.grad is None and x.grad is None
        with lib.no_grad():
            assert (d * 2).item() == 4.0  # its value is still readable


OPERATORS = {"+=": "__iadd__", "-=": "__isub__", "*=": "__imul__", "/=": "__itruediv__"}
OPERANDS = {  # what the update is given; each makes the operator's short path take it or not
    "its own tensor": lambda lib, p: lib.tensor([[0.5, 2.0, 4.0], [1.0, 3.0, 8.0]]),
    "a number": lambda lib, p: 0.25,
    "an int": lambda lib, p: 2,
    "a bool": lambda lib, p: True,
    "a float64 tensor": lambda lib, p: lib.tensor([[0.5, 2.0, 4.0], [1.0, 3.0, 8.0]], dtype=lib.float64),
    "a row, broadcast": lambda lib, p: lib.tensor([0.5, 2.0, 4.0]),
    "too many rows": lambda lib, p: lib.ones(3, 2, 3),
    "its transpose's transpose": lambda lib, p: p.t().t(),
    "an overlapping view": lambda lib, p: p.reshape(6)[1:4].reshape(1, 3),
}
TARGETS = {
    "float32": lambda lib: lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
    "int64": lambda lib: lib.tensor([[1, 2, 3], [4, 5, 6]]),
    "a view": lambda lib: lib.tensor([[9.0, 1.0, 2.0, 3.0], [9.0, 4.0, 5.0, 6.0]])[:, 1:],
}


@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("operand", list(OPERANDS))
@pytest.mark.parametrize("operator", list(OPERATORS))
def test_an_update_operator_under_no_grad_does_what_torch_does(operator, operand, target):
    """``p -= lr * p.grad``'s operators write with the ufunc itself under no_grad: values,
    dtype and errors (the target then unchanged) must still be PyTorch's."""
    outcomes = []
    for lib in (torch, ag):
        p = TARGETS[target](lib)
        other = OPERANDS[operand](lib, p)
        before = p.tolist()
        with lib.no_grad():
            try:
                result = getattr(p, OPERATORS[operator])(other)
                outcomes.append((result is p, str(p.dtype).split(".")[-1], p.tolist()))
            except RuntimeError as error:  # the same refusal (the dtype names differ: float32, Float)
                outcomes.append((" ".join(str(error).split()[:2]), p.tolist() == before))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("operator", list(OPERATORS))
def test_an_update_from_a_part_of_itself_is_refused_and_changes_nothing(operator):
    """``p += p[:, :1]``: PyTorch does not detect the overlap and gives what its loop order
    gives (``[[2, 4, 5], [8, 13, 14]]``, each row reading entries already written); NumPy
    would give ``[[2, 3, 4], [8, 9, 10]]``. No answer matches, so the update is refused."""
    p = TARGETS["float32"](ag)
    with ag.no_grad(), pytest.raises(RuntimeError, match="refer to a single memory location"):
        getattr(p, OPERATORS[operator])(p[:, :1])
    assert p.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]


def test_an_update_operator_under_no_grad_bumps_the_version_backward_checks():
    outcomes = []
    for lib in (torch, ag):
        w = lib.tensor([1.0, 2.0], requires_grad=True)
        loss = (w * w).sum()
        with lib.no_grad():
            w -= lib.tensor([0.5, 0.5])
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            loss.backward()
        outcomes.append(w.tolist())
    assert outcomes[0] == outcomes[1] == [0.5, 1.5]


def test_a_0d_integer_tensor_indexes_as_the_int_it_holds_and_writes_reach_the_base():
    results = []
    for lib in (torch, ag):
        y = lib.zeros(3, 2)
        row = y[lib.tensor(1)]
        row.fill_(5.0)
        y[lib.tensor(2)].add_(7.0)
        x = lib.arange(6.0).reshape(3, 2).requires_grad_()
        (x[lib.tensor(-1), lib.tensor(0)] * 3).backward()
        results.append((y.tolist(), row._base is y, x.grad.tolist(), x[lib.tensor(True)].shape))
    assert results[1] == results[0]
