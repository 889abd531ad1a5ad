"""``var`` and ``std`` against PyTorch over every correction, including those that leave no
degrees of freedom (``correction >= n``), where PyTorch's gradient follows its own formula:
over the whole tensor inf (NaN where an entry is the mean), along dims ``2 / (n - c)`` as
it is, so a negative count gives a finite gradient. A fuzz in issue 13's twelfth round
found NaN here where PyTorch gave -0.0 and 1.4."""
from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

SHAPES = {"0-d": (), "one": (1,), "two": (2,), "three": (3,), "2x3": (2, 3), "1x1": (1, 1), "empty": (0, 3)}
DIMS = {"all": None, "first": 0, "last": -1, "both": (0, 1)}
DATA = {
    "spread": lambda shape: np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) * 0.7 + 0.3,
    "constant": lambda shape: np.full(shape, 2.5, np.float32),
}


def _cases():
    for (shape_name, shape), (dim_name, dim) in itertools.product(SHAPES.items(), DIMS.items()):
        if dim is not None and (len(shape) == 0 and dim == (0, 1) or len(shape) == 1 and dim == (0, 1)):
            continue
        if dim is not None and len(shape) == 0 and dim != 0 and dim != -1:
            continue
        yield f"{shape_name}-{dim_name}", shape, dim


CASES = {name: (shape, dim) for name, shape, dim in _cases()}


def _run(lib, op, values, dim, correction, keepdim, upstream):
    x = lib.tensor(values, requires_grad=True)
    kwargs = {"correction": correction, "keepdim": keepdim}
    y = getattr(x, op)(**kwargs) if dim is None else getattr(x, op)(dim, **kwargs)
    (y * lib.tensor(upstream(tuple(y.shape)))).sum().backward()
    return y.detach().numpy(), x.grad.numpy()


@pytest.mark.parametrize("op", ["var", "std"])
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("data", list(DATA))
def test_var_and_std_give_pytorchs_values_and_gradients_for_every_correction(op, case, data):
    shape, dim = CASES[case]
    values = DATA[data](shape)
    upstreams = {"ones": lambda s: np.ones(s, np.float32),
                 "with zeros": lambda s: (np.arange(int(np.prod(s))) % 2).astype(np.float32).reshape(s)}
    for correction, keepdim, upstream in itertools.product(range(5), (False, True), upstreams.values()):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch's "degrees of freedom is <= 0"
            ours = _run(ag, op, values, dim, correction, keepdim, upstream)
            theirs = _run(torch, op, values, dim, correction, keepdim, upstream)
        for mine, want in zip(ours, theirs):
            assert mine.shape == want.shape and mine.dtype == want.dtype
            np.testing.assert_allclose(mine, want, rtol=1e-6, atol=0, equal_nan=True,
                                       err_msg=f"{op} correction={correction} keepdim={keepdim}")
            assert (np.signbit(mine) == np.signbit(want))[~np.isnan(want)].all()


@pytest.mark.parametrize("op", ["var", "std"])
def test_the_second_derivative_of_var_and_std_is_pytorchs(op):
    values = DATA["spread"]((2, 3))
    outs = []
    for lib in (ag, torch):
        x = lib.tensor(values.astype(np.float64), requires_grad=True)
        (g,) = lib.autograd.grad(getattr(x, op)(1, correction=1).sum(), (x,), create_graph=True)
        weights = lib.tensor(np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]))
        (g2,) = lib.autograd.grad((g * g * weights).sum(), (x,))
        outs.append(g2.detach().numpy())
    assert np.abs(outs[1]).max() > 0.1  # a second derivative that is not 0 everywhere
    np.testing.assert_allclose(outs[0], outs[1], rtol=1e-10)
