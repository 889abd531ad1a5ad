"""The least a tracer that shows every value can cost: the floor ``ag.trace()`` is measured
against (the tracing rows of ``bench_engine.py``), as ``floor.py`` is the engine's.

Per op it keeps what no trace can do without: the user's line, the node's creation number
and its inputs', and the output's value, taken now (a later in-place change must not
reach it): a copy of an array of at most 1,024 entries, one pass over a larger one (the
pass that gives an exact norm and finds NaN and inf). The value of each leaf an op reads
(the input batch, a weight), once per trace, the same way: a trace shows those too. Per
backward step, the same for each gradient sent to an input that takes one. No ids (a leaf
is known by ``id()`` alone), no records, no summaries, no running totals, no document.
"""
from __future__ import annotations

import numpy as np

from ag_jupyter.autograd import state
from ag_jupyter.autograd.listener import Listener
from ag_jupyter.core import TENSOR_TYPES
from ag_jupyter.tracing.copies import CopyBlocks
from ag_jupyter.tracing.source_lines import user_line

SAMPLE = 1024
_blocks = CopyBlocks(SAMPLE)


def _value(array):
    if array.size <= SAMPLE:
        return _blocks.copy(array) if array.__class__ is np.ndarray else array.copy()
    flat = array.reshape(-1)
    return float(np.dot(flat, flat))


class FloorTracer(Listener):
    def __init__(self):
        self.log = []
        self.leaves = set()  # id() of each leaf whose value is in the log

    def on_op(self, node, inputs, output):
        numbers = []  # each input's node number: None for a leaf or a number
        for x in inputs:
            if x.__class__ in TENSOR_TYPES:
                if x.grad_fn is not None:
                    numbers.append(x.grad_fn._seq)
                    continue
                if id(x) not in self.leaves:
                    self.leaves.add(id(x))
                    self.log.append((id(x), _value(x._data)))
            numbers.append(None)
        self.log.append((user_line(3), node._seq, numbers, _value(output._data)))

    def on_backward_step(self, step):
        self.log.append((step.node._seq, [None if g is None or to is None else _value(g)
                                          for to, g in zip(step.node._next, step.grad_inputs)]))


def floor_traced(run):
    """``run`` with a ``FloorTracer`` listening, as ``ag.trace()`` would."""
    def run_floor_traced():
        previous, state.listener = state.listener, FloorTracer()
        try:
            run()
        finally:
            state.listener = previous
    return run_floor_traced
