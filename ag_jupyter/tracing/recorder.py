"""The listener that ``ag.trace()`` puts in the engine's seam.

Each engine callback (see ``autograd/state.py``) becomes node records, edges and
events. Leaf tensors are known by ``id()`` plus a weak reference that proves the id
still means the same object, graph nodes by their creation number (``_seq``), so the
recorder never keeps a tensor, an array or a graph node alive: what it keeps are
summaries, ids and strings.

A recorder may have a ``parent``: the listener that was active when its trace
began. Every callback is passed on to it, so an outer trace also records what
happens inside a nested one.
"""
from __future__ import annotations

import weakref

import numpy

from ..autograd import hooks
from ..autograd.listener import Listener
from ..tensor import TENSOR_TYPES
from .chain import RunningTotals, local_derivative
from .journal import Journal
from .op_info import by_torch_name, class_description, describe
from .records import OP_IDS, TENSOR_IDS, Records
from .source_lines import user_line
from .summary import device_name, dtype_name, nonfinite
from .summary import record as summary_of
from .summary_cache import SummaryCache
from .updates import UpdateRecording
from .walk import adopt

_ref = weakref.ref
_OUTPUT = (None, None)  # a saved tensor that is the op's own output (see Recorder._saved)
_OUTPUT_ONLY = (_OUTPUT,)
_HOST = (numpy.ndarray, numpy.generic)


def _array(x):
    """The array of a gradient: a tensor under ``create_graph``, an array otherwise."""
    return x._data if x.__class__ in TENSOR_TYPES else x


def constant(x):
    """A non-tensor op argument as JSON: a number, or its repr."""
    if x.__class__ is float:  # the usual case, first
        return x if x - x == 0.0 else repr(x)  # inf - inf and nan - nan are nan
    if isinstance(x, numpy.generic) and x.size == 1:
        x = x.item()
    if isinstance(x, (bool, int, float)):
        return x if x == x and x not in (float("inf"), float("-inf")) else repr(x)
    return repr(x)[:80]


def setting(value) -> str:
    """A named constant as PyTorch's repr writes it: ``(5, 5)``, ``2``, ``True``."""
    return str(value)


# op class -> (its description when every node of it has the same, else None; its ``constants``
# method, or None: most ops have none). One look-up per op for both.
_CLASSES: dict = {}


