"""Layers, losses and init without PyTorch: graph shapes, PyTorch's error wording,
initialisation bounds."""
import math

import pytest

import ag_jupyter as ag
import ag_jupyter.nn.functional as F
from ag_jupyter import nn


def test_linear_graph_is_pytorchs():
    layer = nn.Linear(4, 3)
    out = layer(ag.randn(2, 4))
    assert out.grad_fn.name() == "AddmmBackward0"
    bias, inputs, weight = (n for n, _ in out.grad_fn.next_functions)
    assert bias.name() == "AccumulateGrad" and bias.variable is layer.bias
    assert inputs is None
    assert weight.next_functions[0][0].variable is layer.weight  # through a transpose, as torch's TBackward0
    assert nn.Linear(4, 3, bias=False)(ag.randn(2, 4)).grad_fn.name() == "MmBackward0"
    assert layer(ag.randn(4)).grad_fn.name() == "ViewBackward0"


def test_linear_errors_name_shapes_and_dtypes():
    layer = nn.Linear(4, 3)
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(2x5 and 4x3\)"):
        layer(ag.randn(2, 5))
    with pytest.raises(RuntimeError, match="mat1 and mat2 must have the same dtype, but got Double and Float"):
        layer(ag.randn(2, 4, dtype=ag.float64))


def test_linear_initialisation_is_pytorchs():
    ag.manual_seed(3)
    layer = nn.Linear(50, 400)
    bound = 1 / math.sqrt(50)
    for p in (layer.weight, layer.bias):
        values = p.detach().numpy()
        assert values.min() >= -bound - 1e-7 and values.max() <= bound + 1e-7  # float32 rounding
        assert values.max() > 0.9 * bound and values.min() < -0.9 * bound
        assert p.requires_grad and p.grad_fn is None
    assert layer.weight.dtype == ag.float32


def test_class_loss_errors_are_pytorchs():
    x = ag.randn(3, 4)
    with pytest.raises(IndexError, match="Target 5 is out of bounds."):
        F.nll_loss(x, ag.tensor([0, 1, 5]))
    with pytest.raises(ValueError, match=r"Expected input batch_size \(3\) to match target batch_size \(2\)"):
        F.cross_entropy(x, ag.tensor([0, 1]))
    with pytest.raises(RuntimeError, match="expected target dtype to be Long or Byte, but got Float"):
        F.nll_loss(x, ag.tensor([0.0, 1.0, 2.0]))
    for loss in (F.nll_loss, F.cross_entropy):  # int32 class indices too, as PyTorch refuses them
        with pytest.raises(RuntimeError, match="but got Int .make the class indices int64 with .long"):
            loss(x, ag.tensor([0, 1, 2], dtype=ag.int32))
    with pytest.raises(ValueError, match="is not a valid value for reduction"):
        nn.MSELoss(reduction="average")


def test_init_functions_work_in_place_under_no_grad():
    w = nn.Parameter(ag.empty(30, 20))
    fan_in, fan_out = 20, 30
    assert nn.init.xavier_uniform_(w) is w
    bound = math.sqrt(6 / (fan_in + fan_out))
    assert w.abs().max().item() <= bound and w.grad_fn is None and w.requires_grad
    nn.init.kaiming_uniform_(w, a=math.sqrt(5))
    assert w.abs().max().item() <= 1 / math.sqrt(fan_in) + 1e-7
    nn.init.kaiming_uniform_(w, nonlinearity="relu")
    assert w.abs().max().item() > 1 / math.sqrt(fan_in)  # sqrt(6 / fan_in) allows more
    nn.init.constant_(w, 0.5)
    assert w.min().item() == w.max().item() == 0.5
    nn.init.zeros_(w)
    assert w.abs().sum().item() == 0
    nn.init.ones_(w)
    assert w.sum().item() == 600
    nn.init.uniform_(w, -2, -1)
    assert w.max().item() <= -1 and w.min().item() >= -2
    nn.init.normal_(w, 3.0, 0.1)
    assert abs(w.mean().item() - 3.0) < 0.05
    assert nn.init.calculate_gain("tanh") == pytest.approx(5 / 3)
    assert nn.init.calculate_gain("leaky_relu", math.sqrt(5)) == pytest.approx(math.sqrt(1 / 3))
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        nn.init.xavier_uniform_(ag.empty(3))
