"""``with ag.trace() as tr:``: record what the engine does inside the block.

On entry the trace's recorder becomes the engine's listener; on exit (normal or
by an exception) the previous listener is put back, so nothing is recorded
outside the block and no trace outlives its block.

Nesting: an inner trace records what happens inside it *and* passes every event
on to the outer one, so the outer trace is complete. Traces must be exited in the
order they were entered, which ``with`` guarantees.

>>> import ag_jupyter as ag
>>> with ag.trace() as tr:
...     x = ag.tensor(3.0, requires_grad=True)
...     (x * x).backward()
>>> [e["type"] for e in tr.to_dict()["events"]]
['create', 'create', 'create', 'backward_begin', 'backward_step', 'accumulate', 'backward_end']
"""
from __future__ import annotations

from ..autograd import state
from . import document
from .recorder import Recorder
from .source_lines import traceback_line


class trace:  # noqa: N801 - a context manager named like the function users call
    """A recording of forward and backward passes; ``to_dict()`` is its trace document.

    ``exact_stats=True`` takes min, max, mean and std of large tensors over every
    entry while the code runs (slower); by default they come from at most 1,024
    evenly spaced entries (see ``summary.py``). NaN/inf counts and norms are exact.

    The recorder holds summaries and ids, never tensors, so keeping a trace (or
    showing it in a widget) keeps no memory of the tensors it saw.
    """

    def __init__(self, title: str | None = None, *, exact_stats: bool = False):
        self.recorder = Recorder(title, exact_stats)
        self._previous = None
        self.active = False

    def __enter__(self) -> "trace":
        if self.active:
            raise RuntimeError("this trace is already recording; make a new ag.trace() to nest one")
        self._previous = state.listener
        self.recorder.parent = self._previous
        state.listener = self.recorder
        self.active = True
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        state.listener = self._previous
        self.recorder.parent = None
        self._previous = None
        self.active = False
        if exc is not None:
            self.recorder.note_exception(exc, traceback_line(tb))
        return False  # the exception, if any, goes on

    def to_dict(self) -> dict:
        """The trace document (a new dict each call; JSON-ready)."""
        return document.build(self.recorder)

    def to_json(self, **kwargs) -> str:
        """The trace document as JSON text; keyword arguments go to ``json.dumps``."""
        import json  # only here: importing ag_jupyter stays light

        return json.dumps(self.to_dict(), **kwargs)

    # ----- naming nodes after the fact (the magics name tensors after the cell's variables)
    def node_id(self, tensor) -> str | None:
        """The id of ``tensor``'s node in this trace, or None if the trace never met it.

        Unlike recording, this adds nothing: a tensor the trace has not seen stays unseen.
        """
        rec = self.recorder
        fn = tensor.grad_fn
        if fn is None:
            entry = rec.leaves.get(id(tensor))
            return entry[1] if entry is not None and entry[0]() is tensor else None
        entry = rec.ops.get(fn._seq)
        return entry[1] if entry is not None else None

    def ran_backward_from(self, tensor) -> bool:
        """Whether a backward pass recorded in this trace started from ``tensor``."""
        node_id = self.node_id(tensor)
        rec = self.recorder
        rec.drain()
        return node_id is not None and any(e["type"] == "backward_begin" and node_id in e["roots"]
                                           for e in rec.events)

    def set_label(self, node_id: str, label: str) -> None:
        """Name a node (its ``label`` in this and every later ``to_dict()``)."""
        self.recorder.name_node(node_id, label)

    def label_of(self, node_id: str) -> str | None:
        return self.recorder.label_of(node_id)

    @property
    def node_count(self) -> int:
        """How many nodes are recorded so far (nodes are numbered in this order)."""
        return self.recorder.node_count()

    def rename_scope(self, old: str, new: str, first: int = 0, stop: int | None = None) -> int:
        """Replace the leading scope segment ``old`` by ``new`` for the nodes recorded
        in ``[first, stop)`` (``model`` for ``TwoLayer`` in ``TwoLayer.fc_1``).
        Returns how many nodes changed."""
        return self.recorder.rename_scope(old, new, first, stop)

    def root_modules(self) -> list:
        """The ``nn.Module``\\s called outermost in the block (alive still), in call order."""
        return self.recorder.root_modules()

    def name_module(self, module, name: str) -> list:
        """Name the scope of each outermost call of ``module`` after the user's variable
        (``model.fc_1`` for ``TwoLayer.fc_1``); return the scope paths renamed."""
        return self.recorder.name_module(module, name)

    def __repr__(self) -> str:
        rec = self.recorder
        rec.drain()
        state_word = "recording" if self.active else "closed"
        return f"<ag.trace {state_word}: {len(rec.nodes)} nodes, {len(rec.events)} events>"
