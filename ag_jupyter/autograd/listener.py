"""The base of every observer of the engine's seam (Chainer's ``FunctionHook`` pattern).

The engine calls ``state.listener.on_*(...)`` (the protocol is listed in ``state.py``),
and a subclass handles an event by defining the method of that one name (``on_op``).
A ``Listener`` answers every event: one its class does not handle does nothing. Either
way the event is passed on to ``parent``, the listener this one replaced (an outer trace
hears what a nested one records), and a handler that raises goes to ``fault``. The
class does both around each handler a subclass defines (``__init_subclass__``), so a
handler is the work alone: it never calls ``super()`` or forwards anything by hand, and
a new engine event is one name in ``EVENTS``.

>>> class Counter(Listener):
...     ops = 0
...     def on_op(self, node, inputs, output):
...         self.ops += 1
>>> import ag_jupyter as ag
>>> from ag_jupyter.autograd import state
>>> counter = state.listener = Counter()
>>> y = ag.tensor(2.0, requires_grad=True) * 3
>>> state.listener = None
>>> counter.ops
1
"""
from __future__ import annotations

EVENTS = ("on_leaf", "on_op", "on_op_error", "on_backward_begin", "on_backward_step", "on_accumulate",
          "on_backward_end", "on_module_enter", "on_module_exit", "on_read", "on_update", "on_grads_cleared")


def _passed_on(event: str):
    """An event this listener does not handle: only its parent hears it."""
    def callback(self, *args) -> None:
        if self.parent is not None:
            getattr(self.parent, event)(*args)

    callback.__name__ = callback.__qualname__ = event
    return callback


def _handled(event: str, handler):
    """A subclass's handler, with the fault policy around it and the parent told after."""
    def callback(self, *args) -> None:
        try:
            handler(self, *args)
        except Exception as error:  # noqa: BLE001 - fault() decides
            self.fault(event, error)
        if self.parent is not None:
            getattr(self.parent, event)(*args)

    callback.__name__, callback.__qualname__, callback.__doc__ = event, handler.__qualname__, handler.__doc__
    callback.handler = handler
    return callback


class Listener:
    """Every event does nothing by default; a subclass defines the ``on_*`` it needs."""

    parent = None  # the listener this one replaced, which hears every event too

    def fault(self, event: str, error: Exception) -> None:
        """A handler raised. The default lets the error through; a tracer, which must
        never break the user's program, overrides this to note it instead."""
        raise error

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for event in EVENTS:
            handler = cls.__dict__.get(event)
            if handler is not None and not hasattr(handler, "handler"):
                setattr(cls, event, _handled(event, handler))


for _event in EVENTS:
    setattr(Listener, _event, _passed_on(_event))
