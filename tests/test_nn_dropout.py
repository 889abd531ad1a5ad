"""Dropout: statistics in training, the identity in eval, PyTorch's graph and errors."""
import numpy
import pytest

import ag_jupyter as ag
import ag_jupyter.nn.functional as F
from ag_jupyter import nn


@pytest.mark.parametrize("p", [0.1, 0.5, 0.8])
def test_train_mode_zeroes_a_fraction_p_and_keeps_the_mean(p):
    ag.manual_seed(0)
    x = ag.ones(200, 500)
    out = nn.Dropout(p)(x).numpy()
    zero_fraction = (out == 0).mean()
    assert abs(zero_fraction - p) < 0.01  # 100,000 draws: the standard error is < 0.002
    survivors = out[out != 0]
    assert numpy.allclose(survivors, 1 / (1 - p))  # inverted scaling
    assert abs(out.mean() - 1.0) < 0.03


def test_eval_mode_is_the_identity():
    drop = nn.Dropout(0.5)
    x = ag.randn(4, 6, requires_grad=True)
    drop.eval()
    assert drop(x) is x
    assert F.dropout(x, 0.5, training=False) is x
    drop.train()
    assert not drop(x).allclose(x)


def test_gradient_flows_through_the_kept_elements_only():
    ag.manual_seed(1)
    x = ag.randn(50, 40, requires_grad=True)
    out = F.dropout(x, 0.3)
    assert out.grad_fn.name() == "MulBackward0"  # as PyTorch's CPU dropout shows
    out.sum().backward()
    kept = out.detach().numpy() != 0
    grad = x.grad.numpy()
    assert numpy.allclose(grad[kept], 1 / 0.7) and numpy.all(grad[~kept] == 0)


def test_seed_repeats_the_mask_and_edges():
    ag.manual_seed(7)
    first = F.dropout(ag.ones(100), 0.5).numpy()
    ag.manual_seed(7)
    assert numpy.array_equal(first, F.dropout(ag.ones(100), 0.5).numpy())
    x = ag.randn(10)
    assert F.dropout(x, 0.0) is x
    assert F.dropout(x, 1.0).abs().sum().item() == 0
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        nn.Dropout(1.5)
    with pytest.raises(ValueError, match="between 0 and 1"):
        F.dropout(x, -0.1)


def test_dropout_keeps_dtype_and_inplace_writes_the_input():
    x = ag.ones(1000, dtype=ag.float64)
    assert F.dropout(x, 0.5).dtype == ag.float64
    ag.manual_seed(3)
    y = ag.ones(1000)
    assert F.dropout(y, 0.5, inplace=True) is y
    assert (y.numpy() == 0).any()
