"""``&``, ``|``, ``^`` and ``~`` against PyTorch: logical on bools, bit by bit on integers in
the promoted dtype, refused for floats. Until issue 13's twelfth round ``&`` and ``|`` were
NumPy's logical ops, so ``t & 1`` of ``tensor([5, -7, 3])`` gave ``[True, True, True]``
where PyTorch gives ``[1, 1, 1]``."""
from __future__ import annotations

import itertools

import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

DATA = {"bool": [True, False, True], "int64": [5, -7, 3], "int32": [6, 1, -2], "float32": [1.5, 2.0, -1.0]}
OTHERS = {
    "itself": lambda lib, t: t,
    "an int": lambda lib, t: 6,
    "a bool": lambda lib, t: True,
    "a float": lambda lib, t: 0.5,
    "an int64 tensor": lambda lib, t: lib.tensor([1, 2, 3]),
    "a bool tensor": lambda lib, t: lib.tensor([True, True, False]),
    "an int32 row": lambda lib, t: lib.tensor([[3, 3, 3]], dtype=lib.int32),
}


def _outcome(lib, dtype, other, op, reflected):
    t = lib.tensor(DATA[dtype], dtype=getattr(lib, dtype))
    o = OTHERS[other](lib, t)
    a, b = (o, t) if reflected else (t, o)
    try:
        result = {"&": lambda: a & b, "|": lambda: a | b, "^": lambda: a ^ b}[op]()
    except (NotImplementedError, RuntimeError, TypeError) as error:
        return type(error).__name__
    return str(result.dtype).split(".")[-1], result.tolist()


@pytest.mark.parametrize("op", ["&", "|", "^"])
@pytest.mark.parametrize("dtype", list(DATA))
def test_bitwise_operators_give_pytorchs_values_dtypes_and_refusals(op, dtype):
    for other, reflected in itertools.product(OTHERS, (False, True)):
        assert _outcome(ag, dtype, other, op, reflected) == _outcome(torch, dtype, other, op, reflected), \
            (other, reflected)


@pytest.mark.parametrize("dtype", list(DATA))
def test_invert_is_pytorchs(dtype):
    outcomes = []
    for lib in (ag, torch):
        try:
            result = ~lib.tensor(DATA[dtype], dtype=getattr(lib, dtype))
            outcomes.append((str(result.dtype).split(".")[-1], result.tolist()))
        except TypeError as error:
            outcomes.append(str(error).split(" (this")[0])
    assert outcomes[0] == outcomes[1]
