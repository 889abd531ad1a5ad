"""A Python number beside a float tensor is converted once to a 0-d array (operands.py):
every result, forward and backward, must be NumPy's own for the number, bit for bit,
with the same dtype and the same warnings."""
from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import ag_jupyter as ag
from ag_jupyter import operands
from ag_jupyter.operands import operand

NUMBERS = [0.1, 1, 2.0, -3, 0.0, -0.0, 1e-45, 5e-324, 65504.0, 70000, 1e300, 2 ** 60 + 1, -(2 ** 70),
           float("inf"), float("-inf"), float("nan"), 10 ** 400]  # bools: test_promotion.py (PyTorch refuses some)
FLOATS = ["float16", "float32", "float64"]
# the operators themselves: the same code on a NumPy array and on a tensor
OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b}


def same(got, expected) -> bool:
    """Equal bit for bit (so -0.0 is not 0.0 and NaN equals NaN), in the same dtype."""
    got, expected = np.asarray(got), np.asarray(expected)
    return got.dtype == expected.dtype and got.shape == expected.shape and \
        got.tobytes() == expected.tobytes()


def outcome(thunk):
    """The result, or the kind of error, and the warnings raised on the way."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = thunk()
        except (OverflowError, TypeError, RuntimeError) as error:
            result = type(error).__name__
    return result, sorted(str(w.message) for w in caught)


@pytest.mark.parametrize("dtype", FLOATS)
def test_ops_with_a_number_give_numpys_own_result_bit_for_bit_in_either_order(dtype):
    values = np.array([0.3, -2.5, 0.0, 60000.0], dtype)
    wrong = []
    for _ in range(2):  # the second time the number comes from the cache
        for number, (symbol, op), number_first in itertools.product(NUMBERS, OPS.items(), (False, True)):
            def run(array):
                return op(number, array) if number_first else op(array, number)
            expected, warned = outcome(lambda: run(values))
            got, got_warned = outcome(lambda: run(ag.tensor(values)))
            if isinstance(expected, str) or isinstance(got, str):  # an error: the same kind
                ok = isinstance(expected, str) and isinstance(got, str) and expected == got
            else:
                ok = same(got.detach().numpy(), expected)
            if not ok or warned != got_warned:
                order = "number first" if number_first else "tensor first"
                wrong.append(f"{dtype} {order} {symbol} {number!r}: numpy {expected} {warned}, "
                             f"ag {got} {got_warned}")
    assert not wrong, "\n".join(wrong[:20])


@pytest.mark.parametrize("dtype", FLOATS)
def test_gradients_through_a_number_are_numpys_formula_bit_for_bit(dtype):
    values = np.array([0.3, -2.5, 1.75], dtype)
    seed = np.array([1.0, -0.5, 3.0], dtype)
    for number in [0.1, 3, -0.0, 1e-45, 65504.0, float("inf"), float("nan")]:
        for _ in range(2):
            with np.errstate(all="ignore"):
                x = ag.tensor(values, requires_grad=True)
                (x * number).backward(ag.tensor(seed))
                assert same(x.grad.numpy(), seed * number), (dtype, "x * c", number)
                x = ag.tensor(values, requires_grad=True)
                (x / number).backward(ag.tensor(seed))
                assert same(x.grad.numpy(), seed / number), (dtype, "x / c", number)
                x = ag.tensor(values, requires_grad=True)
                (number * x).backward(ag.tensor(seed))
                assert same(x.grad.numpy(), seed * number), (dtype, "c * x", number)


def test_a_tensor_of_another_dtype_never_gets_the_cached_array_of_the_first():
    number = 0.1
    for dtype in ["float32", "float64", "float16", "float32"]:
        result = (ag.tensor(np.ones(2, dtype)) * number).numpy()
        assert same(result, np.ones(2, dtype) * number)


def test_the_cache_holds_read_only_arrays_and_stays_bounded():
    like = np.ones(3, np.float32)
    converted = operand(0.25, like)
    assert converted.shape == () and converted.dtype == np.float32
    with pytest.raises(ValueError):
        converted[...] = 7  # shared by every op that meets 0.25
    for i in range(3 * operands._LIMIT):
        operand(i + 0.5, like)
    assert len(operands._converted) <= operands._LIMIT
    assert operand(0.25, like) == np.float32(0.25)


def test_what_the_cache_does_not_take_comes_back_as_it_was():
    like = np.ones(3, np.float64)
    for number in [0.0, -0.0, float("nan"), True, False, 10 ** 400, float("inf")]:
        assert operand(number, like) is number
    assert operand(0.5, np.float64(1.0)) == 0.5 and type(operand(0.5, np.float64(1.0))) is float
    array = np.ones(2)
    assert operand(array, like) is array


def test_second_order_gradients_through_a_number_match_torch():
    torch = pytest.importorskip("torch")
    values = [0.3, -2.5, 1.75]
    x = ag.tensor(values, requires_grad=True)
    tx = torch.tensor(values, requires_grad=True)
    for lib, t in ((ag, x), (torch, tx)):
        y = ((t * 0.1) ** 2 / 3).sum()
        (g,) = lib.autograd.grad(y, t, create_graph=True)
        (g * 0.5).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-6)
