"""An op's public surface: every registered op that PyTorch offers both as ``torch.NAME``
and as ``Tensor.NAME`` is reachable here both ways under PyTorch's name, so forgetting
``ag.atan`` or ``Tensor.atan`` for a new op fails here (its gradient tests come from
registering it in op_registry.py)."""
import pytest
from op_registry import CASES

import ag_jupyter as ag
from ag_jupyter.nn import functional as F

torch = pytest.importorskip("torch")
# a case's name is PyTorch's, except those naming a variant or a syntax ("index" is x[i])
NAMES = sorted({case.name for case in CASES} - {"index", "setitem", "pow_scalar", "rpow_scalar", "max_dim",
                                               "min_dim", "to_float32_and_back"})


def test_every_registered_op_that_torch_offers_both_ways_is_here_both_ways():
    # in-place forms (fill_, copy_) are methods first: torch.fill_ is a rarity nobody teaches
    both = [name for name in NAMES if hasattr(torch, name) and hasattr(torch.Tensor, name) and not name.endswith("_")]
    assert len(both) >= 30, both
    missing = [f"ag.{name}" for name in both if not callable(getattr(ag, name, None))]
    missing += [f"Tensor.{name}" for name in both if not callable(getattr(ag.Tensor, name, None))]
    assert not missing, f"add {', '.join(missing)} (PyTorch has them)"


def test_ops_torch_keeps_in_one_place_are_here_in_the_same_place():
    functional = [name for name in NAMES if not hasattr(torch.Tensor, name)
                  and hasattr(torch.nn.functional, name)]
    assert functional, "the registry has nn.functional ops (linear, mse_loss, nll_loss)"
    assert [name for name in functional if not callable(getattr(F, name, None))] == []
    methods = [name for name in NAMES if hasattr(torch.Tensor, name) and not hasattr(torch, name)]
    assert [name for name in methods if not hasattr(ag.Tensor, name)] == []


def test_the_check_would_catch_a_forgotten_name(monkeypatch):
    monkeypatch.delattr(ag, "sigmoid")
    with pytest.raises(AssertionError, match=r"add ag\.sigmoid"):
        test_every_registered_op_that_torch_offers_both_ways_is_here_both_ways()
