"""The base of every observer of the engine's seam (Chainer's ``FunctionHook`` pattern).

The engine calls ``state.listener.on_*(...)`` (the protocol is listed in
``state.py``). A ``Listener`` answers every one of those callbacks: it runs the
subclass's handler for it, if the subclass has one (``op_ran`` for ``on_op``...),
and then passes the callback on to ``parent``, the listener it replaced (an outer
trace hears what a nested one records). So a new engine callback is one method
here: no listener can crash for lacking it, and none forwards anything by hand.

>>> class Counter(Listener):
...     ops = 0
...     def op_ran(self, node, inputs, output):
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


class Listener:
    """Every callback does nothing by default; a subclass defines the handlers it needs."""

    parent = None  # the listener this one replaced, which hears every callback too

    def fault(self, callback: str, error: Exception) -> None:
        """A handler raised. The default lets the error through; a tracer, which must
        never break the user's program, overrides this to note it instead."""
        raise error

    def _heard(self, callback: str, handler, *args) -> None:
        if handler is not None:
            try:
                handler(*args)
            except Exception as error:  # noqa: BLE001 - fault() decides
                self.fault(callback, error)
        if self.parent is not None:
            getattr(self.parent, callback)(*args)

    # The handlers a subclass may define (None: not interested).
    leaf_made = op_ran = op_failed = None
    backward_began = backward_stepped = grad_accumulated = backward_ended = None
    module_entered = module_exited = None

    # ----- the seam's protocol (state.py) ------------------------------------------------
    def on_leaf(self, tensor) -> None:
        self._heard("on_leaf", self.leaf_made, tensor)

    # on_op and on_backward_step come once per op and per node: _heard written out, a call
    # less on the hot path of a traced program.
    def on_op(self, node, inputs, output) -> None:
        if self.op_ran is not None:
            try:
                self.op_ran(node, inputs, output)
            except Exception as error:  # noqa: BLE001 - fault() decides
                self.fault("on_op", error)
        if self.parent is not None:
            self.parent.on_op(node, inputs, output)

    def on_op_error(self, op_name, inputs, error) -> None:
        self._heard("on_op_error", self.op_failed, op_name, inputs, error)

    def on_backward_begin(self, roots) -> None:
        self._heard("on_backward_begin", self.backward_began, roots)

    def on_backward_step(self, step) -> None:
        if self.backward_stepped is not None:
            try:
                self.backward_stepped(step)
            except Exception as error:  # noqa: BLE001 - fault() decides
                self.fault("on_backward_step", error)
        if self.parent is not None:
            self.parent.on_backward_step(step)

    def on_accumulate(self, tensor, grad) -> None:
        self._heard("on_accumulate", self.grad_accumulated, tensor, grad)

    def on_backward_end(self, completed) -> None:
        self._heard("on_backward_end", self.backward_ended, completed)

    def on_module_enter(self, path, module) -> None:
        self._heard("on_module_enter", self.module_entered, path, module)

    def on_module_exit(self, path, module) -> None:
        self._heard("on_module_exit", self.module_exited, path, module)
