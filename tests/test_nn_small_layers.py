"""Small nn layers and functions beside the docstring examples (those run in test_doctests.py)."""


def test_small_layers():
    import ag_jupyter as ag
    from ag_jupyter import nn

    x = ag.randn(2, 3, 4)
    assert nn.Flatten()(x).shape == (2, 12) and nn.Flatten(0, 1)(x).shape == (6, 4)
    assert repr(nn.Flatten()) == "Flatten(start_dim=1, end_dim=-1)"
    assert nn.Identity(54, unused="x")(x) is x
