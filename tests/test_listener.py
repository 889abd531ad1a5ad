"""The seam's Listener base: every callback answered by default, passed on to the parent."""
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
