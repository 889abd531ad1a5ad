"""Evaluate a recorded graph again with other leaf values: the engine's own ops, re-run.

A ``Tape`` is a listener that sits beside the recorder while a cell runs. For each op
the engine records it keeps what re-running that op takes: the function that ran it,
the op class and its arguments (tensors by where they came from: an earlier op on the
tape, or a leaf whose value it copies when first used, so a later ``opt.step()`` does
not change what the replay starts from). ``evaluate`` runs the ops that lead to one
output again, under ``no_grad`` and with no listener, with some leaves replaced.

A replay holds the branch taken and the random numbers drawn: where the cell's code
read a tensor into Python before the output was made (``if y > 0:``, ``y.item()``),
drew a dropout mask, or ran a step the tape cannot re-run (an in-place write, a custom
``Function``), ``evaluate`` refuses with ``ReplayRefused`` naming the reason and the line,
since a re-run of the cell could have computed something else.

The recorder keeps no tensors (``recorder.py``); a tape keeps the leaves' values and
the ops' arguments for as long as its widget lives: a check needs them.
"""
from __future__ import annotations

import sys
import weakref

import numpy

from .. import backend
from ..autograd import state
from ..autograd.function import BinaryOp, Op, UnaryOp, record
from ..autograd.grad_mode import no_grad
from ..autograd.listener import Listener
from ..core import TENSOR_TYPES, _wrap
from ..nn import functional
from .source_lines import as_json, user_line

_OP_APPLY = Op.apply.__func__.__code__
_ELEMENTWISE_APPLY = (UnaryOp.apply.__func__.__code__, BinaryOp.apply.__func__.__code__)
_RECORD = record.__code__
_DROPOUT = functional._masked.__code__
# The written-out operators (``a * 2``, ``y.exp()``) hand ``record`` their whole argument list.
_WRITTEN_OUT = ("number_operators.py", "float_methods.py")
_RANDOM_FILES = ("random.py", "tensor_random.py", "generator.py")
# Whether a file's functions hand ``record`` all their arguments, by file name: a code object
# hashes its contents at each look-up, a string keeps its hash.
_writes_out: dict = {}


def _all_arguments(code) -> bool:
    """Whether ``record``'s caller ``code`` passed it the op's whole argument list."""
    if code is _ELEMENTWISE_APPLY[0] or code is _ELEMENTWISE_APPLY[1]:
        return True
    name = code.co_filename
    found = _writes_out.get(name)
    if found is None:
        found = _writes_out[name] = name.endswith(_WRITTEN_OUT) and "ag_jupyter" in name
    return found


class ReplayRefused(Exception):
    """The recorded graph cannot stand for a re-run of the cell; the message says why."""


def _caller_of_record():
    """The frame that called ``function.record`` (the op's ``apply``), a few frames up."""
    frame = sys._getframe(2)
    for _ in range(12):
        if frame is None:
            return None
        if frame.f_code is _RECORD:
            return frame.f_back
        frame = frame.f_back
    return None


def _inside_dropout(caller) -> bool:
    """Whether the op was applied by dropout (its mask's ``Mul``: the caller's caller, or one
    further up for the in-place form)."""
    frame = caller.f_back if caller is not None else None
    for _ in range(3):
        if frame is None:
            return False
        if frame.f_code is _DROPOUT:
            return True
        frame = frame.f_back
    return False


def _drawn_at_random() -> bool:
    frame = sys._getframe(2)
    for _ in range(10):
        if frame is None:
            return False
        name = frame.f_code.co_filename
        if name.endswith(_RANDOM_FILES) and "ag_jupyter" in name:
            return True
        frame = frame.f_back
    return False


def _line_text(line) -> str:
    where = as_json(line)
    if where is None:
        return ""
    return f" (line {where['lineno']}: {where['code']})" if "code" in where else f" (line {where['lineno']})"


