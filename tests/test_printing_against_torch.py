"""A printed tensor is what PyTorch prints, character for character (``printing.py`` follows
``torch/_tensor_str.py``), over values that pick each notation, dtypes, shapes that wrap and
summarize, empty tensors and the suffixes. The only difference allowed is the dtype's
module: ``dtype=ag.float64`` where PyTorch writes ``dtype=torch.float64``, three characters
shorter, so a suffix PyTorch moves to a new line at 80 characters may stay on ours.
Issue 13's twelfth round found 1,654 of 3,549 printings different before this."""
from __future__ import annotations

import itertools
import re
import warnings

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

VALUES = {
    "normal": lambda rng, n: rng.standard_normal(n),
    "large": lambda rng, n: rng.standard_normal(n) * 1e5,
    "tiny": lambda rng, n: rng.standard_normal(n) * 1e-5,
    "whole": lambda rng, n: np.round(rng.standard_normal(n) * 10),
    "huge whole": lambda rng, n: np.full(n, 123456789.0),
    "with NaN": lambda rng, n: np.where(rng.random(n) < 0.2, np.nan, rng.standard_normal(n)),
    "with inf": lambda rng, n: np.where(rng.random(n) < 0.2, -np.inf, rng.standard_normal(n)),
    "zeros": lambda rng, n: np.zeros(n),
    "spanning": lambda rng, n: rng.random(n) * 10.0 ** rng.integers(-6, 6, n),
}
SHAPES = [(), (1,), (3,), (2, 3), (2, 2, 2), (0,), (0, 3), (12, 10), (1001,), (40, 40), (3, 1, 2)]
DTYPES = ["float32", "float64", "float16", "int64", "int32", "bool"]


def _array(values, shape, dtype, seed):
    rng = np.random.default_rng(seed)
    array = np.asarray(VALUES[values](rng, int(np.prod(shape))), dtype=np.float64).reshape(shape)
    if dtype in ("int64", "int32", "bool"):
        array = np.clip(np.nan_to_num(array, nan=0.0, posinf=0.0, neginf=0.0), -2e9, 2e9)
        array = np.round(array) if dtype != "bool" else array > 0.5
    with np.errstate(over="ignore"):
        return array.astype(dtype)


def _unwrapped(text: str) -> str:
    text = text.replace("torch.", "ag.")
    return re.sub(r",\n +(dtype=|grad_fn=|requires_grad=|size=)", r", \1", text)


@pytest.mark.parametrize("values", list(VALUES))
def test_a_printed_tensor_is_what_pytorch_prints(values):
    for seed, (shape, dtype) in enumerate(itertools.product(SHAPES, DTYPES)):
        array = _array(values, shape, dtype, seed)
        grads = (False, True) if dtype.startswith("float") else (False,)
        for requires_grad in grads:
            theirs = torch.tensor(array, requires_grad=requires_grad)
            ours = ag.tensor(array, requires_grad=requires_grad)
            assert _unwrapped(repr(ours)) == _unwrapped(repr(theirs)), (shape, dtype, requires_grad)
            assert str(ours) == repr(ours)
            if requires_grad:
                with warnings.catch_warnings():  # float16 * 2 overflows to inf, as PyTorch's does
                    warnings.simplefilter("ignore", RuntimeWarning)
                    doubled = ours * 2
                assert _unwrapped(repr(doubled)) == _unwrapped(repr(theirs * 2)), (shape, dtype)


def test_a_suffix_wraps_at_80_characters_as_in_pytorch():
    rows = [[0.3829, -1.0675, 0.1875], [3.6394, 0.8180, -1.1474]]
    printed = repr(ag.tensor(rows, dtype=ag.float64, requires_grad=True) * 2)
    assert printed.splitlines()[-1] == "        [ 7.2788,  1.6360, -2.2948]], dtype=ag.float64, grad_fn=<MulBackward0>)"
    theirs = repr(torch.tensor(rows, dtype=torch.float64, requires_grad=True) * 2)  # 3 characters longer
    assert theirs.splitlines()[-1] == "       grad_fn=<MulBackward0>)"
    long = repr(ag.ones(2, 9, dtype=ag.float16, requires_grad=True) * 2)
    assert long.splitlines()[-1] == "       grad_fn=<MulBackward0>)"
    assert max(len(line) for line in long.splitlines()) <= 80
