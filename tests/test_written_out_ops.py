"""The commonest ops are written out in the Tensor's methods instead of going through
``op.apply``: ``+ - * /`` between a float tensor and a Python number
(ops/number_operators.py), and the one-ufunc ops on a float tensor (ops/float_methods.py).
The node, the tensor, what a listener hears and what backward computes must be exactly
what ``op.apply`` gives (with a listener set and without), and every other operand must
still reach ``op.apply``."""
from __future__ import annotations

import itertools
import operator

import numpy as np
import pytest

import ag_jupyter as ag
from ag_jupyter.autograd import state
from ag_jupyter.autograd.listener import Listener
from ag_jupyter.ops.elementwise import Abs, Add, Cos, Div, Exp, Log, Mul, Neg, Relu, Rsub, Sigmoid, Sin, Sqrt, Sub, Tanh
from ag_jupyter.ops.float_methods import float_method

OPERATORS = {Add: operator.add, Sub: operator.sub, Mul: operator.mul, Div: operator.truediv}
REFLECTED = {Sub: Rsub}  # a number minus a tensor is PyTorch's RsubBackward1
MISSING = object()


def slots(obj) -> dict:
    names = {name for cls in type(obj).__mro__ for name in getattr(cls, "__slots__", ())}
    return {name: getattr(obj, name, MISSING) for name in names - {"__weakref__", "__dict__"}}


def same_value(a, b) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype and \
            a.tobytes() == b.tobytes()
    return a is b or (type(a) is type(b) and a == b)


class Heard(Listener):
    def __init__(self):
        self.ops = []

    def on_op(self, node, inputs, output):
        self.ops.append((type(node), inputs, output))


def made(run, *operands):
    """The output, its node's state, and what a listener heard, once without a listener
    (the written-out path stamps the node itself) and once with one (function.record
    stamps it and tells the listener): (output, {quiet: slots, heard: slots}, heard ops
    as (kind, inputs, output is that run's output))."""
    out = run(*operands)
    quiet = out.grad_fn
    heard = state.listener = Heard()
    try:
        heard_out = run(*operands)
    finally:
        state.listener = None
    nodes = {"quiet": quiet, "heard": heard_out.grad_fn}
    return out, ({k: slots(n) for k, n in nodes.items()} if quiet is not None else None), \
        [(kind, inputs, output is heard_out) for kind, inputs, output in heard.ops]


def cases():
    for dtype, number, reflected in itertools.product(["float16", "float32", "float64"], [0.5, 3, -2.0],
                                                       [False, True]):
        yield dtype, number, reflected


def differences(label, fast_made, general_made, leaf, grad_checked: bool) -> list:
    (fast, fast_node, fast_heard), (general, general_node, general_heard) = fast_made, general_made
    wrong = []
    if not same_value(fast._data, general._data):
        wrong.append(f"{label}: values {fast._data} vs {general._data}")
    for name in ("_requires_grad", "_grad"):
        if getattr(fast, name) != getattr(general, name):
            wrong.append(f"{label}: tensor {name}")
    if (fast_node is None) != (general_node is None):
        wrong.append(f"{label}: a node on one side only")
    elif fast_node is not None:
        if type(fast.grad_fn) is not type(general.grad_fn):
            wrong.append(f"{label}: node {type(fast.grad_fn).__name__}")
        for run in ("quiet", "heard"):
            fast_slots, general_slots = fast_node[run], general_node[run]
            assert fast_slots.pop("_seq") < general_slots.pop("_seq")  # both numbered, in creation order
            for name, value in fast_slots.items():
                if not same_value(value, general_slots[name]):
                    wrong.append(f"{label} ({run}): node {name} {value!r} vs {general_slots[name]!r}")
    if fast_heard != general_heard:
        wrong.append(f"{label}: the listener heard {fast_heard} vs {general_heard}")
    if grad_checked:
        grads = []
        for out in (fast, general):
            leaf.grad = None
            out.backward(ag.ones_like(out), retain_graph=True)
            grads.append(leaf.grad._data)
        if not same_value(*grads):
            wrong.append(f"{label}: gradients {grads}")
    return wrong


def operand_tensors(requires, dtype, values):
    """The leaf, and the tensor an op is applied to (the leaf, or computed from it)."""
    leaf = ag.tensor(np.array(values, dtype), requires_grad=requires != "constant")
    return leaf, (leaf * 1.0 if requires == "computed" else leaf)


REQUIRES = ["leaf", "computed", "constant", "no_grad"]


def grad_mode(requires):
    return ag.no_grad() if requires == "no_grad" else ag.enable_grad()


