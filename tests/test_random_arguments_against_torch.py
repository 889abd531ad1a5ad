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
