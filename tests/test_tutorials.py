"""The examples the tutorials teach, with their exact numbers."""
import math

import pytest

import ag_jupyter as ag


def test_e_equals_ab_plus_log_d_times_c():
    a, b, c, d = (ag.tensor(v, requires_grad=True) for v in (2.0, -3.0, 10.0, 4.0))
    e = a * b + ag.log(d) * c
    e.backward()
    assert a.grad.item() == pytest.approx(-3.0)  # b
    assert b.grad.item() == pytest.approx(2.0)  # a
    assert c.grad.item() == pytest.approx(math.log(4.0))  # log d
    assert d.grad.item() == pytest.approx(10.0 / 4.0)  # c / d
    assert e.grad_fn.name() == "AddBackward0"
    assert [f.name() for f, _ in e.grad_fn.next_functions] == ["MulBackward0", "MulBackward0"]
    log_node = e.grad_fn.next_functions[1][0].next_functions[0][0]
    assert log_node.name() == "LogBackward0"
    assert log_node.next_functions[0][0].name() == "AccumulateGrad"
    assert log_node.next_functions[0][0].variable is d


def test_matrix_product_with_broadcast_bias():
    X = ag.full((2, 2), 2.0, requires_grad=True)
    W = ag.full((2, 2), 0.5, requires_grad=True)
    b = ag.tensor([4.0], requires_grad=True)
    Y = X @ W + b
    Y.backward(ag.ones_like(Y))
    assert W.grad.tolist() == [[4.0, 4.0], [4.0, 4.0]]
    assert X.grad.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert b.grad.tolist() == [4.0]  # broadcast over 4 entries: the four 1s add up
    assert Y.grad_fn.name() == "AddBackward0"
    assert Y.grad_fn.next_functions[0][0].name() == "MmBackward0"


def test_chain_rule_through_two_affine_maps():
    x = ag.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = 2 * x + 3
    z = 4 * y - 1
    z.sum().backward()
    assert x.grad.tolist() == [8.0, 8.0, 8.0]
    assert z.grad_fn.name() == "SubBackward0"


def test_no_grad_as_context_manager_and_decorator():
    x = ag.ones(3, requires_grad=True)
    with ag.no_grad():
        y = x * 2
    assert not y.requires_grad and y.grad_fn is None

    @ag.no_grad()
    def doubled(t):
        return t * 2

    assert not doubled(x).requires_grad
    assert ag.is_grad_enabled()
    z = x * 2
    assert z.requires_grad and z.grad_fn.name() == "MulBackward0"


def test_no_grad_nests_with_enable_grad_and_set_grad_enabled():
    x = ag.ones(2, requires_grad=True)
    with ag.no_grad():
        with ag.enable_grad():
            assert (x * 2).requires_grad
        assert not (x * 2).requires_grad
    ag.set_grad_enabled(False)
    try:
        assert not (x * 2).requires_grad
    finally:
        ag.set_grad_enabled(True)
    with ag.set_grad_enabled(False):
        assert not ag.is_grad_enabled()
    assert ag.is_grad_enabled()


def test_a_branch_not_taken_leaves_its_parameters_grad_none():
    w_used = ag.tensor([1.0, 2.0], requires_grad=True)
    w_skipped = ag.tensor([3.0, 4.0], requires_grad=True)
    x = ag.tensor([1.0, 1.0])
    take_second_branch = False
    out = x * w_used
    if take_second_branch:
        out = out * w_skipped
    out.sum().backward()
    assert w_used.grad.tolist() == [1.0, 1.0]
    assert w_skipped.grad is None


def test_gradients_accumulate_until_zeroed():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    (x * 3).sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]
    x.grad.zero_()
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_variable_wrapper_still_runs():
    from ag_jupyter.autograd import Variable

    v = Variable(ag.ones(2, 2), requires_grad=True)
    assert isinstance(v, ag.Tensor) and v.requires_grad
    (v * v).sum().backward()
    assert v.grad.tolist() == [[2.0, 2.0], [2.0, 2.0]]


def test_max_along_a_dimension_returns_values_and_indices():
    x = ag.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]], requires_grad=True)
    result = ag.max(x, 1)
    values, indices = result
    assert values.tolist() == [5.0, 7.0] and indices.tolist() == [1, 0]
    assert result.values is values and result.indices is indices
    values.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]


# ----- issue 34: what the course added, each number against PyTorch's -----

def _torch():
    return pytest.importorskip("torch")


