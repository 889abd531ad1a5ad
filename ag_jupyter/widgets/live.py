"""Live mode's kernel side: the real backward pass of one tensor, a node at a time.

``LiveBackward(tr, loss)`` makes ``ag.autograd.backward_stepper(loss)`` report to
the trace ``tr`` (the stepper keeps the listener it was made under, even after
``tr``'s block has ended). Each ``advance()`` runs one graph node of the real
backward, so the trace document grows by that node's events (``backward_begin``
before the first, its ``backward_step``, the ``accumulate`` events it completed,
``backward_end`` after the last) and every leaf's ``.grad`` is the truth so far.

The widget sends the front end each step's change to the document
(``document_change``), not the whole document again: a step adds a few events to a
document of every node's summary, so re-sending it all made a pass O(N²) bytes.
"""
from __future__ import annotations

from ..autograd import backward_stepper


class LiveBackward:
    """The backward pass of ``loss``, recorded into ``tr`` one ``advance()`` at a time."""

    def __init__(self, tr, loss):
        if tr.active:  # made inside the trace's own block (the magic does this)
            self.stepper = backward_stepper(loss)
        else:
            with tr:  # entered only so the stepper adopts tr as its listener
                self.stepper = backward_stepper(loss)
        self.trace = tr

    @property
    def done(self) -> bool:
        return self.stepper.done

    def advance(self) -> None:
        """Run the next node's backward (``step()``; a no-op once done)."""
        self.stepper.step()

    def document(self) -> dict:
        """The trace document as it is now (a new dict each call, so a widget re-syncs it)."""
        return self.trace.to_dict()

    def close(self) -> None:
        """Abandon the rest of the pass (the trace gets ``backward_end`` completed=false)."""
        self.stepper.close()


def document_change(old: dict, new: dict) -> dict:
    """What turns the document ``old`` into ``new``, as the front end applies it
    (``js/src/model/trace-change.js``): for each list (``nodes``, ``edges``, ``events``...)
    the entries that changed, by index, and those appended, with the length it had; any
    other key whole where it changed. Empty where nothing changed."""
    lists, values = {}, {}
    for key, value in new.items():
        before = old.get(key)
        if isinstance(value, list) and isinstance(before, list) and len(value) >= len(before):
            changed = {str(i): item for i, (item, was) in enumerate(zip(value, before)) if item != was}
            if changed or len(value) > len(before):
                lists[key] = {"length": len(before), "set": changed, "append": value[len(before):]}
        elif before != value or key not in old:
            values[key] = value
    change = {}
    if lists:
        change["lists"] = lists
    if values:
        change["values"] = values
    removed = [key for key in old if key not in new]
    if removed:
        change["removed"] = removed
    return change
