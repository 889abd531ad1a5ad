"""Finite differences and comparison helpers shared by the gradient tests."""
from __future__ import annotations

import numpy as np

import ag_jupyter as ag


def finite_difference(scalar_of, tensor, eps: float = 1e-6) -> np.ndarray:
    """Central differences of ``scalar_of()`` with respect to every element of ``tensor``,
    perturbing its array in place (float64)."""
    flat = tensor._data.reshape(-1)
    assert np.shares_memory(flat, tensor._data), "finite differences need a contiguous array"
    result = np.zeros(flat.size)
    for j in range(flat.size):
        original = flat[j]
        flat[j] = original + eps
        plus = scalar_of()
        flat[j] = original - eps
        minus = scalar_of()
        flat[j] = original
        result[j] = (plus - minus) / (2 * eps)
    return result.reshape(tensor._data.shape)


def assert_close(actual, expected, tolerance: float, what: str) -> None:
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    np.testing.assert_allclose(actual, expected, rtol=tolerance, atol=tolerance, err_msg=what)


def leaves(arrays) -> list:
    return [ag.tensor(a, dtype=ag.float64, requires_grad=True) for a in arrays]
