"""Graph nodes: what a tensor's ``grad_fn`` is.

A node is created by an op when it records, and holds what its backward needs.
It refers to the nodes of its inputs through ``_next`` (a node, a leaf tensor that
requires grad, or ``None``), never to its own output, so a graph is freed by
reference counting alone.
"""
from __future__ import annotations

import itertools
import weakref

# id(leaf) -> weak reference to its AccumulateGrad. Keyed by id because tensors
# compare elementwise; the entry goes away with the AccumulateGrad.
_accumulators: dict = {}


class Node:
    """Base of every graph node. Subclasses declare ``__slots__`` for what they save."""

    __slots__ = ("_next", "saved", "_versions", "_seq", "__weakref__")
    node_name = "Node"
    saves_output = False  # an op that saves its output keeps it in ``out`` (never the tensor)

    def name(self) -> str:
        return self.node_name

    def __repr__(self) -> str:
        return f"<{self.name()} object at {hex(id(self))}>"

    @property
    def next_functions(self) -> tuple:
        """``((node, 0), ...)`` per input, as PyTorch shows it; leaves appear as AccumulateGrad."""
        return tuple((accumulator_for(n) if n is not None and not isinstance(n, Node) else n, 0)
                     for n in self._next)

    def backward(self, F, grad):  # pragma: no cover - every op defines it
        raise NotImplementedError(f"{self.name()} has no backward")


class AccumulateGrad:
    """What PyTorch shows behind a leaf in ``next_functions``; ``variable`` is the leaf."""

    __slots__ = ("variable", "__weakref__")

    def __init__(self, variable):
        self.variable = variable

    def name(self) -> str:
        return "AccumulateGrad"

    next_functions = ()

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {hex(id(self))}>"


def accumulator_for(leaf) -> AccumulateGrad:
    """The leaf's one AccumulateGrad, kept while anyone holds it (as PyTorch does)."""
    key = id(leaf)
    ref = _accumulators.get(key)
    found = ref() if ref is not None else None
    if found is None or found.variable is not leaf:
        found = AccumulateGrad(leaf)
        _accumulators[key] = weakref.ref(found, lambda _, key=key: _accumulators.pop(key, None))
    return found


# The creation order of nodes (backward runs the most recent ready node first). A bound
# method of the C counter: taking a number costs no Python frame on the per-op path.
next_sequence_number = itertools.count().__next__
