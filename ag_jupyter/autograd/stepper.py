"""A backward pass you advance one graph node at a time.

``backward_stepper(loss)`` wraps the engine's own backward generator
(``engine.steps``), so each ``step()`` is one real node of ``loss.backward()``:
between steps, ``x.grad`` is the truth so far, and running to the end is the same
as calling ``loss.backward()``. A listener (a trace) that was active when the
stepper was made, or else when it took its first step, hears every step, even
if the steps are taken after that trace's block has ended.

>>> import ag_jupyter as ag
>>> x = ag.tensor(2.0, requires_grad=True)
>>> stepper = ag.autograd.backward_stepper((x * 3).exp())
>>> stepper.step().node.name(), x.grad is None
('ExpBackward0', True)
>>> stepper.step().node.name(), stepper.done, round(x.grad.item(), 1)
('MulBackward0', True, 1210.3)
"""
from __future__ import annotations

from . import state
from .engine import BackwardStep, steps
from .node import Node


def _count_nodes(root) -> int:
    """How many steps the backward from ``root`` takes: one per node behind it."""
    start = root.grad_fn
    if start is None:
        return 0
    seen, stack = {id(start)}, [start]
    while stack:
        for follow in stack.pop()._next:
            if isinstance(follow, Node) and id(follow) not in seen:
                seen.add(id(follow))
                stack.append(follow)
    return len(seen)


class BackwardStepper:
    """The backward pass of one tensor, taken a node at a time (see the module doc)."""

    def __init__(self, loss, gradient=None, retain_graph=None, create_graph: bool = False):
        if not loss.requires_grad:
            raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
        self.total = _count_nodes(loss)
        self.taken = 0
        self.current: BackwardStep | None = None
        self.done = False
        self._listener = state.listener
        self._steps = steps((loss,), (gradient,), retain_graph, create_graph)

    def _advance(self):
        """One ``next()`` of the engine's generator, heard by the stepper's listener."""
        if self._listener is None:
            self._listener = state.listener  # made outside a trace: take the one active now
        previous = state.listener
        if self._listener is not None:
            state.listener = self._listener
        try:
            return next(self._steps)
        except BaseException:
            self.done = True  # StopIteration, or the backward raised: nothing more to run
            raise
        finally:
            state.listener = previous

    def step(self) -> BackwardStep | None:
        """Run the next node's backward; return its step (None once the pass is over)."""
        if self.done:
            return None
        if self.taken == self.total:  # a leaf root: no node, only its own .grad to set
            self._finish()
            return None
        self.current = self._advance()
        self.taken += 1
        if self.taken == self.total:
            self._finish()  # ends the pass now: listeners hear backward_end with the last step
        return self.current

    def _finish(self) -> None:
        try:
            self._advance()
        except StopIteration:
            return
        raise RuntimeError("the backward pass took more steps than its graph has nodes")

    def run(self) -> BackwardStep | None:
        """Take every remaining step; return the last one."""
        while not self.done:
            self.step()
        return self.current

    def close(self) -> None:
        """Abandon the pass: the gradients stay as they are now."""
        if not self.done:
            self.done = True
            self._steps.close()

    def __iter__(self):
        while not self.done:
            step = self.step()
            if step is not None:
                yield step

    @property
    def remaining(self) -> int:
        return 0 if self.done else self.total - self.taken

    def __repr__(self) -> str:
        return f"<BackwardStepper {self.taken}/{self.total} steps{' done' if self.done else ''}>"


def backward_stepper(loss, gradient=None, retain_graph=None, create_graph: bool = False) -> BackwardStepper:
    """``loss.backward(...)``, one node per ``step()``. See ``BackwardStepper``."""
    return BackwardStepper(loss, gradient, retain_graph, create_graph)
