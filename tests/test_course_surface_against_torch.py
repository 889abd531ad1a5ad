"""Issue 30's Tensor surface against PyTorch where the op registry cannot look: indices and
other non-differentiable results (sort, argsort, topk, nonzero, isclose, ...), the
compositions PyTorch draws as several nodes (outer, repeat_interleave, meshgrid, std_mean),
integer dtypes, keyword spellings the curriculum writes (keepdims=, axis=), errors, and a
failing op leaving its input as it was."""
from __future__ import annotations

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")
RNG = np.random.default_rng(30)


def both(array, requires_grad=False):
    """The same data as an ag tensor and a torch tensor."""
    return (ag.tensor(array, requires_grad=requires_grad),
            torch.tensor(array, requires_grad=requires_grad))


def same(ours, theirs, exact=True):
    """Equal values, shapes and dtypes (a tuple or list element by element)."""
    if isinstance(theirs, (tuple, list)):
        assert len(ours) == len(theirs)
        for o, t in zip(ours, theirs):
            same(o, t, exact)
        return
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert str(ours.dtype).replace("ag.", "torch.") == str(theirs.dtype), (ours.dtype, theirs.dtype)
    expected = theirs.detach().numpy()
    if exact:
        np.testing.assert_array_equal(ours.detach().numpy(), expected)
    else:
        np.testing.assert_allclose(ours.detach().numpy(), expected, rtol=1e-6, atol=1e-7)


def raises_like(run_ours, run_theirs):
    """Both raise, with the same kind of error (PyTorch's text where ours matches it)."""
    with pytest.raises(Exception) as theirs:
        run_theirs()
    with pytest.raises(type(theirs.value)) as ours:
        run_ours()
    return str(ours.value), str(theirs.value)


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_sort_and_argsort_give_pytorchs_indices_ties_kept_in_order(dim, descending):
    data = RNG.integers(0, 4, (5, 6)).astype(np.float32)  # many ties: a stable sort's order
    a, t = both(data)
    values, indices = a.sort(dim, descending=descending, stable=True)
    expected = t.sort(dim=dim, descending=descending, stable=True)
    same(values, expected.values)
    same(indices, expected.indices)
    same(ag.argsort(a, dim, descending=descending, stable=True),
         torch.argsort(t, dim=dim, descending=descending, stable=True))


@pytest.mark.parametrize("largest", [True, False])
def test_topk_values_indices_and_gradient(largest):
    data = RNG.permutation(24).reshape(4, 6).astype(np.float64)
    a, t = both(data, requires_grad=True)
    ours, theirs = a.topk(3, dim=1, largest=largest), t.topk(3, dim=1, largest=largest)
    same(ours.values, theirs.values)
    same(ours.indices, theirs.indices)
    ours.values.sum().backward()
    theirs.values.sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), t.grad.numpy())
    assert ours.values.grad_fn.name() == theirs.values.grad_fn.name() == "TopkBackward0"


def test_amax_shares_the_gradient_between_ties_as_pytorch_does():
    data = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]])
    for dim in [(), 1, (0, 1)]:
        a, t = both(data, requires_grad=True)
        a.amax(dim).sum().backward()
        t.amax(dim).sum().backward()
        np.testing.assert_allclose(a.grad.numpy(), t.grad.numpy())
    a, t = both(data)
    same(ag.aminmax(a), torch.aminmax(t))
    same(ag.aminmax(a, dim=1, keepdim=True), torch.aminmax(t, dim=1, keepdim=True))


def test_nonzero_count_nonzero_isclose_allclose_equal():
    data = np.array([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]])
    a, t = both(data)
    same(a.nonzero(), t.nonzero())
    same(ag.nonzero(a, as_tuple=True), torch.nonzero(t, as_tuple=True))
    same(ag.count_nonzero(a), torch.count_nonzero(t))
    same(a.count_nonzero(dim=1), t.count_nonzero(dim=1))
    near = data + np.array([[1e-9, 0, 0], [0, 1e-3, np.nan]])
    b, u = both(near)
    same(ag.isclose(a, b), torch.isclose(t, u))
    same(a.isclose(b, atol=1e-2, equal_nan=True), t.isclose(u, atol=1e-2, equal_nan=True))
    assert ag.allclose(a, a) == torch.allclose(t, t) and ag.allclose(a, b) == torch.allclose(t, u)
    assert ag.equal(a, a.clone()) and not ag.equal(a, b)
    same(ag.eq(a, 0.0), torch.eq(t, 0.0))
    same(ag.ge(a, b), torch.ge(t, u))


