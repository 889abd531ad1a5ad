"""Type promotion against PyTorch: every dtype pair, with and without dimensions, with
Python numbers, for every op family; the result dtype (or the refusal) must be torch's."""
from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import ag_jupyter as ag
from ag_jupyter import promotion

torch = pytest.importorskip("torch")

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
NUMBERS = [True, 3, 2.5]


def make(lib, dtype: str, zero_dim: bool):
    values = np.array(2 if zero_dim else [1, 2]).astype(dtype)
    return torch.tensor(values) if lib is torch else ag.tensor(values)


def outcome(thunk) -> str:
    """The result's dtype name, or the kind of error raised."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = thunk()
        except (RuntimeError, TypeError, ValueError, OverflowError):
            return "error"
    return str(result.dtype).split(".")[-1]


def _where(a, b):
    lib = torch if isinstance(a, torch.Tensor) else ag
    return lib.where(lib.tensor([True, False]), a, b)


BINARY = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b, "pow": lambda a, b: a ** b, "where": _where,
    "maximum": lambda a, b: a.maximum(b), "eq": lambda a, b: a == b, "lt": lambda a, b: a < b,
}


@pytest.mark.parametrize("name", list(BINARY))
def test_binary_ops_promote_tensor_pairs_as_torch(name):
    op = BINARY[name]
    wrong = []
    for (a, b), (zero_a, zero_b) in itertools.product(itertools.product(DTYPES, DTYPES),
                                                      itertools.product([False, True], repeat=2)):
        expected = outcome(lambda: op(make(torch, a, zero_a), make(torch, b, zero_b)))
        got = outcome(lambda: op(make(ag, a, zero_a), make(ag, b, zero_b)))
        if expected != got:
            wrong.append(f"{a}{'[]' if zero_a else '[2]'} {name} {b}{'[]' if zero_b else '[2]'}: "
                         f"torch {expected}, ag {got}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("name", list(BINARY))
def test_binary_ops_with_python_numbers_promote_as_torch(name):
    op = BINARY[name]
    wrong = []
    for dtype, number, reverse, zero_dim in itertools.product(DTYPES, NUMBERS, [False, True], [False, True]):
        if reverse and name in ("maximum", "where", "eq", "lt"):
            continue  # a number on the left is not a tensor method call
        if reverse:
            expected = outcome(lambda: op(number, make(torch, dtype, zero_dim)))
            got = outcome(lambda: op(number, make(ag, dtype, zero_dim)))
        else:
            expected = outcome(lambda: op(make(torch, dtype, zero_dim), number))
            got = outcome(lambda: op(make(ag, dtype, zero_dim), number))
        if expected != got:
            wrong.append(f"{dtype} {name} {number!r} (reversed={reverse}, 0-d={zero_dim}): torch {expected}, ag {got}")
    assert not wrong, "\n".join(wrong)


UNARY = {
    "neg": lambda x: -x, "exp": lambda x: x.exp(), "log": lambda x: x.log(), "sqrt": lambda x: x.sqrt(),
    "abs": lambda x: x.abs(), "sin": lambda x: x.sin(), "cos": lambda x: x.cos(),
    "tanh": lambda x: x.tanh(), "sigmoid": lambda x: x.sigmoid(), "relu": lambda x: x.relu(),
    "clamp_int": lambda x: x.clamp(0, 1), "clamp_float": lambda x: x.clamp(0.5, 1.5),
    "sum": lambda x: x.sum(), "mean": lambda x: x.mean(), "var": lambda x: x.var(),
    "std": lambda x: x.std(), "norm": lambda x: x.norm(), "max": lambda x: x.max(),
    "argmax": lambda x: x.argmax(), "softmax": lambda x: x.softmax(0),
    "log_softmax": lambda x: x.log_softmax(0),
}


@pytest.mark.parametrize("name", list(UNARY))
def test_unary_ops_and_reductions_give_torch_dtypes(name):
    op = UNARY[name]
    wrong = []
    for dtype, zero_dim in itertools.product(DTYPES, [False, True]):
        expected = outcome(lambda: op(make(torch, dtype, zero_dim)))
        got = outcome(lambda: op(make(ag, dtype, zero_dim)))
        if expected != got:
            wrong.append(f"{name}({dtype}{'[]' if zero_dim else '[2]'}): torch {expected}, ag {got}")
    assert not wrong, "\n".join(wrong)


def test_result_type_is_torch_result_type_for_every_operand_kind():
    operands = [(d, z) for d in DTYPES for z in (False, True)] + NUMBERS
    for x, y in itertools.product(operands, repeat=2):
        if not isinstance(x, tuple) and not isinstance(y, tuple):
            continue  # torch.result_type needs a tensor
        tx = make(torch, *x) if isinstance(x, tuple) else x
        ty = make(torch, *y) if isinstance(y, tuple) else y
        ax = np.array(2 if x[1] else [1, 2]).astype(x[0]) if isinstance(x, tuple) else x
        ay = np.array(2 if y[1] else [1, 2]).astype(y[0]) if isinstance(y, tuple) else y
        expected = str(torch.result_type(tx, ty)).split(".")[-1]
        assert promotion.result_type(ax, ay).name == expected, (x, y)


def test_mixed_dtype_gradients_come_back_in_each_inputs_dtype():
    values = []
    for lib in (torch, ag):
        a = lib.tensor([1.5, 2.5], requires_grad=True)  # float32, dimensioned
        b = lib.tensor(3.0, dtype=lib.float64, requires_grad=True)  # float64, 0-d: does not upcast
        c = a * b
        (c * c).sum().backward()
        values.append((str(c.dtype).split(".")[-1], str(a.grad.dtype).split(".")[-1],
                       str(b.grad.dtype).split(".")[-1], a.grad.tolist(), b.grad.item()))
    assert values[0][:3] == values[1][:3] == ("float32", "float32", "float64")
    np.testing.assert_allclose(values[1][3], values[0][3], rtol=1e-6)
    assert values[1][4] == pytest.approx(values[0][4], rel=1e-6)


def test_integers_beyond_int64_are_refused_not_wrapped():
    for value in (2 ** 63, -(2 ** 63) - 1, [1, 2 ** 64]):
        with pytest.raises(ValueError, match="does not fit in int64"):
            ag.tensor(value)
    assert ag.tensor(2 ** 63 - 1).item() == 2 ** 63 - 1
    with pytest.raises(OverflowError, match="does not fit in int64"):
        ag.tensor([1, 2]) * 2 ** 63  # torch wraps this one silently; a refusal is safer
    assert (ag.tensor([1.0]) * 2 ** 63).dtype == ag.float32  # a float tensor takes any number
    for make in (lambda: ag.arange(2 ** 63, 2 ** 63 + 2), lambda: ag.full((2,), 2 ** 63),
                 lambda: ag.tensor([1, 2]).fill_(2 ** 63), lambda: ag.tensor([1, 2]).__setitem__(0, 2 ** 63),
                 lambda: ag.tensor([1, 2]) - 2 ** 63 - 1, lambda: ag.tensor([1, 2]).mul_(2 ** 63)):
        with pytest.raises((ValueError, OverflowError)):  # torch wraps some of these silently
            make()


@pytest.mark.parametrize("make_data", [
    lambda lib: [np.float64(1.0)], lambda lib: np.float64(2.0), lambda lib: [np.float32(1), 2.5],
    lambda lib: [np.int32(1), 2], lambda lib: [lib.tensor(1.5, dtype=lib.float64), lib.tensor(2.0, dtype=lib.float64)],
    lambda lib: [lib.tensor(1), 2.5], lambda lib: [True, 2], lambda lib: [1, 2.5],
    lambda lib: np.array([1, 2], dtype=np.int32),
], ids=["np_f64_list", "np_f64_scalar", "np_f32_and_float", "np_i32_and_int", "f64_tensors", "int_tensor_and_float",
        "bool_and_int", "int_and_float", "int32_array"])
def test_creation_infers_the_dtype_torch_infers(make_data):
    ours, theirs = ag.tensor(make_data(ag)).dtype, torch.tensor(make_data(torch)).dtype
    assert str(ours).split(".")[-1] == str(theirs).split(".")[-1]


def test_a_python_int_to_a_negative_integer_tensor_power_keeps_the_tensors_dtype():
    seen = []
    for lib in (torch, ag):
        exponents = lib.tensor([-2, 0, 3], dtype=lib.int32)
        results = [2 ** exponents, (-1) ** exponents, lib.tensor([2, -1], dtype=lib.int32) ** lib.tensor([-1, -3])]
        seen.append([(str(r.dtype).split(".")[-1], r.tolist()) for r in results])
    assert seen[1] == seen[0]


def test_add_and_sub_with_alpha_keep_the_dtype_of_input_and_other_and_numbers_make_float32():
    seen = []
    for lib in (torch, ag):
        i32, flags = lib.tensor([1, 2], dtype=lib.int32), lib.tensor([True, False])
        floats = lib.tensor([0.5, 1.5], requires_grad=True)
        with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with a bool tensor"):
            lib.sub(i32, flags, alpha=3)
        results = [lib.add(i32, flags, alpha=2), lib.add(flags, flags, alpha=2), lib.sub(i32, i32, alpha=3),
                   lib.add(floats, floats, alpha=0.5), lib.add(0.5, 1.5), lib.mul(0.5, 2.0), lib.div(3, 2),
                   lib.add(0.5, 1.5, alpha=2)]
        seen.append([(str(r.dtype).split(".")[-1], r.tolist()) for r in results])
    assert seen[1] == seen[0]
