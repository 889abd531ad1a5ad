"""Autograd semantics: retain_graph, create_graph, autograd.grad, hooks, retain_grad,
version counters, custom Functions, gradcheck, backward order."""
import gc
import weakref

import numpy as np
import pytest

import ag_jupyter as ag
from ag_jupyter.autograd.engine import steps


def test_backward_through_a_freed_graph_names_retain_graph():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp().sum()
    y.backward()
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        y.backward()


def test_retain_graph_allows_a_second_backward():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [4.0, 8.0]


def test_create_graph_gives_higher_order_gradients():
    x = ag.tensor(2.0, requires_grad=True)
    y = x ** 4
    (dy,) = ag.autograd.grad(y, x, create_graph=True)
    (d2y,) = ag.autograd.grad(dy, x, create_graph=True)
    (d3y,) = ag.autograd.grad(d2y, x)
    assert (dy.item(), d2y.item(), d3y.item()) == (32.0, 48.0, 48.0)


def test_backward_with_create_graph_leaves_a_differentiable_grad():
    x = ag.tensor(3.0, requires_grad=True)
    (x ** 3).backward(create_graph=True)
    assert x.grad.item() == 27.0 and x.grad.requires_grad
    (g2,) = ag.autograd.grad(x.grad, x)
    assert g2.item() == 18.0


def test_autograd_grad_does_not_touch_dot_grad():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    (g,) = ag.autograd.grad((x * x).sum(), x)
    assert g.tolist() == [2.0, 4.0] and x.grad is None


def test_autograd_grad_allow_unused():
    x = ag.tensor(1.0, requires_grad=True)
    unused = ag.tensor(1.0, requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match="allow_unused=True"):
        ag.autograd.grad(y, [x, unused], retain_graph=True)
    gx, gu = ag.autograd.grad(y, [x, unused], allow_unused=True)
    assert gx.item() == 2.0 and gu is None


def test_autograd_grad_with_respect_to_an_intermediate():
    x = ag.tensor(3.0, requires_grad=True)
    u = x * x
    y = u * 5
    (gu,) = ag.autograd.grad(y, u)
    assert gu.item() == 5.0


def test_register_hook_sees_and_replaces_gradients():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    handle = x.register_hook(lambda g: seen.append(g.tolist()) or g * 10)
    (x * 3).sum().backward()
    assert seen == [[3.0, 3.0]] and x.grad.tolist() == [30.0, 30.0]
    handle.remove()
    x.grad = None
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_hook_on_an_intermediate_changes_what_flows_back():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    u = x * 2
    u.register_hook(lambda g: g * 0)
    (u * 3).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")  # torch's, about its own cycle