class Tape(Listener):
    """What re-running the recorded ops takes; see the module doc."""

    def __init__(self):
        self.steps: list = []  # (run, op class, argument template, refusal or None) per recorded op
        self.by_seq: dict = {}  # graph node's _seq -> index in steps
        self.leaves: list = []  # (weakref of the tensor, its array when first used)
        self.leaf_index: dict = {}  # id(tensor) -> index in leaves
        self.reads: list = []  # (index of the next step, refusal) for each value read into Python
        self.random: dict = {}  # id(tensor) -> line, for tensors drawn at random in the block
        self.broken: str | None = None  # the tape's own failure: it never breaks the user's cell

    def fault(self, event: str, error: Exception) -> None:
        if self.broken is None:
            self.broken = f"the replay's record failed at {event}: {type(error).__name__}: {error}"

    # ----- recording --------------------------------------------------------------------
    def on_leaf(self, t) -> None:
        if not t._requires_grad and _drawn_at_random():
            self.random[id(t)] = user_line(2)

    def on_op(self, node, inputs, output) -> None:
        caller = _caller_of_record()
        code = caller.f_code if caller is not None else None
        refusal = None
        if code is _OP_APPLY:
            run, args = Op.apply.__func__, caller.f_locals["args"]
        elif code is not None and _all_arguments(code):
            run, args = None, tuple(inputs)
        else:
            run, args = None, tuple(inputs)
            refusal = f"{node.name()} cannot be re-run by a replay (an in-place write or a custom Function)"
        for x in inputs:
            if x is output and refusal is None:
                refusal = f"{node.name()} wrote into its input in place"
        if refusal is None and _inside_dropout(caller):
            refusal = f"dropout drew a random mask{_line_text(user_line(2))}: a re-run draws another"
        template = tuple([self._source(x) for x in args])
        if refusal is None and self.random:
            for x in args:
                drawn = self.random.get(id(x)) if x.__class__ in TENSOR_TYPES else None
                if drawn is not None:
                    refusal = f"a tensor drawn at random{_line_text(drawn)} feeds it: a re-run draws another"
                    break
        self.by_seq[node._seq] = len(self.steps)
        self.steps.append((run, node.__class__, template, refusal))

    def on_read(self, t) -> None:
        depends = t._requires_grad or t._data.dtype == numpy.bool_
        if depends:
            line = user_line(2)
            self.reads.append((len(self.steps), f"the cell read a tensor's value into Python{_line_text(line)} "
                                                 f"before the output was made, so it may have branched on it"))

    def _source(self, x):
        """An argument as the replay finds it again: ("op", step), ("leaf", i), or the value itself."""
        if x.__class__ is float:
            return ("value", x)
        if x.__class__ not in TENSOR_TYPES:
            if isinstance(x, (list, tuple)):
                return ("seq", type(x), tuple(self._source(y) for y in x))
            return ("value", x)
        fn = x.grad_fn
        if fn is not None:
            step = self.by_seq.get(fn._seq)
            if step is not None:
                return ("op", step)
        index = self.leaf_index.get(id(x))
        if index is not None and self.leaves[index][0]() is x:
            return ("leaf", index)
        index = len(self.leaves)
        data = x._data  # a NumPy scalar (what a whole reduction gives) becomes a 0-d array
        self.leaves.append((weakref.ref(x), numpy.array(data) if isinstance(data, numpy.generic) else data.copy()))
        self.leaf_index[id(x)] = index
        return ("leaf", index)

    # ----- replaying --------------------------------------------------------------------
    def step_of(self, t) -> int | None:
        """The tape's step that made ``t``, or None."""
        return self.by_seq.get(t.grad_fn._seq) if t.grad_fn is not None else None

    def leaf_of(self, t) -> int | None:
        index = self.leaf_index.get(id(t))
        return index if index is not None and self.leaves[index][0]() is t else None

    def recorded_value(self, leaf: int):
        """A leaf's array as the recorded graph used it."""
        return self.leaves[leaf][1]

    def ancestors(self, root: int) -> list:
        """The steps ``root`` depends on, itself included, in recorded order."""
        needed, todo = set(), [root]
        while todo:
            step = todo.pop()
            if step in needed:
                continue
            needed.add(step)
            todo.extend(_steps_in(self.steps[step][2]))
        return sorted(needed)

    def check(self, root: int) -> None:
        """Raise ``ReplayRefused`` if a replay of ``root`` cannot stand for a re-run."""
        if self.broken is not None:
            raise ReplayRefused(self.broken)
        for step in self.ancestors(root):
            refusal = self.steps[step][3]
            if refusal is not None:
                raise ReplayRefused(refusal)
        for before, refusal in self.reads:
            if before <= root:
                raise ReplayRefused(refusal)

    def evaluate(self, root: int, changes: dict | None = None):
        """``root``'s array with the leaves in ``changes`` (leaf index -> array) replaced."""
        self.check(root)
        changes = changes or {}
        values: dict = {}
        listener, state.listener = state.listener, None  # a replay is not part of any trace
        try:
            with no_grad():
                for step in self.ancestors(root):
                    run, cls, template, _ = self.steps[step]
                    args = tuple(_rebuilt(item, values, self.leaves, changes) for item in template)
                    values[step] = run(cls, *args) if run is not None else cls.apply(*args)
        finally:
            state.listener = listener
        return values[root]._data


def _steps_in(template) -> list:
    found = []
    for item in template:
        if item[0] == "op":
            found.append(item[1])
        elif item[0] == "seq":
            found.extend(_steps_in(item[2]))
    return found


def _rebuilt(item, values: dict, leaves: list, changes: dict):
    kind = item[0]
    if kind == "op":
        return values[item[1]]
    if kind == "leaf":
        array = changes.get(item[1])
        return _wrap(array if array is not None else leaves[item[1]][1], False, None)
    if kind == "seq":
        return item[1](_rebuilt(x, values, leaves, changes) for x in item[2])
    return item[1]


def to_host(array) -> numpy.ndarray:
    """An array on the CPU, for arithmetic on its numbers."""
    return numpy.asarray(backend.move(array, backend.CPU))
