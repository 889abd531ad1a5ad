"""The small integer dtypes against PyTorch (issue 30's held-out case): uint8, int8 and int16
are PyTorch's dtypes here (an image read as a NumPy uint8 array stays uint8, as
``torch.tensor`` keeps it); uint16, uint32 and uint64, which PyTorch 2.13 supports only in
part, are refused by name, where uint64 data used to wrap silently into int64."""
from __future__ import annotations

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

SMALL = ["uint8", "int8", "int16"]


def _values(name):
    return np.array([1, 2, 3, 250 if name == "uint8" else 100], dtype=name)


OPS = {  # each applied to a 4-element tensor of the dtype, in both libraries
    "x + x (wraps as PyTorch)": lambda lib, x: x + x,
    "x + 3": lambda lib, x: x + 3,
    "x + 0.5": lambda lib, x: x + 0.5,
    "x - 1": lambda lib, x: x - 1,
    "x * x": lambda lib, x: x * x,
    "x / 2": lambda lib, x: x / 2,
    "-x": lambda lib, x: -x,
    "sum": lambda lib, x: x.sum(),
    "sum(0)": lambda lib, x: x.sum(0),
    "max": lambda lib, x: x.max(),
    "max(0)": lambda lib, x: x.max(0)[0],
    "argmax": lambda lib, x: x.argmax(),
    "float": lambda lib, x: x.float(),
    "float() / 255": lambda lib, x: x.float() / 255,
    "long": lambda lib, x: x.long(),
    "x == 3": lambda lib, x: x == 3,
    "x[1:]": lambda lib, x: x[1:],
    "cat with int64": lambda lib, x: lib.cat([x, lib.tensor([1])]),
    "with int32": lambda lib, x: x + lib.tensor([1, 2, 3, 4], dtype=lib.int32),
    "with uint8": lambda lib, x: x + lib.tensor([1, 2, 3, 4], dtype=lib.uint8),
    "with int8": lambda lib, x: x * lib.tensor([1, 2, 3, 4], dtype=lib.int8),
    "with bool": lambda lib, x: x * lib.tensor([True, False, True, True]),
    "with float16": lambda lib, x: x * lib.tensor([0.5] * 4, dtype=lib.float16),
    "abs": lambda lib, x: x.abs(),
    "clamp": lambda lib, x: x.clamp(1, 3),
    "where": lambda lib, x: lib.where(x > 1, x, 0),
    "x @ x": lambda lib, x: x @ x,
    "x ** 2": lambda lib, x: x ** 2,
    "x & 1": lambda lib, x: x & 1,
    "stack": lambda lib, x: lib.stack([x, x]),
    "reshape": lambda lib, x: x.reshape(2, 2),
    "to(int8)": lambda lib, x: x.to(lib.int8),
    "byte()": lambda lib, x: x.float().byte(),
    "char()": lambda lib, x: x.char(),
    "short()": lambda lib, x: x.short(),
    "zeros of it": lambda lib, x: lib.zeros(2, dtype=x.dtype),
    "ones_like": lambda lib, x: lib.ones_like(x),
    "arange of it": lambda lib, x: lib.arange(4, dtype=x.dtype),
    "tensor of its list": lambda lib, x: lib.tensor([1, 2], dtype=x.dtype),
    "sqrt (to the default float)": lambda lib, x: x.sqrt(),
}


@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize("name", SMALL)
def test_small_integer_tensors_compute_as_pytorch(name, op):
    ours, theirs = OPS[op](ag, ag.tensor(_values(name))), OPS[op](torch, torch.tensor(_values(name)))
    assert ours.dtype.name == str(theirs.dtype).split(".")[-1]
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


@pytest.mark.parametrize("name", SMALL)
def test_a_numpy_array_of_a_small_integer_dtype_keeps_it_as_pytorch(name):
    values = _values(name)
    for make in ("tensor", "as_tensor", "from_numpy"):
        ours, theirs = getattr(ag, make)(values), getattr(torch, make)(values)
        assert ours.dtype.name == str(theirs.dtype).split(".")[-1] == name
        assert ours.tolist() == theirs.tolist()
    assert ag.tensor(values).type() == torch.tensor(values).type().replace("torch.", "ag.")
    assert repr(ag.tensor(values)) == repr(torch.tensor(values)).replace("torch.", "ag.")
    assert getattr(ag, name) is ag.tensor(values).dtype
    assert ag.tensor([values[0], 1.5]).dtype.name == str(torch.tensor([values[0], 1.5]).dtype).split(".")[-1]


def test_a_uint8_image_as_a_tutorial_loads_it():
    rng = np.random.default_rng(0)
    image = rng.integers(0, 256, (28, 28, 3), dtype=np.uint8)
    for lib in (ag, torch):
        t = lib.tensor(image)
        assert str(t.dtype).split(".")[-1] == "uint8"
    ours = ag.tensor(image).permute(2, 0, 1).float() / 255
    theirs = torch.tensor(image).permute(2, 0, 1).float() / 255
    assert ours.dtype == ag.float32 and tuple(ours.shape) == (3, 28, 28)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    assert ag.tensor(image).sum().item() == torch.tensor(image).sum().item() == int(image.sum(dtype=np.int64))
    assert ag.tensor(image).max().item() == torch.tensor(image).max().item()


@pytest.mark.parametrize("name", ["uint16", "uint32", "uint64"])
def test_unsigned_dtypes_pytorch_supports_only_in_part_are_refused_by_name_never_wrapped(name):
    big = np.array([2 ** 63 + 5 if name == "uint64" else 7, 1], dtype=name)
    assert torch.tensor(big).tolist()[0] == int(big[0])  # PyTorch keeps the number
    for make in (ag.tensor, ag.as_tensor, ag.from_numpy, lambda a: ag.tensor([a[0], a[1]]),
                 lambda a: ag.tensor(a[0])):
        with pytest.raises(TypeError, match=f"numpy.{name}.*convert it first"):
            make(big)


def test_a_number_a_small_dtype_cannot_hold_is_refused_as_pytorch_refuses_it():
    with pytest.raises(RuntimeError, match="value cannot be converted to type uint8 without overflow"):
        torch.tensor([300], dtype=torch.uint8)
    with pytest.raises(RuntimeError, match="value cannot be converted to type uint8 without overflow"):
        ag.tensor([300], dtype=ag.uint8)
    with pytest.raises(RuntimeError, match="value cannot be converted to type int8 without overflow"):
        ag.tensor([200], dtype=ag.int8)


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "longdouble", "complex64", "bool", "int8", "int16",
                                  "int32", "int64", "uint8", "uint16", "uint32", "uint64", "datetime64[s]"])
def test_every_numpy_dtype_gives_pytorchs_dtype_or_a_type_error_never_another(name):
    values = np.array([1, 0], dtype=name)
    try:
        theirs = str(torch.from_numpy(values).dtype).split(".")[-1]
    except TypeError:
        theirs = None
    for make in (ag.tensor, ag.from_numpy):
        try:
            ours = make(values).dtype.name
        except TypeError as error:
            assert f"numpy.{values.dtype.name}" in str(error) and "convert it first" in str(error)
            continue
        assert ours == theirs  # made: then as PyTorch makes it