@pytest.mark.parametrize("create_graph", [False, True])
def test_hooks_run_in_the_grad_mode_of_the_pass_as_in_pytorch(create_graph):
    """PyTorch's engine runs a backward pass, hooks included, with grad mode set to
    create_graph, whatever the caller's mode; the caller's mode is back afterwards."""
    def seen_modes(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        u = x * 2
        modes = []
        u.register_hook(lambda g: modes.append(lib.is_grad_enabled()))
        x.register_hook(lambda g: modes.append(lib.is_grad_enabled()))
        (u * u).sum().backward(create_graph=create_graph)
        return modes, lib.is_grad_enabled()

    expected = ([create_graph, create_graph], True)
    assert seen_modes(ag) == expected
    torch = pytest.importorskip("torch", reason="PyTorch is the oracle; without it the expected modes above stand")
    assert seen_modes(torch) == expected


def test_retain_grad_on_an_intermediate():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    u = x * 2
    assert u.grad is None and not u.retains_grad
    u.retain_grad()
    (u * u).sum().backward()
    assert u.retains_grad and u.grad.tolist() == [4.0, 8.0]


def test_in_place_change_of_a_saved_tensor_names_the_op_and_versions():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    z = y * 1
    y.add_(1)
    assert y._version == 1
    with pytest.raises(RuntimeError, match=r"output 0 of ExpBackward0, is at version 1; expected version 0"):
        z.sum().backward()


def test_in_place_change_of_a_saved_input_is_detected():
    a = ag.tensor([1.0, 2.0], requires_grad=True)
    b = a * 1
    c = b * b  # MulBackward0 saves b
    b.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        c.sum().backward()


def test_in_place_on_a_non_leaf_records_and_differentiates():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y += 1
    y *= x
    assert y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [2 * 1.0 + (2 * 1.0 + 1), 2 * 2.0 + (2 * 2.0 + 1)]  # d/dx (2x+1)x = 4x+1


def test_in_place_on_a_leaf_that_requires_grad_is_refused_unless_no_grad():
    w = ag.tensor([1.0, 2.0], requires_grad=True)
    for update in (lambda: w.add_(1), lambda: w.mul_(2), lambda: w.zero_(), lambda: w.copy_(ag.ones(2)),
                   lambda: w.__iadd__(1), lambda: w.__isub__(1)):
        with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
            update()
    assert w.tolist() == [1.0, 2.0]
    with ag.no_grad():
        w -= 0.5
        w.add_(1)
    assert w.tolist() == [1.5, 2.5] and w.is_leaf and w.requires_grad


def test_custom_function_with_save_for_backward_and_gradcheck():
    class Cube(ag.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x ** 2

    x = ag.tensor([1.0, -2.0], dtype=ag.float64, requires_grad=True)
    y = Cube.apply(x)
    assert y.grad_fn.name() == "CubeBackward"
    assert y.grad_fn.next_functions[0][0].variable is x
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 12.0]
    assert ag.autograd.gradcheck(Cube.apply, (x,))


def test_custom_function_needs_input_grad_and_two_inputs():
    class MulAdd(ag.autograd.Function):
        @staticmethod
        def forward(ctx, a, b, k):
            ctx.save_for_backward(a, b)
            ctx.k = k
            ctx.flags = ctx.needs_input_grad
            return a * b + k

        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            return grad * b, grad * a, None

    a = ag.tensor(2.0, requires_grad=True)
    b = ag.tensor(5.0)
    out = MulAdd.apply(a, b, 1.0)
    assert out.grad_fn.flags == (True, False, False)
    out.backward()
    assert a.grad.item() == 5.0 and b.grad is None


def test_gradcheck_catches_a_wrong_backward():
    class Wrong(ag.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, grad):
            return grad  # should be 2x * grad

    x = ag.tensor([1.5], dtype=ag.float64, requires_grad=True)
    with pytest.raises(ag.autograd.GradcheckError, match="Jacobian mismatch"):
        ag.autograd.gradcheck(Wrong.apply, (x,))
    assert not ag.autograd.gradcheck(Wrong.apply, (x,), raise_exception=False)


def test_backward_order_is_pytorchs():
    a, b, c, d = (ag.tensor(v, requires_grad=True) for v in (2.0, -3.0, 10.0, 4.0))
    e = a * b + ag.log(d) * c
    order = [step.node.name() for step in steps((e,), (None,))]
    assert order == ["AddBackward0", "MulBackward0", "LogBackward0", "MulBackward0"]
    # the second step is log(d)*c (created last), and log runs after the mul that uses it
    torch = pytest.importorskip("torch")
    ta, tb, tc, td = (torch.tensor(v, requires_grad=True) for v in (2.0, -3.0, 10.0, 4.0))
    te = ta * tb + torch.log(td) * tc
    seen = []
    for node in _torch_nodes(te.grad_fn):
        node.register_prehook(lambda grads, node=node: seen.append(node.name()))
    te.backward()
    assert seen == order


def test_backward_order_is_pytorchs_where_chains_and_branches_mix():
    # engine.py runs nodes newest first; chains and branches mixed must give the same order
    torch = pytest.importorskip("torch")

    def build(lib, a, b, c, d):
        u = (a * b).exp().log()
        v = (c.tanh() + d * d).sin() * u
        return (u * v + (v * 2).exp().log()).sum()

    values = (0.5, -0.3, 0.8, 0.2)
    ours = build(ag, *(ag.tensor(v, requires_grad=True) for v in values))
    order = [step.node.name() for step in steps((ours,), (None,))]
    te = build(torch, *(torch.tensor(v, requires_grad=True) for v in values))
    seen = []
    for node in _torch_nodes(te.grad_fn):
        node.register_prehook(lambda grads, node=node: seen.append(node.name()))
    te.backward()
    assert seen == order and len(order) == 14


def _torch_nodes(root):
    stack, found = [root], []
    while stack:
        node = stack.pop()
        if node is None or node in found or node.name().endswith("AccumulateGrad"):
            continue
        found.append(node)
        stack.extend(n for n, _ in node.next_functions)
    return found


def test_steps_generator_shows_grad_flowing_one_node_at_a_time():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * 3).sum()
    walk = steps((loss,), (None,))
    first = next(walk)
    assert first.node.name() == "SumBackward0" and x.grad is None
    second = next(walk)
    assert second.node.name() == "MulBackward0"
    assert x.grad.tolist() == [3.0, 3.0]  # accumulated as soon as its node ran
    assert second.accumulated[0][0] is x
    with pytest.raises(StopIteration):
        next(walk)