def test_the_vector_jacobian_product_of_a_matrix_product_and_a_broadcast_bias():
    torch = _torch()
    x, w, g = [[1.0, 2.0], [3.0, 4.0]], [[1.0, -1.0], [0.5, 2.0]], [[1.0, 0.0], [0.0, 2.0]]
    for shape in [(2,), (1, 2), (2, 1), (1,)]:
        ours = [ag.tensor(x, requires_grad=True), ag.tensor(w, requires_grad=True),
                ag.zeros(*shape, requires_grad=True)]
        theirs = [torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True),
                  torch.zeros(*shape, requires_grad=True)]
        (ours[0] @ ours[1] + ours[2]).backward(ag.tensor(g))
        (theirs[0] @ theirs[1] + theirs[2]).backward(torch.tensor(g))
        for mine, reference in zip(ours, theirs):
            assert mine.grad.tolist() == reference.grad.tolist(), shape
        G, X, W = ag.tensor(g), ours[0], ours[1]
        assert X.grad.tolist() == (G @ W.T).tolist() and W.grad.tolist() == (X.T @ G).tolist()
        assert tuple(ours[2].grad.shape) == shape


def test_micro_batches_accumulate_to_the_whole_batchs_gradient():
    w = ag.tensor([1.0, 2.0], requires_grad=True)
    data = ag.tensor([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0], [1.0, 3.0]])
    (data @ w).pow(2).mean().backward()
    whole = w.grad.tolist()
    w.grad = None
    for half in (data[:2], data[2:]):
        ((half @ w).pow(2).mean() / 2).backward()
    assert w.grad.tolist() == pytest.approx(whole) and whole == [8.0, 13.5]


def test_gradient_descent_by_hand_under_no_grad_finds_the_slope():
    xs = ag.tensor([1.0, 2.0, 3.0, 4.0])
    w = ag.tensor(0.0, requires_grad=True)
    for _ in range(30):
        (w * xs - 3 * xs).pow(2).mean().backward()
        with ag.no_grad():
            w -= 0.02 * w.grad
        w.grad = None
    assert w.item() == pytest.approx(3.0, abs=1e-3) and w.is_leaf and w.requires_grad


def test_a_second_derivative_with_create_graph():
    torch = _torch()
    x, t = ag.tensor(3.0, requires_grad=True), torch.tensor(3.0, requires_grad=True)
    (first,) = ag.autograd.grad(x ** 3, x, create_graph=True)
    (reference,) = torch.autograd.grad(t ** 3, t, create_graph=True)
    assert first.item() == reference.item() == 27.0
    assert ag.autograd.grad(first, x)[0].item() == torch.autograd.grad(reference, t)[0].item() == 18.0


def test_cross_entropys_gradient_is_p_minus_y_over_the_batch():
    torch = _torch()
    import ag_jupyter.nn.functional as F

    logits = [[2.0, 0.5, -1.0], [0.0, 1.0, 0.0]]
    labels = [0, 2]
    for reduction in ("mean", "sum"):
        ours, theirs = ag.tensor(logits, requires_grad=True), torch.tensor(logits, requires_grad=True)
        F.cross_entropy(ours, ag.tensor(labels), reduction=reduction).backward()
        torch.nn.functional.cross_entropy(theirs, torch.tensor(labels), reduction=reduction).backward()
        assert ours.grad.flatten().tolist() == pytest.approx(theirs.grad.flatten().tolist(), abs=1e-6)
        p_minus_y = ag.softmax(ag.tensor(logits), dim=1) - ag.tensor([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
        scale = 2 if reduction == "mean" else 1
        assert (ours.grad * scale).flatten().tolist() == pytest.approx(p_minus_y.flatten().tolist(), abs=1e-6)


def test_vanishing_and_exploding_on_a_loop():
    torch = _torch()
    ours, theirs = ag.tensor(0.5, requires_grad=True), torch.tensor(0.5, requires_grad=True)
    h, k = ours, theirs
    for _ in range(5):
        h, k = ag.tanh(3 * h), torch.tanh(3 * k)
    h.backward()
    k.backward()
    assert ours.grad.item() == pytest.approx(theirs.grad.item(), rel=1e-4) and ours.grad.item() < 1e-5
    v = ag.tensor([0.3, 0.4], requires_grad=True)
    y, doublings = v, 0
    while y.detach().norm() < 1000:
        y, doublings = y * 2, doublings + 1
    y.sum().backward()
    assert doublings == 11 and v.grad.tolist() == [2048.0, 2048.0]


def test_freezing_and_detach_stop_the_gradient():
    from ag_jupyter import nn

    ag.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    x = ag.randn(5, 4)
    for parameter in model[0].parameters():
        parameter.requires_grad_(False)
    model(x).sum().backward()
    assert model[0].weight.grad is None and model[2].weight.grad is not None
    for parameter in model[0].parameters():
        parameter.requires_grad_(True)
    model.zero_grad()
    features = model[1](model[0](x)).detach()
    model[2](features).sum().backward()
    assert not features.requires_grad and model[0].weight.grad is None and model[2].bias.grad.tolist() == [5.0, 5.0]