class Recorder(Journal, Records, UpdateRecording, Listener):
    """Records what the engine does while it is the listener (or a child's parent)."""

    def __init__(self, title: str | None = None, exact_stats: bool = False):
        super().__init__(title, "ag_jupyter")
        self.exact = exact_stats
        self.parent = None  # Listener: the listener active when this trace began hears everything too
        self.leaves: dict = {}  # id(leaf tensor) -> (weakref, tensor id)
        # graph node's _seq -> (op id or None, output tensor id). _seq is the engine's creation
        # number, never reused (unlike id()), so no weak reference is needed to tell nodes apart.
        self.ops: dict = {}
        self.inputs: dict = {}  # op id -> tensor id (or None) per input position
        self.params: dict = {}  # tensor id -> weakref of a leaf that requires grad
        self.reported: list = []  # (id, type, message) of errors already marked at their op
        self._scope: list = []
        self.root_calls: list = []  # [scope path, weakref of the module, first node, stop node] per outermost call
        self._pending: list = []  # accumulate events waiting for the step that caused them
        self._cache = SummaryCache(exact_stats)
        self._totals = RunningTotals()
        self._init_journal()
        # Events whose nonfinite_origin mark waits for their summaries (see settle)
        self._unsettled: list = []  # (create event, output summary, input ids) or (step event,)

    # ----- ids --------------------------------------------------------------------
    def tensor_id(self, t) -> str:
        """The id of a tensor's node; a tensor met for the first time gets one now."""
        fn = t.grad_fn
        if fn is None:
            entry = self.leaves.get(id(t))
            if entry is not None and entry[0]() is t:
                if t._requires_grad and entry[1] not in self.params:
                    self._make_param(t, entry[1])
                return entry[1]
            return self._new_leaf(t, "seen", None)
        entry = self.ops.get(fn._seq)
        if entry is not None:
            return entry[1]
        data = t._data
        record = self.tensor([int(n) for n in data.shape], dtype_name(data.dtype), device_name(data), True, False,
                             "seen", summary_of(data, self.exact))
        self.ops[fn._seq] = (None, record["id"])
        return record["id"]

    def _new_leaf(self, t, origin: str, line) -> str:
        data = t._data
        record = self.tensor([int(n) for n in data.shape], dtype_name(data.dtype), device_name(data),
                             t._requires_grad, True, origin, summary_of(data, self.exact), line,
                             self._scope[-1] if self._scope else None)
        self.leaves[id(t)] = (_ref(t), record["id"])
        if t._requires_grad:
            self._make_param(t, record["id"])
        return record["id"]

    def _make_param(self, t, tensor_id: str) -> None:
        self.params[tensor_id] = _ref(t)
        self.by_id[tensor_id]["requires_grad"] = True

    # ----- forward ----------------------------------------------------------------
    def on_leaf(self, t) -> None:
        if t.grad_fn is not None:
            return  # requires_grad_() on a computed tensor changes nothing
        entry = self.leaves.get(id(t))
        if entry is not None and entry[0]() is t:
            if t._requires_grad and entry[1] not in self.params:
                self._make_param(t, entry[1])
            return
        self._new_leaf(t, "leaf", user_line(1))

    def on_op(self, node, inputs, output) -> None:
        # The hot path of a traced forward: ids, a line and a copy now, the records later (journal.py).
        line = user_line(3)  # past this handler, the Listener around it and function.record, all ours
        data = output._data
        input_ids = []  # a tensor's id, or None (a number: consts says which)
        consts = None
        ops = self.ops
        for x in inputs:  # a loop, not comprehensions (each is a call in 3.11), nor enumerate (few need arg)
            if x.__class__ in TENSOR_TYPES:
                made_by = x.grad_fn  # tensor_id's commonest case first: a result this trace recorded
                entry = ops.get(made_by._seq) if made_by is not None else None
                input_ids.append(entry[1] if entry is not None else self.tensor_id(x))
            else:
                if x is not None:
                    if consts is None:
                        consts = []
                    consts.append((len(input_ids), constant(x)))  # (its position, its value)
                input_ids.append(None)
        known = _CLASSES.get(node.__class__)
        if known is None:
            describe(node)  # which makes the class's description, where it has one
            known = _CLASSES[node.__class__] = (class_description(node.__class__),
                                                getattr(node.__class__, "constants", None))
        described, settings = known
        if settings is not None:  # a window's kernel, stride, padding... (conv, pooling): by name
            consts = (consts or []) + [(name, setting(value)) for name, value in settings(node).items()]
        if node.saved:
            saved = self._saved(node, inputs, input_ids, data)
        else:  # nothing saved, or the output alone (exp, tanh): nothing to look for
            saved = _OUTPUT_ONLY if node.saves_output else None
        # What a trace keeps per op and per step is tuples, not lists: a tuple of ids is let go by
        # the garbage collector at its first pass, and kept lists emptied the list free list, so
        # each op's new list counted towards the next collection. Half the collections on a
        # traced W3 step (gc.callbacks: 0.66 -> 0.37 ms of ~6.5).
        input_ids = tuple(input_ids)
        if consts is not None:
            consts = tuple(consts)
        op_id, out_id = OP_IDS[self._ops], TENSOR_IDS[self._tensors]
        self._ops += 1
        self._tensors += 1
        device = "cpu" if isinstance(data, _HOST) else device_name(data)
        self.journal_op(op_id, out_id, described or describe(node), saved, line,
                        self._scope[-1] if self._scope else None, consts, input_ids, data, device,
                        summary_of(data, self.exact))
        ops[node._seq] = (op_id, out_id)

    def _saved(self, node, inputs, input_ids, data) -> tuple:
        """What the node keeps for backward, a tuple of ``(tensor id, input position)``: an input
        by position, another tensor with position None, the output as ``(None, None)``
        (it has no id yet). ``Journal.drain`` makes them the document's dicts."""
        saved = []
        count = len(inputs)
        for position, x in enumerate(node.saved or ()):
            if x.__class__ not in TENSOR_TYPES:
                continue
            if position < count and inputs[position] is x:  # ops save their inputs in order (x * x: 0, 1)
                saved.append((input_ids[position], position))
                continue
            arg = 0
            for y in inputs:
                if y is x:
                    saved.append((input_ids[arg], arg))
                    break
                arg += 1
            else:
                if x._data is data:  # a custom Function that saved its own result
                    saved.append(_OUTPUT)
                else:
                    saved.append((self.tensor_id(x), None))
        if node.saves_output:
            saved.append(_OUTPUT)
        return tuple(saved)

    def on_op_error(self, op_name: str, inputs, error) -> None:
        line = user_line(1)
        described, input_ids = [], []
        for arg, x in enumerate(inputs):
            if x.__class__ in TENSOR_TYPES:
                input_ids.append(self.tensor_id(x))
                described.append({"arg": arg, "shape": [int(n) for n in x._data.shape],
                                  "dtype": dtype_name(x._data.dtype)})
            else:
                input_ids.append(None)
                described.append({"arg": arg, "value": constant(x)})
        symbol, formula = by_torch_name(op_name)
        op = self.op(op_name, symbol, formula, "error", line, self._scope[-1] if self._scope else None)
        op["error"] = str(error)
        for arg, tensor_id in enumerate(input_ids):
            if tensor_id is not None:
                self.edge(tensor_id, op["id"], arg)
        self.consumed(op["id"], input_ids)
        self.add_event({"type": "error", "node": op["id"], "op": op_name,
                        "error_type": type(error).__name__, "message": str(error),
                        "inputs": described, "line": line})
        self.reported.append((id(error), type(error).__name__, str(error)))

    def note_exception(self, error: BaseException, line) -> None:
        """The traced block raised: mark it, unless the op that raised is already marked."""
        if (id(error), type(error).__name__, str(error)) in self.reported:
            return
        self.add_event({"type": "error", "error_type": type(error).__name__,
                        "message": str(error), "line": line})

    def on_module_enter(self, path: str, module) -> None:
        if not self._scope:  # the outermost module names every parameter, used or not
            named = getattr(module, "named_parameters", None)
            for name, p in (named() if callable(named) else ()):
                record = self.by_id[self.tensor_id(p)]
                record.setdefault("label", name)  # as named_parameters() and state_dict() name it
                record["param"] = name
            # which nodes this call made, so its scope can take the user's name for the module later
            self.root_calls.append([path, _ref(module), self.node_count(), None])
        self._scope.append(path or None)

    def on_module_exit(self, path: str, module) -> None:
        scope = self._scope
        if scope and scope[-1] == (path or None):
            scope.pop()
        elif (path or None) in scope:  # an exit skipped by an exception: unwind to it
            del scope[len(scope) - 1 - scope[::-1].index(path or None):]
        if not scope and self.root_calls and self.root_calls[-1][3] is None:
            self.root_calls[-1][3] = self.node_count()

    def root_modules(self) -> list:
        """The modules called outermost during the trace (still alive), once each, in order."""
        found = []
        for _, module_ref, _, _ in self.root_calls:
            module = module_ref()
            if module is not None and all(module is not m for m in found):
                found.append(module)
        return found

    def name_module(self, module, name: str) -> list:
        """Give every outermost call of ``module`` the scope ``name`` (``model.fc_1`` for
        ``TwoLayer.fc_1``) in the nodes it made; return the scope paths renamed."""
        renamed = []
        for path, module_ref, first, stop in self.root_calls:
            if path and module_ref() is module:
                self.rename_scope(path, name, first, stop)
                renamed.append(path)
        return renamed

    # ----- backward ---------------------------------------------------------------
    def on_backward_begin(self, roots) -> None:
        self._cache.clear()
        adopt(self, roots)
        self.add_event({"type": "backward_begin", "roots": [self.tensor_id(r) for r in roots]})
        self._totals.count(self.new_inputs())  # the ops recorded since the last backward began
        priors = {}
        for tensor_id, ref in self.params.items():
            t = ref()
            if t is not None and t.grad is not None:
                priors[tensor_id] = t.grad._data
        self._totals.begin(priors)

    def on_backward_step(self, step) -> None:
        node = step.node
        entry = self.ops.get(node._seq)
        if entry is None or entry[0] is None:
            adopt(self, (), (node,))
            entry = self.ops[node._seq]
        op_id = entry[0]
        received = step.grad_output  # an array; a tensor under create_graph
        if hooks.node_hooks and received is not None:
            self._retained(node, entry[1])
        cache = self._cache
        if received.__class__ in TENSOR_TYPES:
            received = received._data
        if received is None:
            grad_output = None
            scalar = False
        else:  # in a chain, what the last step sent (see SummaryCache.last)
            sent = cache.last
            grad_output = sent[1] if sent is not None and sent[0]() is received else cache.get(received)
            scalar = received.size == 1  # local derivatives are for scalars
        input_ids = self.inputs.get(op_id, ())
        known = len(input_ids)
        grads = []  # (arg, target, grad, local, total): the summaries and numbers now, the dicts later
        follows = node._next
        totals = self._totals
        summed = totals.summed
        for arg, grad in enumerate(step.grad_inputs):
            target = input_ids[arg] if arg < known else None
            if grad is None or follows[arg] is None:  # the engine drops what goes nowhere (2.0 - x: the 2.0's)
                grads.append((arg, target, None, None, None))
                continue
            array = grad._data if grad.__class__ in TENSOR_TYPES else grad
            total = totals.add(target, array) if target in summed else None  # None is in no set
            if total is not None:
                last = target not in input_ids[arg + 1:len(step.grad_inputs)]  # x * x: twice here
                finished = {e["node"]: e["grad"] for e in self._pending}  # leaves this step completed
                total = (last and finished.get(target)) or cache.get(total)
            # a gradient passed on as it came (add, sub, a view's step: the same array, unchanged
            # since) is summarized as it was received a moment ago
            grads.append((arg, target, grad_output if array is received else cache.get(array),
                          local_derivative(received, array) if scalar else None, total))
        self.journal_step(op_id, grad_output, tuple(grads))
        if self._pending:
            self._flush()

    def _retained(self, node, out_id: str) -> None:
        """``retain_grad()`` stores a gradient through a hook the engine runs at the node."""
        self.drain()  # the output's record may still be in the journal
        for hook in hooks.node_hooks.get(id(node), ()):
            if isinstance(hook, hooks._Retainer):
                t = hook.tensor()
                if t is not None and t.grad is not None:
                    summary = self._cache.get(_array(t.grad))
                    self.by_id[out_id]["grad"] = summary
                    self.add_event({"type": "accumulate", "node": out_id, "grad": summary,
                                    "retained": True})

    def on_accumulate(self, t, grad) -> None:
        tensor_id = self.tensor_id(t)
        summary = self._cache.get(_array(grad))
        self.by_id[tensor_id]["grad"] = summary
        self._pending.append({"type": "accumulate", "node": tensor_id, "grad": summary})

    def _flush(self) -> None:
        if self._pending:
            for event in self._pending:
                self.add_event(event)
            self._pending.clear()

    def on_backward_end(self, completed: bool) -> None:
        self._flush()
        grad_none = []
        for tensor_id, ref in self.params.items():
            t = ref()
            if t is not None and t.grad is None:
                grad_none.append(tensor_id)
        self.add_event({"type": "backward_end", "completed": bool(completed), "grad_none": grad_none})
        self._cache.clear()
        self._totals.end()

    # ----- when the document is built ---------------------------------------------------
    def settle(self, finite: bool = False) -> None:
        """Mark where NaN or inf first appear (``nonfinite_origin``), which needs the
        summaries, and so waits for the document: an op's output that is not finite
        while none of its inputs' values is; a backward step that sent a non-finite
        gradient while it received a finite one. ``finite``: every summary is known to
        be (``summary_batch.finish_all`` said so), so there is no such place."""
        self.drain()
        if finite:
            self._unsettled.clear()
            return
        by_id = self.by_id
        for item in self._unsettled:
            if len(item) == 1:
                event = item[0]
                if any(nonfinite(g["grad"]) for g in event["grad_inputs"]) and \
                        not nonfinite(event["grad_output"]):
                    event["nonfinite_origin"] = True
            else:
                create_out, value, input_ids = item
                if nonfinite(value) and not any(i is not None and nonfinite(by_id[i].get("value"))
                                                for i in input_ids):
                    create_out["nonfinite_origin"] = True
        self._unsettled.clear()

    # ----- Listener (autograd/listener.py): the handlers above, then the parent ------------
    def fault(self, callback: str, error: Exception) -> None:
        """A tracer bug must not break the user's program: note it in the document."""
        self.warn(f"the tracer failed in {callback}: {type(error).__name__}: {error}")
