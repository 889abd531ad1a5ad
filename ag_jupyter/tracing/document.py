"""Turning records into the trace document (the JSON the front end reads).

The format is described field by field in ``trace.schema.json`` (the authority)
and in ``docs/trace-document.md``. A node or event of the document is a shallow copy of
its record: the record's line is already the document's dict (``source_lines.LineTable``),
and its summaries are finished here in the record itself (``to_json``: the same summary,
finished), so lists inside a record (a step's ``grad_inputs``, an op's ``saved``), which
nothing changes once written, are shared by the records and every document built from
them. Three things happen only here:

- **Unused constants are left out.** A tensor made by a creation function that
  does not require grad and that nothing ever used (the ``ones`` handed to
  ``backward``, a number printed in passing) is dropped with its create event.
- **Names.** Tensors no variable named get an ``expr`` (``expressions.py``), so
  the screen never shows an internal id.
- **Passes.** Events are grouped into passes: a new pass begins at the first
  ``create`` or ``error`` event after a ``backward_end``. Each pass lists the
  parameters (leaves that require grad) its forward used, those it did not, those
  that got a gradient, and those whose ``.grad`` was still None after its backward.
"""
from __future__ import annotations

from .expressions import name_unlabelled
from .gc_pause import collections_paused
from .op_info import formula_letters
from .summary import to_json
from .summary_batch import finish_all

# 1.1: expr on tensors, local and total on grad_inputs; 1.2: preview codes name infinities (top);
# 1.3: channels on 4-D summaries; 1.4: offset on lines; 1.5: update and grads_cleared events
VERSION = "1.5"


def _referenced(records) -> set:
    seen = set()
    for src, dst, _ in records.edges:
        seen.add(src)
        seen.add(dst)
    for event in records.events:
        kind = event["type"]
        if kind == "create":
            continue
        if "node" in event:
            seen.add(event["node"])
        seen.update(event.get("roots", ()))
        seen.update(event.get("nodes", ()))
        for grad in event.get("grad_inputs", ()):
            seen.add(grad["node"])
    for record in records.nodes:
        for saved in record.get("saved", ()):
            seen.add(saved["node"])
    return seen


def _summaries(records):
    """Every summary the document will hold, finished or not (repeats included)."""
    for record in records.nodes:
        value = record.get("value")
        if value is not None:
            yield value
        grad = record.get("grad")
        if grad is not None:
            yield grad
    for event in records.events:
        if "grad_output" in event:
            yield event["grad_output"]
            for entry in event["grad_inputs"]:
                yield entry["grad"]
                total = entry.get("total")
                if total is not None:
                    yield total


_SUMMARY_KEYS = ("value", "grad", "grad_output")


def _finished(record: dict) -> dict:
    """A copy of a node or event record in the document's form, its summaries finished in
    the record itself (see the module doc)."""
    for key in _SUMMARY_KEYS:
        summary = record.get(key)
        if summary is not None:
            record[key] = to_json(summary)
    for entry in record.get("grad_inputs", ()):
        _finish_grad(entry)
    if record.get("saved"):
        _finish_saved(record["saved"])
    return record.copy()


def _finish_saved(saved: list) -> None:
    for entry in saved:
        if "value" in entry:
            entry["value"] = to_json(entry["value"])


def _finish_grad(entry: dict) -> None:
    """A backward step's entry for one input, its gradients finished in place."""
    grad = entry["grad"]
    if grad is not None:
        entry["grad"] = to_json(grad)
    total = entry.get("total")
    if total is not None:
        entry["total"] = to_json(total)


def _document_nodes(records: list, dropped: set) -> tuple:
    """``_finished`` of each node record not ``dropped``, written out for the two kinds of
    node (a document holds thousands: a loop over every summary key per record was a third
    of the copying), an op's formula ``letters`` added; and the parameters (leaves that
    require grad), for the passes."""
    nodes, params = [], []
    append = nodes.append
    letters_of: dict = {}  # op name -> its formula's letters (an op is met again and again)
    for record in records:
        if dropped and record["id"] in dropped:
            continue
        if record["kind"] == "tensor":
            value = record.get("value")
            if value is not None:
                record["value"] = to_json(value)
            grad = record.get("grad")
            if grad is not None:
                record["grad"] = to_json(grad)
            item = record.copy()
            if item["is_leaf"] and item["requires_grad"]:
                params.append(item["id"])
        else:
            if record.get("saved"):
                _finish_saved(record["saved"])
            item = record.copy()
            name = item["op"]
            letters = letters_of.get(name, 0)
            if letters == 0:
                letters = letters_of[name] = formula_letters(name)
            if letters:
                item["letters"] = letters
        append(item)
    return nodes, params


