"""The arguments of rand, randn and randint against PyTorch's parser (issue 30), every
combination of a size spelling, a dtype and requires_grad: the same shape, dtype and
requires_grad as PyTorch's result, or the same kind of error where PyTorch refuses."""
from __future__ import annotations

import itertools
import warnings

import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

SIZES = [((2, 3), {}), (((2, 3),), {}), (([2, 3],), {}), ((), {"size": (2, 3)}), ((), {"size": [4]}), ((), {}),
         ((0,), {}), ((2, 3), {"size": (2,)}), (((),), {}), ((2.5,), {}), ((-1,), {}), ((2, -3), {})]
BOUNDS = [((5, (3,)), {}), ((0, 5, (3,)), {}), ((5,), {"size": (2,)}), ((0, 5), {"size": (2,)}),
          ((), {"high": 5, "size": (2,)}), ((), {"low": 2, "high": 5, "size": (2,)}), ((5,), {}), ((5, 3), {}),
          ((5, 2, (3,)), {}), ((-3, 3, (4,)), {}), ((0, 5, [2, 2]), {}), ((0, 5, ()), {}), ((2.0, (3,)), {}),
          ((0, 2 ** 40, (2,)), {}), ((0, 5, (-1,)), {})]
DTYPES = [None, "float16", "float32", "float64", "int64", "int32", "bool", "uint8", "int8"]


def _outcome(call):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PyTorch warns of float32 bounds beyond 2**24
            result = call()
    except Exception as error:  # noqa: BLE001 - the kind of error is what is compared
        return type(error).__name__
    return tuple(result.shape), str(result.dtype).split(".")[-1], result.requires_grad


def _cases(name, spellings):
    for (args, keywords), dtype, requires_grad in itertools.product(spellings, DTYPES, (False, True)):
        yield name, args, keywords, dtype, requires_grad


CASES = [*_cases("rand", SIZES), *_cases("randn", SIZES), *_cases("randint", BOUNDS)]


def test_random_factories_read_their_arguments_as_pytorch():
    differ = []
    for name, args, keywords, dtype, requires_grad in CASES:
        found = []
        for lib in (ag, torch):
            given = dict(keywords, **({"dtype": getattr(lib, dtype)} if dtype else {}))
            if requires_grad:
                given["requires_grad"] = True
            found.append(_outcome(lambda lib=lib, given=given: getattr(lib, name)(*args, **given)))
        if found[0] != found[1]:
            differ.append(f"{name}{args} {keywords} dtype={dtype} requires_grad={requires_grad}: "
                          f"ag {found[0]}, torch {found[1]}")
    assert len(CASES) > 600 and not differ, "\n".join(differ)


INPUTS = {
    "float32": lambda lib: lib.ones(3), "float64 2-d": lambda lib: lib.ones(2, 3, dtype=lib.float64),
    "int64": lambda lib: lib.ones(3, dtype=lib.int64), "float16": lambda lib: lib.ones(3, dtype=lib.float16),
    "0-d": lambda lib: lib.tensor(0.5), "empty": lambda lib: lib.ones(0), "3-d": lambda lib: lib.ones(2, 2, 2),
    "no categories": lambda lib: lib.ones(2, 0), "bool": lambda lib: lib.ones(3, dtype=lib.bool),
    "negative": lambda lib: lib.tensor([-0.5, 1.0]), "uint8": lambda lib: lib.ones(3, dtype=lib.uint8),
}
DRAWS = {
    "multinomial(x, 1)": lambda lib, x: lib.multinomial(x, 1),
    "multinomial(x, 2, True)": lambda lib, x: lib.multinomial(x, 2, True),
    "multinomial(x, 4)": lambda lib, x: lib.multinomial(x, 4),
    "bernoulli(x)": lambda lib, x: lib.bernoulli(x), "bernoulli(x, 0.5)": lambda lib, x: lib.bernoulli(x, 0.5),
    "normal(x, 1.0)": lambda lib, x: lib.normal(x, 1.0), "normal(0.0, x)": lambda lib, x: lib.normal(0.0, x),
    "normal(x, x)": lambda lib, x: lib.normal(x, x), "x.bernoulli_(0.3)": lambda lib, x: x.bernoulli_(0.3),
    "x.bernoulli_(tensor)": lambda lib, x: x.bernoulli_(lib.full(tuple(x.shape), 0.5)),
    "x.uniform_()": lambda lib, x: x.uniform_(), "x.normal_()": lambda lib, x: x.normal_(),
    "x.random_()": lambda lib, x: x.random_(), "x.random_(5)": lambda lib, x: x.random_(5),
    "x.random_(-1, 3)": lambda lib, x: x.random_(-1, 3), "x.random_(0, 300)": lambda lib, x: x.random_(0, 300),
    "x.exponential_()": lambda lib, x: x.exponential_(), "rand_like(x)": lambda lib, x: lib.rand_like(x),
    "randn_like(x)": lambda lib, x: lib.randn_like(x), "randint_like(x, 5)": lambda lib, x: lib.randint_like(x, 5),
    "x.multinomial(1)": lambda lib, x: x.multinomial(1), "x.bernoulli()": lambda lib, x: x.bernoulli(),
    "randperm(x.numel())": lambda lib, x: lib.randperm(x.numel()),
}


def test_draws_from_a_tensor_take_and_refuse_the_inputs_pytorch_does():
    differ = []
    for (draw, call), (kind, make) in itertools.product(DRAWS.items(), INPUTS.items()):
        found = [_outcome(lambda lib=lib: call(lib, make(lib))) for lib in (ag, torch)]
        if found[0] != found[1]:
            differ.append(f"{draw} of {kind}: ag {found[0]}, torch {found[1]}")
    assert not differ, "\n".join(differ)
