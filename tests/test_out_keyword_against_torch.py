"""The ``out=`` keyword (ag_jupyter/out_argument.py) against PyTorch: the result written into
``out`` and ``out`` returned, resizing (with PyTorch's warning unless ``out`` was empty), the
dtype rules, a view written through to its base, and PyTorch's errors."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

A = [[1.0, -2.0, 3.5], [0.5, 4.0, -1.0]]
B = [2.0, 0.25, -3.0]

CALLS = {
    "add": lambda m, a, b: ((a, b), {"alpha": 2}), "sub": lambda m, a, b: ((a, b), {}),
    "mul": lambda m, a, b: ((a, b), {}), "div": lambda m, a, b: ((a, b), {}),
    "matmul": lambda m, a, b: ((a, b), {}), "cat": lambda m, a, b: (([a, a],), {"dim": 1}),
    "stack": lambda m, a, b: (([b, b],), {}), "sum": lambda m, a, b: ((a, 1), {}),
    "mean": lambda m, a, b: ((a, 0), {"keepdim": True}), "exp": lambda m, a, b: ((a,), {}),
    "log": lambda m, a, b: ((a.abs(),), {}), "clamp": lambda m, a, b: ((a,), {"min": -1.0, "max": 2.0}),
    "where": lambda m, a, b: ((a > 0, a, b), {}), "pow": lambda m, a, b: ((a, 2), {}),
    "maximum": lambda m, a, b: ((a, b), {}),
}


def _operands(m):
    return m.tensor(A), m.tensor(B)


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("start", ["empty", "same", "other"])
def test_the_result_is_written_into_out(name, start):
    results = []
    for m in (ag, torch):
        a, b = _operands(m)
        args, kwargs = CALLS[name](m, *((a, b.reshape(3, 1)) if name == "matmul" else (a, b)))
        expected_shape = tuple(getattr(m, name)(*args, **kwargs).shape)
        out = {"empty": m.empty(0), "same": m.full(expected_shape, 7.0), "other": m.zeros(5, 1)}[start]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            returned = getattr(m, name)(*args, out=out, **kwargs)
        assert returned is out
        results.append((out.numpy(), [str(w.message) for w in caught if "resized" in str(w.message)]))
    (ours, our_warnings), (theirs, their_warnings) = results
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    assert len(our_warnings) == len(their_warnings)
    assert [w.split(" This behavior")[0] for w in our_warnings] == \
        [w.split(" This behavior")[0] for w in their_warnings]


FACTORY_CALLS = [lambda m, o: m.arange(5, out=o), lambda m, o: m.zeros(2, 3, out=o), lambda m, o: m.ones((3,), out=o)]


@pytest.mark.parametrize("call,dtype", [(call, dtype) for call in FACTORY_CALLS
                                        for dtype in ("float32", "int64", "float64")] +
                         [(lambda m, o: m.arange(1, 4, 0.5, out=o), dtype) for dtype in ("float32", "float64")])
def test_a_factory_takes_outs_dtype(call, dtype):
    ours, theirs = ag.empty(0, dtype=getattr(ag, dtype)), torch.empty(0, dtype=getattr(torch, dtype))
    assert call(ag, ours) is ours and call(torch, theirs) is theirs
    assert ours.dtype.name == str(theirs.dtype).replace("torch.", "")
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_a_view_as_out_writes_through_to_its_base():
    for m in (ag, torch):
        base = m.ones(2, 3)
        m.exp(m.tensor(B), out=base[0])
        m.add(m.tensor(B), 1, out=base[1])
        if m is ag:
            ours = base.numpy()
        else:
            np.testing.assert_allclose(ours, base.numpy(), rtol=1e-6)


ERRORS = [
    lambda m: m.add(m.tensor(A), m.tensor(B), out=m.empty(2, 3, dtype=m.int64)),
    lambda m: m.add(m.tensor(A), m.tensor(B, requires_grad=True), out=m.empty(2, 3)),
    lambda m: m.mul(m.tensor(A), 2.0, out=m.empty(2, 3, requires_grad=True)),
    lambda m: m.zeros(2, 2, dtype=m.float32, out=m.empty(0, dtype=m.int64)),
]


@pytest.mark.parametrize("call", ERRORS)
def test_errors_are_pytorchs(call):
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value)) as ours:
        call(ag)
    assert str(ours.value) == str(theirs.value)


def test_under_no_grad_an_input_that_requires_grad_is_fine_and_nothing_is_recorded():
    w = ag.tensor(B, requires_grad=True)
    out = ag.empty(0)
    with ag.no_grad():
        ag.mul(w, 2, out=out)
    assert not out.requires_grad and out.grad_fn is None
    np.testing.assert_allclose(out.numpy(), np.array(B) * 2)
