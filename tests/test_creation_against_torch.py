"""Making tensors from the numbers a person writes, against PyTorch (a fuzz in issue 13's
twelfth round): ``ag.tensor([0.1], dtype=ag.float64)`` went through float32 first and gave
0.10000000149011612; NaN, inf and 2**40 became whatever NumPy's cast made of them in an
integer dtype; ``rand`` made integer and bool "random" tensors PyTorch refuses."""
from __future__ import annotations

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

EXACT = {  # data, dtype name: each value must be PyTorch's, bit for bit
    "0.1 as float64": (0.1, "float64"),
    "a list as float64": ([0.1, 1 / 3, 1e-40], "float64"),
    "nested as float64": ([[0.1, 2], [3, 0.7]], "float64"),
    "numpy scalars and floats as float64": ([np.float32(1.5), 0.1], "float64"),
    "2**24 + 1 as int64": ([16777217.0], "int64"),
    "negative floats as int32": ([-3.7, 2.9], "int32"),
    "floats as float16": ([0.1, 65504.0], "float16"),
    "the default float": ([0.1, 2.5], None),
    "ints as float32": ([1, 2], "float32"),
    "bools as int64": ([True, False], "int64"),
    "floats as bool": ([1.5, 0.0, float("nan")], "bool"),
}


def _make(lib, data, dtype_name):
    kwargs = {} if dtype_name is None else {"dtype": getattr(lib, dtype_name)}
    return lib.tensor(data, **kwargs)


@pytest.mark.parametrize("name", list(EXACT))
def test_a_tensor_of_written_numbers_holds_pytorchs_values(name):
    data, dtype_name = EXACT[name]
    ours, theirs = _make(ag, data, dtype_name), _make(torch, data, dtype_name)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


REFUSED = {  # what PyTorch refuses; ag must refuse it too, not give another number
    "NaN as int64": lambda lib: lib.tensor([float("nan"), 1.0], dtype=lib.int64),
    "inf as int32": lambda lib: lib.tensor(float("inf"), dtype=lib.int32),
    "2**40 as int32": lambda lib: lib.tensor([2 ** 40, 1], dtype=lib.int32),
    "2.5e10 as int32": lambda lib: lib.tensor([2.5e10], dtype=lib.int32),
    "full of NaN as int64": lambda lib: lib.full((2,), float("nan"), dtype=lib.int64),
    "full of inf as int32": lambda lib: lib.full((2,), float("-inf"), dtype=lib.int32),
    "rand as int64": lambda lib: lib.rand(2, dtype=lib.int64),
    "randn as bool": lambda lib: lib.randn(2, dtype=lib.bool),
    "rand_like of an int tensor": lambda lib: lib.rand_like(lib.tensor([1, 2])),
    "arange as bool": lambda lib: lib.arange(3, dtype=lib.bool),
    "linspace as bool": lambda lib: lib.linspace(0, 1, 3, dtype=lib.bool),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_what_pytorch_refuses_to_make_is_refused(name):
    with pytest.raises((RuntimeError, NotImplementedError)) as theirs:
        REFUSED[name](torch)
    with pytest.raises(theirs.type) as ours:
        REFUSED[name](ag)
    if theirs.type is RuntimeError:
        assert "value cannot be converted to type" in str(ours.value)
    else:
        assert "ask for" in str(ours.value)  # and says what to do instead


def test_an_integer_arange_with_a_fractional_bound_is_refused_where_pytorch_disagrees_with_itself():
    # PyTorch truncates the bounds first for int64 and not for int32; NumPy counts in floats
    assert torch.arange(5, 0, -1.5, dtype=torch.int64).tolist() == [5, 4, 3, 2, 1]
    assert torch.arange(5, 0, -1.5, dtype=torch.int32).tolist() == [5, 4, 3, 2]
    with pytest.raises(ValueError, match="give it integers"):
        ag.arange(5, 0, -1.5, dtype=ag.int64)
    assert ag.arange(0.0, 5.0, dtype=ag.int64).tolist() == torch.arange(0.0, 5.0, dtype=torch.int64).tolist()
    assert ag.arange(0.5, 2.5, 0.5).tolist() == torch.arange(0.5, 2.5, 0.5).tolist()


def test_an_array_or_tensor_given_as_data_is_cast_as_it_is_as_in_pytorch():
    values = np.array([0.1, 2.7], dtype=np.float64)
    np.testing.assert_array_equal(ag.tensor(values, dtype=ag.int64).numpy(),
                                  torch.tensor(values, dtype=torch.int64).numpy())
    np.testing.assert_array_equal(ag.tensor(ag.tensor(values), dtype=ag.float32).numpy(),
                                  torch.tensor(values, dtype=torch.float32).numpy())
