"""Turning records into the trace document (the JSON the front end reads).

The format is described field by field in ``trace.schema.json`` (the authority)
and in ``docs/trace-document.md``. Three things happen only here:

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
from .source_lines import as_json
from .summary import Deferred, to_json
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
        yield record.get("value")
        yield record.get("grad")
    for event in records.events:
        if "grad_output" in event:
            yield event["grad_output"]
            for grad in event["grad_inputs"]:
                yield grad["grad"]
                yield grad.get("total")


_SUMMARY_KEYS = ("value", "grad", "grad_output")


def _finished(record: dict, lines: dict) -> dict:
    """A copy of a node or event record in the document's form: summaries finished
    (see ``summary.Large``) and source lines looked up."""
    item = dict(record)
    line = item.pop("line", None)
    if line is not None:
        # by the code object's identity (the records keep it alive): a code object hashes its
        # contents on every look-up, nested functions' code included, 13 us for a long cell's
        where = (id(line[0]), line[1])
        done = lines.get(where)
        if done is None:
            done = lines[where] = as_json(line)
        item["line"] = done
    for key in _SUMMARY_KEYS:
        summary = item.get(key)
        if summary is not None:
            item[key] = to_json(summary)
    if "grad_inputs" in item:
        item["grad_inputs"] = [_finished_grad(g) for g in item["grad_inputs"]]
    if item.get("saved"):
        item["saved"] = [dict(s, value=to_json(s["value"])) if "value" in s else dict(s)
                         for s in item["saved"]]
    return item


def _finished_grad(entry: dict) -> dict:
    done = dict(entry, grad=None if entry["grad"] is None else to_json(entry["grad"]))
    if "total" in entry:
        done["total"] = to_json(entry["total"])
    return done


def _document_nodes(records: list, dropped: set, lines: dict) -> list:
    """``_finished`` of each node record not ``dropped``, written out for the two kinds of
    node (a document holds thousands: a call and a loop over keys per record were a third
    of the copying)."""
    nodes = []
    append = nodes.append
    for record in records:
        if dropped and record["id"] in dropped:
            continue
        item = record.copy()
        line = item.get("line")
        if line is not None:
            where = (id(line[0]), line[1])  # see _finished
            done = lines.get(where)
            if done is None:
                done = lines[where] = as_json(line)
            item["line"] = done
        if item["kind"] == "tensor":
            value = item.get("value")
            if value is not None:
                done = value._summary if value.__class__ is Deferred else value  # finished: its dict
                item["value"] = done if done.__class__ is dict else to_json(value)
            grad = item.get("grad")
            if grad is not None:
                item["grad"] = to_json(grad)
        elif item.get("saved"):
            item["saved"] = [dict(s, value=to_json(s["value"])) if "value" in s else dict(s) for s in item["saved"]]
        append(item)
    return nodes


def _document_events(records: list, dropped: set, lines: dict) -> list:
    """``_finished`` of each event, a create event of a ``dropped`` node left out; the two
    kinds there are most of (creates, backward steps) written out."""
    events = []
    append = events.append
    for event in records:
        kind = event["type"]
        if kind == "create":  # ids and flags only: copied as it is
            if not dropped or event["node"] not in dropped:
                append(event.copy())
        elif kind == "backward_step" and "line" not in event:
            item = event.copy()
            item["grad_output"] = to_json(item["grad_output"])
            item["grad_inputs"] = [_finished_grad(g) for g in item["grad_inputs"]]
            append(item)
        else:
            append(_finished(event, lines))
    return events


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
    lines: dict = {}
    nodes = _document_nodes(records.nodes, dropped, lines)
    edges = [{"src": src, "dst": dst, "arg": arg} for src, dst, arg in records.edges]
    events = _document_events(records.events, dropped, lines)
    roots = {root for e in events if e["type"] == "backward_begin" for root in e.get("roots", ())}
    name_unlabelled(nodes, records.edges, roots)
    letters_of: dict = {}  # op name -> its formula's letters (an op is met again and again)
    for node in nodes:
        if node["kind"] == "op":
            name = node["op"]
            letters = letters_of.get(name, 0)
            if letters == 0:
                letters = letters_of[name] = formula_letters(name)
            if letters:
                node["letters"] = letters
    document = {
        "version": VERSION,
        "title": records.title or ("PyTorch graph" if records.source == "torch" else "ag.trace"),
        "source": records.source,
        "nodes": nodes,
        "edges": edges,
        "events": events,
        "passes": _passes(nodes, records.edges, events),
    }
    if records.warnings:
        document["warnings"] = list(records.warnings)
    return document


def _passes(nodes: list, edges: list, events: list) -> list:
    """The document's passes; ``edges`` as the records hold them, ``(src, dst, arg)``."""
    starts = []
    current = -1
    after_backward = False
    for index, event in enumerate(events):
        kind = event["type"]
        if current < 0 or (after_backward and (kind == "create" or kind == "error")):
            starts.append(index)
            current += 1
            after_backward = False
        if kind == "backward_end":
            after_backward = True
        event["pass"] = current
    params = [n["id"] for n in nodes if n["kind"] == "tensor" and n["is_leaf"] and n["requires_grad"]]
    param_set = set(params)
    inputs_of: dict = {}
    for src, dst, _ in edges:
        if src in param_set:
            inputs_of.setdefault(dst, []).append(src)
    bounds = list(zip(starts, starts[1:] + [len(events)]))
    return [_one_pass(k, events[first:stop], first, stop - 1, params, inputs_of)
            for k, (first, stop) in enumerate(bounds)]


def _one_pass(index: int, events: list, first: int, last: int, params: list, inputs_of: dict) -> dict:
    used, with_grad = set(), set()
    grad_none = None
    backward = False
    for event in events:
        kind = event["type"]
        if kind == "create":
            inputs = inputs_of.get(event["node"])
            if inputs:
                used.update(inputs)
        elif kind == "accumulate" and not event.get("retained"):
            with_grad.add(event["node"])
        elif kind == "backward_begin":
            backward = True
        elif kind == "backward_end":
            grad_none = event["grad_none"]
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
