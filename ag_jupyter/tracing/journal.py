"""The recorder's journal: records are written down cheaply while the traced code runs,
and made into the document's dicts when someone reads them.

A traced op used to build, on the spot, two node records, two create events and its
edges: a dozen dicts and lists per op that the trace then keeps. Most of the tracer's
cost on a long chain of small ops was that, not the arithmetic (a copy of ``on_op``
that built the same dicts without keeping them ran in half the time). Now ``on_op``
appends one tuple to the journal, and every other record (a leaf, an event, an edge)
follows it there, so the order of ``nodes``, ``events`` and ``edges`` is the order
things happened. ``drain()`` writes the journal out, each ``(code, offset)`` line as its
document dict; whatever reads the records
(``document.build`` through ``settle``, the ``trace`` methods that name or count
nodes) drains first. Node records are in ``by_id`` at once, except an op's and its
output's, which appear when the journal is drained.
"""
from __future__ import annotations

from itertools import islice

from .summary import dtype_name

_OP, _STEP, _NODE, _EVENT, _EDGE = range(5)


class Journal:
    """Mixed into the ``Recorder`` before ``Records``: the same records, written later."""

    def _init_journal(self) -> None:
        self._journal: list = []
        self._waiting = 0  # nodes in the journal
        self._counted = 0  # how many ops of ``inputs`` (the oldest) ``new_inputs`` has handed out

    def node_count(self) -> int:
        """How many nodes are recorded, those still in the journal included."""
        return len(self.nodes) + self._waiting

    # ----- writing (Records' methods, and the op's own entry) ------------------------
    def _created(self, record: dict, line, scope) -> dict:
        if line is not None:
            record["line"] = line  # (code, offset) until drained: the tracer's path makes no dict
        if scope:
            record["scope"] = scope
        self.by_id[record["id"]] = record  # at once: a leaf's record is named and marked as it goes
        self._journal.append((_NODE, record))
        self._waiting += 1
        return record

    def edge(self, src: str, dst: str, arg: int) -> None:
        self._journal.append((_EDGE, (src, dst, arg)))

    def consumed(self, op_id: str, input_ids: list) -> None:
        """An op took these inputs (``on_op_error`` and ``walk`` say so here; ``on_op``'s
        ``journal_op`` does it in the same call)."""
        self.inputs[op_id] = input_ids

    def new_inputs(self):
        """The input ids (None: a constant) of each op recorded since the last call, newest
        first: ``inputs`` holds ops in the order they came, so these are its last entries."""
        inputs = self.inputs
        new = islice(reversed(inputs.values()), len(inputs) - self._counted)
        self._counted = len(inputs)
        return new

    def add_event(self, event: dict) -> None:
        self._journal.append((_EVENT, event))

    def journal_op(self, op_id, out_id, describe, saved, line, scope, consts, input_ids, data, device, value):
        """``on_op``'s entry: what the op node and its output tensor node will hold, and the
        inputs it consumed (``consumed``'s one line here saves on_op a call, ~0.3 us an op)."""
        self._journal.append((_OP, op_id, out_id, describe, saved, line, scope, consts, input_ids,
                              data.shape, data.dtype, device, value))
        self._waiting += 2
        self.inputs[op_id] = input_ids

    def journal_step(self, op_id, grad_output, grads) -> None:
        """``on_backward_step``'s entry; ``grads`` holds ``(arg, node, grad, local, total)``
        per input (``local`` and ``total`` None where the document has none)."""
        self._journal.append((_STEP, op_id, grad_output, grads))

    # ----- reading ----------------------------------------------------------------------
    def drain(self) -> None:
        """Write the journal out into ``nodes``, ``by_id``, ``events`` and ``edges``.
        An op's and a backward step's entries (nearly all of them) are written out here, not
        in a method each: a call per entry was a sixth of the drain."""
        nodes, events, edges, by_id, unsettled = self.nodes, self.events, self.edges, self.by_id, self._unsettled
        line_json = self.lines.json
        for entry in self._journal:
            kind = entry[0]
            if kind == _OP:
                _, op_id, out_id, describe, saved, line, scope, consts, input_ids, shape, dtype, device, value = entry
                name, symbol, formula = describe
                op = {"id": op_id, "kind": "op", "op": name, "symbol": symbol, "formula": formula, "origin": "op",
                      "saved": [_saved_entry(tensor_id, arg, out_id) for tensor_id, arg in saved] if saved else []}
                out = {"id": out_id, "kind": "tensor", "shape": list(shape), "dtype": dtype_name(dtype),
                       "device": device, "requires_grad": True, "is_leaf": False, "origin": "op",
                       "value": value}
                if scope:
                    op["scope"] = out["scope"] = scope
                if consts:
                    op["consts"] = [{"arg": arg, "value": v} if arg.__class__ is int else {"name": arg, "value": v}
                                    for arg, v in consts]
                if line is not None:
                    op["line"] = out["line"] = line_json(line)
                nodes += (op, out)
                by_id[op_id] = op
                by_id[out_id] = out
                create_out = {"type": "create", "node": out_id}
                events += ({"type": "create", "node": op_id}, create_out)
                arg = 0
                for input_id in input_ids:
                    if input_id is not None:
                        edges.append((input_id, op_id, arg))
                    arg += 1
                edges.append((op_id, out_id, 0))
                unsettled.append((create_out, value, input_ids))
            elif kind == _STEP:
                _, op_id, grad_output, grads = entry
                entries = []
                for arg, target, grad, local, total in grads:
                    grad_entry = {"arg": arg, "node": target, "grad": grad}
                    if local is not None:
                        grad_entry["local"] = local
                    if total is not None:
                        grad_entry["total"] = total
                    entries.append(grad_entry)
                event = {"type": "backward_step", "node": op_id, "grad_output": grad_output,
                         "grad_inputs": entries, "formula": by_id[op_id]["formula"]}  # the node's, as drawn
                events.append(event)
                unsettled.append((event,))
            elif kind == _NODE:
                record = entry[1]
                _line_written(record, line_json)
                nodes.append(record)
                events.append({"type": "create", "node": record["id"]})
            elif kind == _EVENT:
                _line_written(entry[1], line_json)
                events.append(entry[1])
            else:
                edges.append(entry[1])
        self._journal.clear()
        self._waiting = 0


def _line_written(item: dict, line_json) -> None:
    """The ``(code, offset)`` line a record or event was journalled with as the document's dict
    (``source_lines.LineTable``); a None line (no frame was the user's) left out."""
    line = item.get("line")
    if line is not None:
        item["line"] = line_json(line)
    elif "line" in item:
        del item["line"]


def _saved_entry(tensor_id, arg, out_id) -> dict:
    """A saved tensor's entry in its op's record (``Recorder._saved`` says what it was)."""
    if tensor_id is None:
        return {"node": out_id, "output": True}
    if arg is None:
        return {"node": tensor_id}
    return {"node": tensor_id, "arg": arg}
