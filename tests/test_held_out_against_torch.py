"""Issue 30's held-out edge cases, each run on PyTorch and on the engine with the same
program: keyword arguments to ``Function.apply``, ``x[i] = v`` with a value that has
leading dimensions of size 1, in-place writes through ``.data`` (storage shared, version
counter not), and the 2-norm of float16 (summed in float32, as PyTorch does)."""
from __future__ import annotations

import numpy
import pytest

import ag_jupyter as ag
from ag_jupyter.core import _wrap

torch = pytest.importorskip("torch")


def outcome(program, lib):
    """What ``program(lib)`` gives: its numbers as nested lists, or its error's type and text
    with the library's own type names made comparable."""
    try:
        result = program(lib)
    except Exception as error:  # noqa: BLE001 - the error is the outcome compared
        return type(error).__name__, str(error).replace("torch.", "ag.")
    return [None if r is None else numpy.asarray(r.detach().tolist() if hasattr(r, "detach") else r).tolist()
            for r in result]


def same_as_torch(program):
    """The same error, or the same numbers to float32's last bits (NumPy and PyTorch may
    round a product differently)."""
    expected, got = outcome(program, torch), outcome(program, ag)
    if isinstance(expected, tuple) or isinstance(got, tuple):
        assert got == expected
        return
    assert len(got) == len(expected), (got, expected)
    for mine, theirs in zip(got, expected):
        assert (mine is None) == (theirs is None), (got, expected)
        if mine is not None:
            numpy.testing.assert_allclose(numpy.asarray(mine, dtype=float), numpy.asarray(theirs, dtype=float),
                                          rtol=1e-6, err_msg=f"{got} != {expected}")


# ----- keyword arguments to Function.apply -----------------------------------------

def scaled_plus(lib):
    class ScaledPlus(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, scale=2.0, shift=None):
            ctx.scale = scale
            ctx.seen = ctx.needs_input_grad
            return x * scale + (0 if shift is None else shift)

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.scale, None, grad if ctx.needs_input_grad[-1] else None
    return ScaledPlus


@pytest.mark.parametrize("call", [
    lambda f, x, s: f.apply(x, scale=3.0, shift=s),
    lambda f, x, s: f.apply(x, shift=s, scale=4.0),  # placed by the parameter order, not the call's
    lambda f, x, s: f.apply(scale=0.5, x=x, shift=s),
    lambda f, x, s: f.apply(x, 3.0, shift=s * 2),
    lambda f, x, s: f.apply(x, shift=s),  # a gap: PyTorch fills no defaults
    lambda f, x, s: f.apply(x, 3.0, scale=4.0),
    lambda f, x, s: f.apply(x, bogus=1),
], ids=["in-order", "reordered", "all-keywords", "mixed", "gap", "twice", "unknown"])
def test_function_apply_takes_keyword_arguments_as_pytorch_does(call):
    def program(lib):
        x = lib.tensor([1.0, -2.0], requires_grad=True)
        shift = lib.tensor([0.5, 0.25], requires_grad=True)
        out = call(scaled_plus(lib), x, shift)
        out.sum().backward()
        return out, x.grad, shift.grad
    same_as_torch(program)


def test_function_apply_keyword_arguments_count_as_inputs_for_needs_input_grad():
    for lib in (torch, ag):
        x = lib.tensor([1.0], requires_grad=True)
        out = scaled_plus(lib).apply(x, scale=2.0, shift=lib.ones(1, requires_grad=True))
        assert tuple(out.grad_fn.seen) == (True, False, True)


# ----- x[i] = v, v with leading 1s ---------------------------------------------------

@pytest.mark.parametrize("shape, key, value", [
    ((3,), 0, [5.0]),
    ((3,), 0, [[5.0]]),
    ((3, 2), 1, [[1.0, 2.0]]),
    ((3, 2), (1, 1), [[4.0]]),
    ((3, 2), slice(0, 2), [[[1.0, 2.0]]]),
    ((3, 2), [0, 2], [[1.0, 2.0]]),
    ((3, 2), (Ellipsis, 0), [[1.0, 2.0, 3.0]]),
    ((3, 2), 1, [[1.0], [2.0]]),  # (2, 1) into (2,): PyTorch's expand error
    ((3, 2), 1, [[1.0, 2.0, 3.0]]),  # (3,) into (2,): the sizes named
], ids=str)
def test_setitem_drops_a_values_leading_ones_and_keeps_the_gradient(shape, key, value):
    def program(lib):
        base = lib.zeros(shape, requires_grad=True)
        v = lib.tensor(value, requires_grad=True)
        x = base * 1
        x[key] = v * 2
        (x * lib.arange(x.numel()).reshape(shape)).sum().backward()
        return x, base.grad, v.grad
    same_as_torch(program)


def test_a_failed_setitem_leaves_the_tensor_as_it_was():
    x = ag.zeros(3, 2)
    with pytest.raises(RuntimeError, match="must be greater or equal"):
        x[1] = ag.tensor([[1.0], [2.0]])
    assert x.tolist() == [[0.0] * 2] * 3 and x._version == 0


