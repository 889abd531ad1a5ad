"""The seam's Listener base: every callback answered by default, passed on to the parent."""
import sys

import ag_jupyter as ag
from ag_jupyter.autograd import state
from ag_jupyter.autograd.listener import Listener

CALLBACKS = ("on_leaf", "on_op", "on_op_error", "on_backward_begin", "on_backward_step", "on_accumulate",
             "on_backward_end", "on_module_enter", "on_module_exit")


class Heard(Listener):
    def __init__(self):
        self.heard = []

    def __getattribute__(self, name):
        if name in CALLBACKS:
            object.__getattribute__(self, "heard").append(name)
        return object.__getattribute__(self, name)


def run_everything():
    model = ag.nn.Linear(2, 1)
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    model(x).sum().backward()
    try:
        x @ ag.ones(3)
    except RuntimeError:
        pass


def test_a_listener_with_no_handlers_hears_everything_and_breaks_nothing():
    state.listener = bare = Listener()
    try:
        run_everything()
    finally:
        state.listener = None
    assert bare.parent is None


def test_every_callback_reaches_the_parent():
    inner, outer = Listener(), Heard()
    inner.parent = outer
    state.listener = inner
    try:
        run_everything()
    finally:
        state.listener = None
    assert set(outer.heard) == set(CALLBACKS), set(CALLBACKS) - set(outer.heard)


def test_a_trace_inside_a_trace_passes_everything_on():
    with ag.trace() as outer:
        with ag.trace() as inner:
            run_everything()
    ops = lambda tr: [n["op"] for n in tr.to_dict()["nodes"] if n["kind"] == "op"]  # noqa: E731
    assert ops(inner) == ops(outer) and "AddmmBackward0" in ops(inner)


class Callers(Listener):
    """Which engine function told the listener of each op (one frame above the Listener)."""

    def __init__(self):
        self.callers = []

    def on_op(self, node, inputs, output):
        self.callers.append((node.name(), sys._getframe(2).f_code.co_name))


class Cube(ag.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x ** 2


def test_every_op_reaches_the_listener_through_one_path():
    a = ag.tensor([1.0, 2.0], requires_grad=True)
    b = ag.tensor([3.0, 4.0], requires_grad=True)
    heard = state.listener = Callers()
    try:
        c = a * 2            # written out in the operator without a listener
        d = a * b            # op.apply
        e = d.exp()          # written out in the method without a listener
        f = c[0]             # a view
        g = Cube.apply(e)    # a custom Function
        h = d.clone()
        h[0] = f             # an in-place write on a computed tensor
        h[0:1].mul_(2)       # ... through a view: CopySlices
        (g.sum() + h.sum()).backward()
    finally:
        state.listener = None
    kinds = [kind for kind, _ in heard.callers]
    assert {"MulBackward0", "ExpBackward0", "SelectBackward0", "CubeBackward", "CopySlices"} <= set(kinds), kinds
    assert {caller for _, caller in heard.callers} == {"record"}, heard.callers


def test_a_handler_is_its_event_name_and_a_raising_one_goes_to_fault():
    class Failing(Listener):
        def on_op(self, node, inputs, output):
            raise ValueError("tracer bug")

        def fault(self, event, error):
            self.faulted = (event, str(error))

    inner, outer = Failing(), Callers()
    inner.parent = outer
    state.listener = inner
    try:
        ag.tensor(1.0, requires_grad=True) * 2
    finally:
        state.listener = None
    assert inner.faulted == ("on_op", "tracer bug") and len(outer.callers) == 1
    assert not any(name.endswith(("_ran", "_made", "_began", "_ended")) for name in dir(Listener))
