"""``mean`` skips NumPy's Python wrapper for float32 and float64 (ops/reduction.py): its
values must stay NumPy's own, bit for bit, with the same dtype and shape."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import ag_jupyter as ag

SHAPES = [(), (1,), (7,), (100, 1), (3, 5), (4, 3, 6), (1000,), (33, 257)]


def dims_of(shape):
    options = [None] + list(range(len(shape))) + [-1] * bool(shape)
    return options + ([(0, len(shape) - 1)] if len(shape) > 1 else [])


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_mean_is_numpys_mean_bit_for_bit(dtype):
    rng = np.random.default_rng(0)
    wrong = []
    for shape in SHAPES:
        # magnitudes over six decades, so that rounding in the sum and the division shows
        x = (rng.standard_normal(shape) * 10 ** rng.uniform(-3, 3, shape)).astype(dtype)
        for dims, keepdim in itertools.product(dims_of(shape), [False, True]):
            got = ag.tensor(x).mean() if dims is None else ag.tensor(x).mean(dims, keepdim=keepdim)
            expected = np.asarray(x.mean(axis=dims, keepdims=keepdim and dims is not None))
            got = np.asarray(got.numpy())
            if (got.dtype, got.shape, got.tobytes()) != (expected.dtype, expected.shape, expected.tobytes()):
                wrong.append(f"{dtype}{list(shape)} dims={dims} keepdim={keepdim}: {got!r} != {expected!r}")
    assert not wrong, "\n".join(wrong[:10])


def test_mean_of_nan_inf_and_empty_is_numpys():
    for values in ([1.0, np.nan], [np.inf, 1.0], [np.inf, -np.inf]):
        for dtype in ("float32", "float64"):
            with np.errstate(invalid="ignore"):  # inf - inf: NumPy's warnings are not the point here
                got = ag.tensor(np.array(values, dtype)).mean().numpy()
                expected = np.array(values, dtype).mean()
            assert np.asarray(got).tobytes() == np.asarray(expected).tobytes() and got.dtype == expected.dtype
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"), np.errstate(invalid="ignore"):  # NumPy's path
        assert np.isnan(ag.tensor(np.zeros(0, np.float32)).mean().item())


def test_the_gradient_of_mean_is_one_over_the_count():
    x = ag.tensor(np.arange(12, dtype=np.float32).reshape(3, 4), requires_grad=True)
    x.mean(1).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full((3, 4), 0.25, np.float32))