def test_a_graph_is_freed_by_reference_counting():
    gc.disable()
    try:
        x = ag.randn(3, requires_grad=True)
        loss = (x.exp() * 2).sum()
        node = weakref.ref(loss.grad_fn.next_functions[0][0])
        loss.backward()
        del loss
        assert node() is None
    finally:
        gc.enable()


def test_gradient_keeps_the_leaf_dtype():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    (x.max() + (x * 2).sum()).backward()
    assert x.grad.dtype == ag.float32


def test_shared_gradient_buffers_are_not_aliased_between_leaves():
    a = ag.tensor([1.0, 2.0], requires_grad=True)
    b = ag.tensor([1.0, 2.0], requires_grad=True)
    (a + b).sum().backward()
    a.grad.zero_()
    assert b.grad.tolist() == [1.0, 1.0]


def test_a_linear_weight_keeps_the_product_made_for_it():
    """nn.Linear's weight gradient comes back through .t() as a view of a product made for
    it alone: the leaf stores that product (PyTorch steals such a gradient too) instead of
    copying it, and what it stores is the right number in the weight's own layout."""
    from ag_jupyter.autograd import engine

    copied = {}  # leaf -> whether its gradient was to be copied
    finish_leaf = engine._finish_leaf
    layer = ag.nn.Linear(3, 2)

    def spy(leaf, grad, maybe_shared, *rest):
        copied[id(leaf)] = maybe_shared
        return finish_leaf(leaf, grad, maybe_shared, *rest)
    try:
        engine._finish_leaf = spy
        x = ag.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        layer(x).sum().backward()
    finally:
        engine._finish_leaf = finish_leaf
    assert copied[id(layer.weight)] is False
    grad = layer.weight.grad._data
    assert grad.flags.c_contiguous and grad.base is None
    assert layer.weight.grad.tolist() == [[5.0, 7.0, 9.0], [5.0, 7.0, 9.0]]


def test_a_gradient_reaching_two_leaves_through_transposes_is_not_stolen_twice():
    """The same array seen through ``.t().t()`` by two leaves: each keeps its own copy."""
    a = ag.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = ag.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    (a.t().t() + b.t().t()).sum().backward()
    assert not np.may_share_memory(a.grad._data, b.grad._data)
    a.grad.zero_()
    assert b.grad.tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_a_gradient_a_hook_kept_is_not_stolen():
    """A hook that keeps the gradient of ``w.t()`` in nn.Linear's product (addmm) holds a
    view of the array the leaf would store: the leaf copies, so changing ``w.grad`` leaves
    what the hook kept alone."""
    from ag_jupyter.ops.linalg import Addmm

    w = ag.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    x = ag.tensor([[1.0, 0.0], [0.0, 2.0]])
    kept = []
    transposed = w.t()
    transposed.register_hook(lambda grad: kept.append(grad))
    Addmm.apply(ag.zeros(2), x, transposed).sum().backward()
    before = kept[0].tolist()
    w.grad.zero_()
    assert kept[0].tolist() == before != [[0.0, 0.0], [0.0, 0.0]]


def test_a_leaf_hook_that_keeps_its_gradient_does_not_share_it_with_grad():
    """As in PyTorch: the tensor a leaf's hook kept is not the leaf's .grad."""
    kept = []
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(kept.append)
    (x * 2).sum().backward()
    x.grad.zero_()
    assert kept[0].tolist() == [2.0, 2.0]


def test_backward_with_inputs_accumulates_only_there():
    a = ag.tensor(1.0, requires_grad=True)
    b = ag.tensor(2.0, requires_grad=True)
    (a * b).backward(inputs=[a])
    assert a.grad.item() == 2.0 and b.grad is None


def test_dynamic_graph_follows_python_control_flow():
    x = ag.tensor([0.3, 0.4], requires_grad=True)
    y = x
    steps_taken = 0
    while y.norm() < 10:
        y = y * 2
        steps_taken += 1
    y.sum().backward()
    assert x.grad.tolist() == [2.0 ** steps_taken] * 2