def _document_events(records: list, dropped: set, params: list, inputs_of: dict) -> tuple:
    """``_finished`` of each event (a create event of a ``dropped`` node left out; creates and
    backward steps, most of them, written out), each marked with its ``pass``; the passes
    (see the module doc) and the backward roots. ``inputs_of``: op id -> the parameters it
    takes in."""
    events, passes, roots = [], [], set()
    append = events.append
    current = -1  # the pass under way, and what it has seen so far
    first, used, with_grad, backward, grad_none = 0, set(), set(), False, None
    after_backward = False
    for event in records:
        kind = event["type"]
        if kind == "create":  # ids and flags only: copied as it is
            if dropped and event["node"] in dropped:
                continue
            item = event.copy()
        elif kind == "backward_step":
            event["grad_output"] = to_json(event["grad_output"])
            for entry in event["grad_inputs"]:
                _finish_grad(entry)
            item = event.copy()
        else:
            item = _finished(event)
        if current < 0 or (after_backward and (kind == "create" or kind == "error")):
            if current >= 0:
                passes.append(_one_pass(current, first, len(events) - 1, params, used, with_grad, backward,
                                        grad_none))
            current += 1
            first, used, with_grad, backward, grad_none = len(events), set(), set(), False, None
            after_backward = False
        item["pass"] = current
        if kind == "create":
            taken = inputs_of.get(item["node"])
            if taken:
                used.update(taken)
        elif kind == "accumulate":
            if not item.get("retained"):
                with_grad.add(item["node"])
        elif kind == "backward_begin":
            backward = True
            roots.update(item.get("roots", ()))
        elif kind == "backward_end":
            after_backward = True
            grad_none = item["grad_none"]
        append(item)
    if current >= 0:
        passes.append(_one_pass(current, first, len(events) - 1, params, used, with_grad, backward, grad_none))
    return events, passes, roots


def _one_pass(index: int, first: int, last: int, params: list, used: set, with_grad: set, backward: bool,
              grad_none) -> dict:
    return {
        "index": index,
        "first_event": first,
        "last_event": last,
        "backward": backward,
        "params_used": [p for p in params if p in used],
        "params_unused": [p for p in params if p not in used],
        "params_with_grad": [p for p in params if p in with_grad],
        "grad_none": grad_none,
    }


def build(records) -> dict:
    """The trace document of ``records`` (a ``Records`` or ``Recorder``)."""
    with collections_paused():
        return _build(records)


def _build(records) -> dict:
    records.drain()
    finite = finish_all(_summaries(records))  # before settle, which reads their NaN counts
    records.settle(finite)
    constants = [n["id"] for n in records.nodes
                 if n["origin"] == "leaf" and not n["requires_grad"] and "label" not in n]
    # the walk over every record only when there is a constant it could drop (often none)
    referenced = _referenced(records) if constants else ()
    dropped = {node_id for node_id in constants if node_id not in referenced}
    nodes, params = _document_nodes(records.nodes, dropped)
    param_set = set(params)
    edges, inputs_of = [], {}
    for src, dst, arg in records.edges:
        edges.append({"src": src, "dst": dst, "arg": arg})
        if src in param_set:
            inputs_of.setdefault(dst, []).append(src)
    events, passes, roots = _document_events(records.events, dropped, params, inputs_of)
    name_unlabelled(nodes, records.edges, roots)
    document = {
        "version": VERSION,
        "title": records.title or ("PyTorch graph" if records.source == "torch" else "ag.trace"),
        "source": records.source,
        "nodes": nodes,
        "edges": edges,
        "events": events,
        "passes": passes,
    }
    if records.warnings:
        document["warnings"] = list(records.warnings)
    return document
