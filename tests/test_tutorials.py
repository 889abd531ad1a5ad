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
