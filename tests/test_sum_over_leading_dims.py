"""A sum over leading dimensions (a bias's gradient, ``x.sum(0)``) is one BLAS product
(``autograd/algebra.py``, ``_sum_leading``): it must give NumPy's shape and dtype, a value as
close to the exact sum as NumPy's, and NumPy's NaN, inf and overflow warning; anything
else takes NumPy's own sum."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import ag_jupyter as ag
from ag_jupyter.autograd import algebra
from ag_jupyter.autograd.algebra import ARRAYS

LEADING_CASES = [((100, 16), (0,)), ((100, 1), (0,)), ((256, 10), (0,)), ((4, 3, 6), (0,)),
                 ((4, 3, 6), (0, 1)), ((2, 3, 4, 5), (0, 1, 2)), ((1, 7), (0,)), ((33, 257), (0,))]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("keepdim", [False, True])
def test_a_leading_sum_has_numpys_shape_and_dtype_and_its_accuracy(dtype, keepdim):
    rng = np.random.default_rng(0)
    for shape, dims in LEADING_CASES:
        x = (rng.standard_normal(shape) * 10 ** rng.uniform(-3, 3, shape)).astype(dtype)
        got = ARRAYS.sum(x, dims, keepdim)
        numpys = np.add.reduce(x, dims, keepdims=keepdim)
        exact = np.add.reduce(x.astype(np.float64), dims, keepdims=keepdim)
        assert (got.dtype, got.shape) == (numpys.dtype, numpys.shape), (shape, dims)
        scale = np.add.reduce(np.abs(x).astype(np.float64), dims, keepdims=keepdim)
        # float32 and float64 are summed in their own precision, as NumPy sums them: an
        # error of a few roundings of the magnitudes summed, as NumPy's own
        bound = shape[0] * np.finfo(dtype).eps * scale
        assert np.all(np.abs(got - exact) <= bound), (shape, dims)
        assert np.all(np.abs(numpys - exact) <= bound), (shape, dims)


def test_the_blas_path_is_taken_only_where_it_applies(monkeypatch):
    taken = []
    real = algebra._sum_leading
    monkeypatch.setattr(algebra, "_sum_leading", lambda *a: taken.append(a[0].shape) or real(*a))
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    for array, dims in [(x, (0,)),  # taken
                        (x, (1,)), (x, None), (x, (0, 1)),  # not a leading part: NumPy's pairwise sums
                        (x.T, (0,)), (x.astype(np.float16), (0,)), (x.astype(np.int64), (0,)),
                        (x.astype(">f4"), (0,)),  # not in the machine's byte order: NumPy's own
                        (np.zeros((0, 3), np.float32), (0,))]:
        np.testing.assert_array_equal(ARRAYS.sum(array, dims, False), np.add.reduce(array, dims))
    assert taken == [(4, 6)]


def test_nan_and_inf_come_out_where_numpys_sum_has_them_and_an_overflow_warns():
    x = np.ones((5, 4), np.float32)
    x[1, 0], x[2, 1], x[3, 1], x[0, 2], x[4, 2] = np.nan, np.inf, -np.inf, np.inf, 1.0
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(ARRAYS.sum(x, (0,), False), np.add.reduce(x, (0,)))
    huge = np.full((4, 3), 3e38, np.float32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = ARRAYS.sum(huge, (0,), False)
    assert np.all(np.isinf(got)) and any("overflow" in str(w.message) for w in caught)


def test_the_ones_it_multiplies_by_are_read_only_and_few():
    for rows in range(1, 80):
        ARRAYS.sum(np.ones((rows, 2), np.float32), (0,), False)
    assert 0 < len(algebra._ones) <= 64
    assert not any(ones.flags.writeable for ones in algebra._ones.values())


def test_a_bias_gradient_summed_this_way_is_the_engines_sum_to():
    rng = np.random.default_rng(1)
    x = ag.tensor(rng.standard_normal((100, 2)).astype(np.float32))
    w = ag.tensor(rng.standard_normal((2, 16)).astype(np.float32), requires_grad=True)
    b = ag.tensor(np.zeros(16, np.float32), requires_grad=True)
    (x @ w + b).tanh().sum().backward()
    upstream = 1 - np.tanh(x.numpy() @ w.detach().numpy() + b.detach().numpy()) ** 2
    np.testing.assert_allclose(b.grad.numpy(), upstream.astype(np.float64).sum(0), rtol=1e-5)
    assert b.grad.dtype == ag.float32 and b.grad.shape == (16,)