def test_floor_divide_and_remainder_on_integers_and_floats_as_pytorch():
    ints = np.array([7, -7, 6, -6, 0], dtype=np.int64)
    a, t = both(ints)
    for divisor in (3, -3):
        same(a // divisor, t // divisor)
        same(a % divisor, t % divisor)
        same(ag.fmod(a, divisor), torch.fmod(t, divisor))
        same(ag.remainder(a, divisor), torch.remainder(t, divisor))
    same(17 // ag.tensor([5, -5]), 17 // torch.tensor([5, -5]))
    same(17 % ag.tensor([5, -5]), 17 % torch.tensor([5, -5]))
    floats, tf = both(np.array([5.5, -5.5, 2.25], dtype=np.float32))
    same(floats // 2, tf // 2)
    same(floats % -2, tf % -2)
    raises_like(lambda: a // 0, lambda: t // 0)


def test_floor_divide_has_no_derivative_in_either():
    a, t = both(np.array([3.0, 4.0]), requires_grad=True)
    ours, theirs = a // 2, t // 2
    with pytest.raises(RuntimeError, match="derivative for aten::floor_divide is not implemented"):
        theirs.sum().backward()
    with pytest.raises(RuntimeError, match="derivative for aten::floor_divide is not implemented"):
        ours.sum().backward()


def test_rounding_keeps_integer_dtypes_and_rounds_half_to_even():
    a, t = both(np.array([0.5, 1.5, 2.5, -0.5, -1.25, 1.35], dtype=np.float32))
    for name in ("floor", "ceil", "trunc", "round", "frac", "sign", "sgn"):
        same(getattr(a, name)(), getattr(t, name)())
    same(a.round(decimals=1), t.round(decimals=1))
    i, ti = both(np.array([3, -2], dtype=np.int32))
    for name in ("floor", "ceil", "trunc", "round", "sign"):
        same(getattr(i, name)(), getattr(ti, name)())


def test_cumulative_products_and_sums_in_pytorchs_dtypes():
    a, t = both(np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32))
    same(a.cumsum(0), t.cumsum(0))
    same(a.cumsum(axis=1), t.cumsum(axis=1))  # d2l writes axis=
    same(a.prod(), t.prod())
    same(a.prod(1, keepdim=True), t.prod(1, keepdim=True))
    same(ag.cumprod(a, 1), torch.cumprod(t, 1))
    f, tf = both(np.array([[0.5, 0.0, 2.0], [1.0, 3.0, 0.0]]), requires_grad=True)
    ag.prod(f).backward()
    torch.prod(tf).backward()
    np.testing.assert_allclose(f.grad.numpy(), tf.grad.numpy())
    same(ag.logsumexp(ag.tensor([[-np.inf, -np.inf], [1000.0, 1000.0]]), 1),
         torch.logsumexp(torch.tensor([[-np.inf, -np.inf], [1000.0, 1000.0]]), 1), exact=False)


def test_gather_scatter_and_the_one_hot_of_the_transforms_tutorial():
    # Learn the Basics' target transform: zeros(10).scatter_(0, tensor(label), value=1)
    for label in (0, 3, 9):
        same(ag.zeros(10, dtype=ag.float).scatter_(0, ag.tensor(label), value=1),
             torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(label), value=1))
    x, tx = both(RNG.normal(size=(3, 4)))
    index = np.array([[0, 2, 1, 0], [2, 2, 0, 1]])
    same(x.gather(0, ag.tensor(index)), tx.gather(0, torch.tensor(index)))
    src, tsrc = both(RNG.normal(size=(3, 5)))  # larger than the index: read in part
    same(ag.scatter_add(x, 0, ag.tensor(index), src), torch.scatter_add(tx, 0, torch.tensor(index), tsrc))
    same(x.index_select(1, ag.tensor([3, 0, 3])), tx.index_select(1, torch.tensor([3, 0, 3])))
    message, expected = raises_like(lambda: x.gather(1, ag.tensor([[4]])), lambda: tx.gather(1, torch.tensor([[4]])))
    assert "out of bounds" in message and "out of bounds" in expected


def test_masked_fill_in_place_and_a_failing_one_changes_nothing():
    # makemore.py's attention mask: masked_fill(tril == 0, -inf)
    scores, ts = both(RNG.normal(size=(4, 4)).astype(np.float32))
    mask = ag.tril(ag.ones(4, 4)) == 0
    same(scores.masked_fill(mask, float("-inf")).softmax(-1),
         ts.masked_fill(torch.tril(torch.ones(4, 4)) == 0, float("-inf")).softmax(-1), exact=False)
    before = scores.clone()
    with pytest.raises(RuntimeError):
        scores.masked_fill_(ag.ones(4, 4), 0.0)  # a float mask: refused, as in PyTorch
    np.testing.assert_array_equal(scores.numpy(), before.numpy())
    scores.masked_fill_(mask, 0.0)
    ts.masked_fill_(torch.tril(torch.ones(4, 4)) == 0, 0.0)
    same(scores, ts)


def test_shapes_split_chunk_unbind_narrow_repeat_interleave_tile_meshgrid():
    x, tx = both(np.arange(24.0).reshape(4, 6))
    same(x.split(4, dim=1), tx.split(4, dim=1))
    same(ag.split(x, [1, 3], 0), torch.split(tx, [1, 3], 0))
    same(x.chunk(3, 1), tx.chunk(3, 1))
    same(ag.unbind(x, 1), torch.unbind(tx, 1))
    same(x.narrow(1, -3, 2), tx.narrow(1, -3, 2))
    same(x.repeat_interleave(2, dim=0), tx.repeat_interleave(2, dim=0))
    same(ag.repeat_interleave(x, ag.tensor([1, 0, 2, 1]), dim=0),
         torch.repeat_interleave(tx, torch.tensor([1, 0, 2, 1]), dim=0))
    same(x.repeat_interleave(2), tx.repeat_interleave(2))
    same(x.tile((2,)), tx.tile((2,)))
    same(x.repeat(2, 1, 1), tx.repeat(2, 1, 1))
    same(x.flip(0, 1), tx.flip(0, 1))
    same(ag.roll(x, 2), torch.roll(tx, 2))
    a, b = ag.arange(3), ag.arange(4)
    same(ag.meshgrid(a, b, indexing="ij"), torch.meshgrid(torch.arange(3), torch.arange(4), indexing="ij"))
    same(ag.meshgrid(a, b, indexing="xy"), torch.meshgrid(torch.arange(3), torch.arange(4), indexing="xy"))


def test_products_and_their_errors():
    v, tv = both(np.array([1.0, 2.0, 3.0], dtype=np.float32))
    w, tw = both(np.array([0.5, -1.0, 2.0], dtype=np.float32))
    same(ag.dot(v, w), torch.dot(tv, tw))
    same(v.vdot(w), tv.vdot(tw))
    same(ag.outer(v, w), torch.outer(tv, tw))
    assert ag.outer(v.requires_grad_(), w).grad_fn.name() == "MulBackward0"
    raises_like(lambda: ag.dot(v, ag.ones(4)), lambda: torch.dot(tv, torch.ones(4)))
    raises_like(lambda: ag.bmm(ag.ones(2, 3), ag.ones(2, 3)), lambda: torch.bmm(torch.ones(2, 3), torch.ones(2, 3)))
    m, tm = both(RNG.normal(size=(2, 3, 4)).astype(np.float32))
    n, tn = both(RNG.normal(size=(2, 4, 5)).astype(np.float32))
    same(ag.bmm(m, n), torch.bmm(tm, tn), exact=False)
    same(ag.einsum("bij,bjk->bik", m, n), torch.einsum("bij,bjk->bik", tm, tn), exact=False)
    same(ag.einsum("ij->", m[0]), torch.einsum("ij->", tm[0]), exact=False)
    same(ag.einsum("i,j", v, w), torch.einsum("i,j", tv, tw), exact=False)
    with pytest.raises(NotImplementedError, match="repeats a letter"):
        ag.einsum("ii->i", ag.ones(3, 3))


def test_reductions_with_the_spellings_tutorials_use():
    x, tx = both(RNG.normal(size=(3, 4)).astype(np.float32))
    same(x.sum(1, keepdims=True), tx.sum(1, keepdims=True), exact=False)  # makemore's keepdims
    same(x.mean(dim=0, keepdims=True), tx.mean(dim=0, keepdims=True), exact=False)
    same(x.sum(axis=[0, 1]), tx.sum(axis=[0, 1]), exact=False)  # d2l
    same(x.argmax(axis=1), tx.argmax(axis=1))
    same(ag.std_mean(x, 1), torch.std_mean(tx, 1), exact=False)
    same(ag.var_mean(x, unbiased=False), torch.var_mean(tx, unbiased=False), exact=False)
    same(ag.tensor([1, 2, 3]).sum(dtype=ag.float64), torch.tensor([1, 2, 3]).sum(dtype=torch.float64))


def test_new_tensors_and_type_as():
    x, tx = both(np.ones((2, 2), dtype=np.float64))
    same(x.new_ones(5, 3), tx.new_ones(5, 3))  # the blitz: x.new_ones(5, 3, dtype=torch.double)
    same(x.new_ones(5, 3, dtype=ag.float32), tx.new_ones(5, 3, dtype=torch.float32))
    same(x.new_zeros((2, 3)), tx.new_zeros((2, 3)))
    same(x.new_full((2,), 7), tx.new_full((2,), 7))
    same(x.new_tensor([1, 2]), tx.new_tensor([1, 2]))
    same(ag.tensor([1, 2]).type_as(x), torch.tensor([1, 2]).type_as(tx))
    assert x.new_zeros(2, requires_grad=True).requires_grad


def test_diagonals_and_triangles():
    m, tm = both(np.arange(12.0).reshape(3, 4))
    for offset in (-1, 0, 2):
        same(m.diagonal(offset), tm.diagonal(offset))
        same(ag.diag(m, offset), torch.diag(tm, offset))
        same(ag.tril(m, offset), torch.tril(tm, offset))
        same(m.triu(offset), tm.triu(offset))
    same(ag.diag(ag.tensor([1.0, 2.0]), 1), torch.diag(torch.tensor([1.0, 2.0]), 1))
    same(m.trace(), tm.trace())
    view = m.diagonal()
    view[0] = 100.0  # a view one may write through, as PyTorch's
    assert m[0, 0].item() == 100.0


def test_unary_math_in_float32_against_pytorch():
    data = RNG.uniform(0.1, 0.9, (7,)).astype(np.float32)
    a, t = both(data)
    for name in ("log1p", "log10", "log2", "expm1", "rsqrt", "reciprocal", "square", "asin", "acos", "atan",
                 "sinh", "cosh", "erf", "erfc"):
        same(getattr(ag, name)(a), getattr(torch, name)(t), exact=False)
    for far in (ag.tensor(5.0), ag.tensor([-6.0, 3.5, 9.0])):  # erfc's right tail, 0-d too
        same(ag.erfc(far), torch.erfc(torch.tensor(far.numpy())), exact=False)
    same(ag.atan2(a, a - 1), torch.atan2(t, t - 1), exact=False)
    same(ag.hypot(a, a), torch.hypot(t, t), exact=False)
    same(ag.lerp(a, a * 2, 0.25), torch.lerp(t, t * 2, 0.25), exact=False)
    same(a.clip(0.3, 0.6), t.clip(0.3, 0.6))
    same(ag.clamp_min(a, 0.5), torch.clamp_min(t, 0.5))
    same(a.clamp_max(0.5), t.clamp_max(0.5))
    # integers in the default float (NumPy's float32 log10 of 100 is 2 + 1 ulp)
    same(ag.log10(ag.tensor([1, 100])), torch.log10(torch.tensor([1, 100])), exact=False)
