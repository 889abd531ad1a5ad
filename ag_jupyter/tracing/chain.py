"""The chain rule's bookkeeping for the step panel: local derivatives and running totals.

The front end formats numbers, it never computes them, so what the step panel says
about a backward step is written into the document here:

- ``local``: for a scalar op, the local derivative of its output with respect to one
  input, the gradient it sent divided by the gradient it received (``∂u/∂a`` in
  ``∂L/∂a = ∂L/∂u · ∂u/∂a``). Absent where the received gradient is 0 (nothing to
  divide by: the product is 0 whatever the local derivative).
- ``total``: when a tensor receives gradient along more than one path (an input
  used twice, a leaf whose ``.grad`` held a value before this backward), what it
  holds after this contribution. Sums run in the engine's order
  (``buffer + grad``, then ``.grad + buffer`` for a leaf), so the last total is the
  engine's ``.grad`` to the bit.
"""
from __future__ import annotations


def local_derivative(grad_output, grad_input):
    """``d(out)/d(in)`` for scalars, as a float, or None."""
    if grad_output is None or grad_input is None or grad_output.size != 1 or grad_input.size != 1:
        return None
    received = float(grad_output.reshape(()))
    if received == 0 or received != received:
        return None
    local = float(grad_input.reshape(())) / received
    return local if local == local and abs(local) != float("inf") else None


class RunningTotals:
    """What each tensor of one backward pass has received so far, for the tensors that
    receive more than one contribution (the others cost nothing)."""

    __slots__ = ("_held", "_prior", "_uses", "summed")

    def __init__(self):
        self._held: dict = {}  # tensor id -> sum of the contributions so far (the engine's buffer)
        self._prior: dict = {}  # tensor id -> a leaf's .grad array from before this backward
        self._uses: dict = {}  # tensor id -> how many recorded ops consume it, counted across passes
        # The ids ``add`` may sum: those consumed by two ops or more, and this pass's priors. Kept
        # up to date as uses are counted, so a caller skips ``add`` for any other id (its one
        # contribution is all it gets: no total) at the cost of one look-up. A superset is harmless:
        # ``add`` decides.
        self.summed: set = set()

    def count(self, consumed) -> None:
        """Count the uses of the ops recorded since the last count: ``consumed`` holds each new
        op's input ids (None for a number). Only new ops are counted, so a traced loop stays
        linear: each pass costs what it recorded, not what the trace holds."""
        uses, summed = self._uses, self.summed
        for input_ids in consumed:
            for src in input_ids:
                if src is not None:
                    count = uses.get(src, 0) + 1
                    uses[src] = count
                    if count == 2:
                        summed.add(src)

    def begin(self, priors: dict) -> None:
        """A backward pass starts (its ops counted): ``priors`` maps leaf ids to the
        ``.grad`` arrays they hold now (the engine replaces, never mutates, them during
        backward, so a reference is enough)."""
        self._held.clear()
        self._prior = priors
        self.summed.update(priors)

    def add(self, tensor_id: str, grad):
        """Record one contribution; return the total it makes, or None when this
        contribution is all the tensor has (the total would repeat it)."""
        held = self._held.get(tensor_id)
        prior = self._prior.get(tensor_id)
        if held is None and prior is None and self._uses.get(tensor_id, 0) < 2:
            return None
        total = grad if held is None else held + grad
        self._held[tensor_id] = total
        if prior is not None:
            return prior + total
        return None if held is None else total

    def end(self) -> None:
        self._held.clear()
        uses, summed = self._uses, self.summed
        for tensor_id in self._prior:  # summed for this pass only
            if uses.get(tensor_id, 0) < 2:
                summed.discard(tensor_id)
        self._prior = {}
