"""An indexed read's gradient (``C[X]``: makemore's embedding) adds the rows up as PyTorch does,
whether the engine scatters them with ``add.at`` or with one product (small float tables)."""
import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")


def _table_grad(lib, table, rows, upstream):
    C = lib.tensor(table, requires_grad=True)
    (C[lib.tensor(rows)] * lib.tensor(upstream)).sum().backward()
    return C.grad.numpy()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("table_shape, rows_shape", [((27, 10), (32, 3)), ((5,), (7,)), ((4, 3, 2), (6,)),
                                                     ((27, 10), (0, 3)), ((300, 300), (300,))])
def test_repeated_and_negative_rows_add_up_as_in_pytorch(dtype, table_shape, rows_shape):
    rng = np.random.default_rng(0)
    table = rng.standard_normal(table_shape).astype(dtype)
    rows = rng.integers(-table_shape[0], table_shape[0], rows_shape)
    upstream = rng.standard_normal(rows_shape + table_shape[1:]).astype(dtype)
    np.testing.assert_allclose(_table_grad(ag, table, rows, upstream), _table_grad(torch, table, rows, upstream),
                               rtol=1e-5, atol=1e-6)


def test_an_infinite_gradient_stays_in_its_row():
    """A product of a one-hot matrix would turn 0 x inf into NaN in every row."""
    rng = np.random.default_rng(1)
    table = rng.standard_normal((27, 10)).astype(np.float32)
    rows = rng.integers(0, 27, (32, 3))
    upstream = rng.standard_normal((32, 3, 10)).astype(np.float32)
    upstream[4, 1, 2] = np.inf
    ours, theirs = _table_grad(ag, table, rows, upstream), _table_grad(torch, table, rows, upstream)
    assert np.isinf(ours).sum() == 1 and not np.isnan(ours).any()
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


def test_a_row_past_the_table_is_refused_and_the_table_keeps_no_gradient():
    C = ag.tensor(np.ones((27, 10), np.float32), requires_grad=True)
    with pytest.raises(IndexError, match="out of bounds"):
        C[ag.tensor([3, 30])].sum().backward()
    assert C.grad is None