@pytest.mark.parametrize("op", list(OPERATORS), ids=lambda op: op.__name__)
@pytest.mark.parametrize("requires", REQUIRES)
def test_the_operator_makes_what_op_apply_makes(op, requires):
    wrong = []
    for dtype, number, reflected in cases():
        leaf, tensor = operand_tensors(requires, dtype, [0.25, -1.5, 4.0])
        order = (number, tensor) if reflected else (tensor, number)
        with grad_mode(requires):
            general_op = REFLECTED.get(op, op) if reflected else op
            fast, general = made(OPERATORS[op], *order), made(general_op.apply, *order)
        label = f"{op.__name__} {dtype} {number!r} {'number first' if reflected else 'tensor first'}"
        wrong += differences(label, fast, general, leaf, requires in ("leaf", "computed"))
    assert not wrong, "\n".join(wrong[:20])


METHODS = {"exp": Exp, "log": Log, "sqrt": Sqrt, "sin": Sin, "cos": Cos, "tanh": Tanh, "sigmoid": Sigmoid}


@pytest.mark.parametrize("name", list(METHODS))
@pytest.mark.parametrize("requires", REQUIRES)
def test_the_float_method_makes_what_op_apply_makes(name, requires):
    wrong = []
    for dtype in ("float16", "float32", "float64"):
        leaf, tensor = operand_tensors(requires, dtype, [0.25, 1.5, 4.0, -0.5])  # log(-0.5): NaN in both
        with grad_mode(requires), np.errstate(invalid="ignore"):
            fast, general = made(getattr(ag.Tensor, name), tensor), made(METHODS[name].apply, tensor)
        wrong += differences(f"{name} {dtype}", fast, general, leaf, requires in ("leaf", "computed"))
    assert not wrong, "\n".join(wrong[:20])


@pytest.mark.parametrize("op", [Relu, Neg, Abs], ids=lambda op: op.__name__)
def test_an_op_whose_forward_does_more_than_its_ufunc_gets_no_written_out_method(op):
    with pytest.raises(TypeError, match="does more than its ufunc"):
        float_method("f", op)


def test_integer_and_bool_tensors_go_through_op_apply():
    n = ag.tensor([1, 2, 3])
    assert n.exp().dtype == ag.float32 and n.exp().tolist() == pytest.approx(np.exp([1, 2, 3]).tolist())
    assert ag.tensor([True, False]).sqrt().tolist() == [1.0, 0.0]


def test_saved_inputs_are_what_pytorch_keeps():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    assert (x * 2.0).grad_fn.saved == (None, 2.0)
    assert (2.0 * x).grad_fn.saved == (2.0, None)
    assert (x / 2.0).grad_fn.saved == (None, 2.0)
    assert (2.0 / x).grad_fn.saved[0] == 2.0 and (2.0 / x).grad_fn.saved[1] is x
    assert (x + 2.0).grad_fn.saved == () and (2.0 - x).grad_fn.saved == ()
    y = x * 3.0
    x_before = x.detach().clone()
    with ag.no_grad():
        x.mul_(10)  # * keeps only the number: changing x afterwards does not break backward
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0] and x_before.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("other", [True, np.float32(2.0), np.float64(2.0), 2 + 0j],
                         ids=["bool", "numpy float32", "numpy float64", "complex"])
def test_other_operands_go_through_op_apply(other, monkeypatch):
    calls = []
    real = Mul.apply.__func__
    monkeypatch.setattr(Mul, "apply", classmethod(lambda cls, a, b: calls.append((a, b)) or real(cls, a, b)))
    x = ag.tensor([1.0, 2.0])
    for result in (lambda: x * other, lambda: other * x):
        try:
            result()
        except (TypeError, RuntimeError):
            pass  # what op.apply says of it is test_promotion's concern
    assert len(calls) == 2


def test_an_integer_tensor_goes_through_op_apply():
    n = ag.tensor([1, 2, 3])
    assert (n / 2).dtype == ag.float32 and (n * 2).dtype == ag.int64 and (1 - n).tolist() == [0, -1, -2]


# each overflows or divides by zero in float16 (60000 * 2, 2 / 0, log 0, exp 60000)
FAILING = {"*": (lambda x: x * 2.0, "MulBackward0"), "/": (lambda x: 2.0 / (x - 60000.0), "DivBackward0"),
           "log": (lambda x: (x - 60000.0).log(), "LogBackward0"), "exp": (lambda x: x.exp(), "ExpBackward0")}


@pytest.mark.parametrize("run, op_name", list(FAILING.values()), ids=list(FAILING))
def test_an_error_in_the_ufunc_is_raised_as_op_apply_raises_it_and_traced(run, op_name):
    x = ag.tensor(np.array([60000.0], np.float16), requires_grad=True)
    with np.errstate(all="raise"), pytest.raises(FloatingPointError):
        with ag.trace() as trace:
            run(x)
    errors = [e for e in trace.to_dict()["events"] if e["type"] == "error"]
    assert errors and errors[0]["op"] == op_name