# ----- writes through .data ----------------------------------------------------------

@pytest.mark.parametrize("write", [
    lambda lib, w: w.data.sub_(0.5 * w.grad),
    lambda lib, w: w.data.copy_(lib.tensor([5.0, 6.0])),
    lambda lib, w: w.data.mul_(2),
    lambda lib, w: w.data.zero_(),
], ids=["sub_", "copy_", "mul_", "zero_"])
def test_an_inplace_write_through_data_does_not_trip_the_version_check(write):
    def program(lib):
        w = lib.tensor([1.0, 2.0], requires_grad=True)
        (w * w).sum().backward()
        pending = (w * w.exp()).sum()  # saves w
        write(lib, w)
        pending.backward()
        return w, w.grad, [w._version]
    same_as_torch(program)


def test_data_augmented_assignment_as_an_sgd_step():
    def program(lib):
        w = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        for _ in range(3):
            loss = (w * w).sum()
            loss.backward()
            w.data -= 0.1 * w.grad
            w.grad.zero_()
        pending = (w ** 3).sum()
        w.data *= 0.5  # after the graph saved w: PyTorch does not notice, the gradient uses the new w
        pending.backward()
        return w, w.grad, [w._version]
    same_as_torch(program)


def test_an_inplace_write_to_the_tensor_itself_still_trips_the_check():
    def program(lib):
        w = lib.tensor([1.0, 2.0], requires_grad=True)
        pending = (w * w).sum()
        with lib.no_grad():
            w -= 0.5
        pending.backward()
        return (w,)
    kind, message = outcome(program, ag)
    assert kind == "RuntimeError" and "is at version 1; expected version 0" in message
    assert outcome(program, torch)[0] == "RuntimeError"


# ----- float16 norm -----------------------------------------------------------------

@pytest.mark.parametrize("values, dim", [
    ([[300.0] * 1000] * 2, None),
    ([[300.0] * 1000] * 2, 1),
    ([[3e4, 4e4]], None),  # 5e4: finite in float16, its squares are not
    ([[3e-4, 4e-4]], 1),
    ([[70000.0 / 2, 70000.0 / 2]], None),  # inf in PyTorch too: the result itself overflows
], ids=str)
def test_float16_norm_is_summed_in_float32_as_pytorch_does(values, dim):
    def program(lib):
        h = lib.tensor(values, dtype=lib.float16, requires_grad=True)
        n = h.norm(dim=dim) if dim is not None else h.norm()
        n.sum().backward()
        assert str(n.dtype).split(".")[-1] == "float16"
        return n, h.grad
    same_as_torch(program)


def test_a_0d_tensor_formats_its_number_and_its_data_is_shared_as_pytorchs():
    torch = pytest.importorskip("torch")
    for make in (ag, torch):
        loss = make.tensor([1.5, 2.25]).sum()
        assert f"{loss:.3f} {loss:f}" == "3.750 3.750000"
        with pytest.raises(TypeError):
            format(make.tensor([1.0, 2.0]), ".2f")
    # the sum of a 1-d tensor is held as a NumPy scalar inside; its .data still shares memory
    x = ag.tensor([2.0], dtype=ag.float64).sum()
    shared = x.data
    shared += 1
    assert x.item() == 3.0


def test_data_of_a_tensor_over_a_numpy_scalar():
    scalar = _wrap(numpy.float32(2.0), False, None)  # what some reductions leave in _data
    assert scalar.data.item() == 2.0


def test_assigning_data_a_transposed_view_of_itself_takes_it():
    def program(lib):
        w = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        w.data = w.data.t()
        (w * lib.tensor([[1.0, 10.0], [100.0, 1000.0]])).sum().backward()
        return w, w.grad
    same_as_torch(program)


def test_data_augmented_assignment_on_a_view_tensor():
    def program(lib):
        base = lib.arange(6.0).reshape(2, 3)
        w = base[1].detach().requires_grad_()  # a leaf whose memory is a view of base's
        pending = (w * w).sum()
        w.data -= 1.0
        pending.backward()
        return w, w.grad, base
    same_as_torch(program)


def test_an_update_through_data_writes_in_place_without_the_general_path(monkeypatch):
    """makemore's ``p.data += -lr * p.grad`` (grad mode on) takes the ufunc's path into the
    parameter's memory: the general one (a new array, then written in) tripled the update."""
    from ag_jupyter import tensor_inplace

    w = ag.tensor([1.0, -2.0, 3.0], requires_grad=True)
    (w * w).sum().backward()
    memory = w.detach().numpy()
    monkeypatch.setattr(tensor_inplace, "_through_op", lambda *args: pytest.fail("took the general path"))
    w.data += -0.1 * w.grad
    assert w.tolist() == pytest.approx([0.8, -1.6, 2.4]) and w._version == 0
    assert numpy.shares_memory(memory, w.detach().numpy())
