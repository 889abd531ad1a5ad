"""The examples in the docstrings of nn, optim and serialization run as written."""
import doctest
import importlib

import pytest

MODULES = [
    "ag_jupyter.nn", "ag_jupyter.nn.module", "ag_jupyter.nn.parameter", "ag_jupyter.nn.linear",
    "ag_jupyter.nn.container", "ag_jupyter.nn.dropout", "ag_jupyter.nn.loss", "ag_jupyter.nn.functional",
    "ag_jupyter.nn.init", "ag_jupyter.optim", "ag_jupyter.optim.sgd", "ag_jupyter.optim.adam",
    "ag_jupyter.serialization",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_small_layers():
    import ag_jupyter as ag
    from ag_jupyter import nn

    x = ag.randn(2, 3, 4)
    assert nn.Flatten()(x).shape == (2, 12) and nn.Flatten(0, 1)(x).shape == (6, 4)
    assert repr(nn.Flatten()) == "Flatten(start_dim=1, end_dim=-1)"
    assert nn.Identity(54, unused="x")(x) is x
