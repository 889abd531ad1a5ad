"""The trace document as the widget sends it: its float values as binary parts and its
repeated structure written once, the document itself unchanged.

A 10,000-node training step's document is 14 MB of JSON, and about 40% of it is the
``values`` of small summaries written as text: a float32 entry as its float64 ``repr``, up
to 20 characters for 4 bytes. The rest is mostly the same few things again and again: one
line of the cell (file, line number, function, offset, code) on each of its nodes, an op's
formula on each op of its kind, ``{"type": "create", "node": ...}`` on half the events. The
kernel's JSON packer, the trip and the browser's parse each pay for that text, per value.
While the trait is sent (``comm_state.py``):

- each finite float32 or float64 small summary goes as a number ``k``, its row in the
  document's ``summaries`` table: ``at[k]``, where its entries start in the ``values32`` or
  ``values64`` buffer (binary message parts, little-endian, the same bits), and ``kind[k]``,
  its ``[dtype, *shape]`` in ``kinds``; a summary met at several places (a gradient sent,
  received, accumulated and stored) is one row, its entries written once. One with NaN or
  infinities, of another dtype, or with other keys than the usual five, goes as JSON;
- a node's or event's ``line`` goes as its index in the document's ``lines`` (each line once,
  as the document shares it), an op node's ``formula`` as its index in ``formulas``;
- a backward step's ``formula``, its node's (``journal.py``), is left out;
- a create event with nothing but its node goes as the node's id; every event goes without
  its ``pass``, which the document's ``passes`` say (``first_event``..``last_event``);
- an edge goes as ``[src, dst, arg]``;
- the document is marked ``"wire": 2``.

The front end puts all of it back (``js/src/model/wirevalues.js``) before anything reads the
document, and ``unpacked`` does the same in Python for a saved widget state.
"""
from __future__ import annotations

import sys
from array import array

from ..tracing.summary import small_summary

_BUFFERS = {"float32": ("values32", "f"), "float64": ("values64", "d")}
_NONE = object()
_BIG_ENDIAN = sys.byteorder == "big"


class _Table:
    """Things written once in a list, each known by its index (by identity, or by value)."""

    def __init__(self, by_identity: bool):
        self.items: list = []
        self.at: dict = {}
        self.by_identity = by_identity

    def index(self, item) -> int:
        key = id(item) if self.by_identity else item
        found = self.at.get(key)
        if found is None:
            found = self.at[key] = len(self.items)
            self.items.append(item)
        return found


def _pass_by_event(document: dict) -> list:
    """Each event's pass as the document's ``passes`` give it (``first_event`` to
    ``last_event``); None for an event none of them covers."""
    passes: list = [None] * len(document["events"])
    for entry in document.get("passes") or ():
        for at in range(entry["first_event"], entry["last_event"] + 1):
            passes[at] = entry["index"]
    return passes


def _node_summaries_changed(node: dict, change) -> None:
    """Each summary of the node record ``node`` (a copy: changed in place) as ``change(s)``."""
    for key in ("value", "grad"):
        if node.get(key) is not None:
            node[key] = change(node[key])
    if node.get("saved"):
        node["saved"] = [dict(s, value=change(s["value"])) if "value" in s else s for s in node["saved"]]


def _event_summaries_changed(event: dict, change) -> None:
    """Each summary of the event ``event`` (a copy: changed in place) as ``change(s)``: a
    step's sent and received gradients, an update's arrays, an accumulate event's ``.grad``."""
    if "grad_output" in event:
        event["grad_output"] = change(event["grad_output"])
        event["grad_inputs"] = [_grad_input(g, change) for g in event["grad_inputs"]]
    elif event["type"] == "update":
        event["values"] = {key: change(value) for key, value in event["values"].items()}
    elif event.get("grad") is not None:
        event["grad"] = change(event["grad"])


def _packed_parts(document: dict, summary) -> dict:
    """The document's nodes, events and edges in the wire form (see the module doc), with
    each small summary ``s`` as ``summary(s)``; copies where anything changed."""
    lines, formulas = _Table(by_identity=True), _Table(by_identity=False)
    node_formula, nodes = {}, []
    for node in document["nodes"]:
        node = dict(node)
        _node_summaries_changed(node, summary)
        line = node.get("line")
        if line is not None:
            node["line"] = lines.index(line)
        if node.get("kind") == "op":
            formula = node_formula[node["id"]] = node.get("formula")
            if formula.__class__ is str:
                node["formula"] = formulas.index(formula)
        nodes.append(node)
    passes = _pass_by_event(document)
    # an event's pass is left out only when every event's is what the passes give
    drop_pass = None not in passes and all(e.get("pass") == p for e, p in zip(document["events"], passes))
    events = []
    for event in document["events"]:
        if event["type"] == "create" and drop_pass and len(event) == 3 and "pass" in event:
            events.append(event["node"])
            continue
        event = dict(event)
        if drop_pass:
            del event["pass"]
        _event_summaries_changed(event, summary)
        if event["type"] == "backward_step" and event.get("formula", _NONE) == node_formula.get(event["node"], _NONE):
            del event["formula"]  # its node's, as drawn (journal.py)
        line = event.get("line")
        if line is not None:
            event["line"] = lines.index(line)
        events.append(event)
    edges = [[e["src"], e["dst"], e["arg"]] if len(e) == 3 else e for e in document["edges"]]
    return {"nodes": nodes, "events": events, "edges": edges, "lines": lines.items, "formulas": formulas.items}


def _grad_input(entry: dict, change) -> dict:
    entry = dict(entry, grad=change(entry["grad"]))
    if "total" in entry:
        entry["total"] = change(entry["total"])
    return entry


class _Packer:
    def __init__(self):
        self.entries = {"float32": [], "float64": []}
        self.done: dict = {}  # id(summary) -> its wire form
        self.at: list = []  # the summaries table's columns (see the module doc)
        self.kind: list = []
        self.kinds = _Table(by_identity=False)

    def summary(self, summary):
        if summary.__class__ is not dict:
            return summary
        key = id(summary)
        wire = self.done.get(key)
        if wire is not None:
            return wire
        values = summary.get("values")
        entries = self.entries.get(summary.get("dtype"))
        # an empty tensor's summary goes as JSON: with no entries of its dtype beside it, its buffer
        # would be left out, and the summary read back as one whose binary parts were dropped
        if not values or entries is None or summary["nan"] or summary["inf"] or len(summary) != 5 \
                or len(values) != _count(summary["shape"]):
            wire = summary
        else:
            wire = len(self.at)
            self.at.append(len(entries))
            self.kind.append(self.kinds.index((summary["dtype"], *summary["shape"])))
            entries.extend(values)
        self.done[key] = wire
        return wire

    def table(self) -> dict:
        return {"at": self.at, "kind": self.kind, "kinds": [list(kind) for kind in self.kinds.items]}

    def buffers(self) -> dict:
        out = {}
        for dtype, entries in self.entries.items():
            if entries:
                name, code = _BUFFERS[dtype]
                packed = array(code, entries)
                if _BIG_ENDIAN:
                    packed.byteswap()
                out[name] = packed.tobytes()
        return out


def _count(shape) -> int:
    count = 1
    for size in shape:
        count *= size
    return count


def packed(document: dict) -> dict:
    """``document`` as the widget sends it: float values moved into binary buffers, repeated
    structure written once (see the module doc). ``document`` itself is not changed. A
    document not in the trace format (the widget takes any dict with list-valued lists)
    goes as it is."""
    packer = _Packer()
    try:
        parts = _packed_parts(document, packer.summary)
    except (KeyError, TypeError, AttributeError, ValueError, OverflowError):
        return document
    out = dict(document, wire=2, summaries=packer.table(), **parts)
    out.update(packer.buffers())
    return out


def _restored(summary, table: dict, buffers: dict):
    if summary.__class__ is not int:  # a summary sent as JSON
        return summary
    at = table["at"][summary]
    dtype, *shape = table["kinds"][table["kind"][summary]]
    entries = buffers.get(_BUFFERS[dtype][0])
    if entries is None:  # the binary parts were dropped on the way: the shape, no numbers
        return {"shape": shape, "dtype": dtype, "nan": 0, "inf": 0}
    count = _count(shape)
    return small_summary(shape, dtype, entries[at:at + count].tolist())


def unpacked(trace: dict, buffers: dict) -> dict:
    """The plain document of a ``trace`` as ``packed`` sent it, ``buffers`` holding its
    ``values32`` and ``values64`` (bytes-like: a saved widget state keeps them apart from
    the trace, as base64); a document never packed comes back as it is."""
    if not trace.get("wire"):
        return trace
    found = {}
    for name, code in _BUFFERS.values():
        data = buffers.get(name, trace.get(name))
        if data is None:
            continue
        entries = array(code, bytes(data))
        if _BIG_ENDIAN:
            entries.byteswap()
        found[name] = entries
    lines, formulas = trace.get("lines") or [], trace.get("formulas") or []

    table = trace.get("summaries") or {}

    def back(summary):
        return _restored(summary, table, found)

    node_formula, nodes = {}, []
    for node in trace["nodes"]:
        node = dict(node)
        _node_summaries_changed(node, back)
        if isinstance(node.get("line"), int):
            node["line"] = lines[node["line"]]
        if node.get("kind") == "op":
            if isinstance(node.get("formula"), int):
                node["formula"] = formulas[node["formula"]]
            node_formula[node["id"]] = node.get("formula")
        nodes.append(node)
    events = []
    for event, given in zip(trace["events"], _pass_by_event(trace)):
        event = {"type": "create", "node": event} if isinstance(event, str) else dict(event)
        if "pass" not in event and given is not None:
            event["pass"] = given
        _event_summaries_changed(event, back)
        if event["type"] == "backward_step" and "formula" not in event and event["node"] in node_formula:
            event["formula"] = node_formula[event["node"]]
        if isinstance(event.get("line"), int):
            event["line"] = lines[event["line"]]
        events.append(event)
    edges = [{"src": e[0], "dst": e[1], "arg": e[2]} if isinstance(e, list) else e for e in trace["edges"]]
    plain = {key: value for key, value in trace.items()
             if key not in ("values32", "values64", "wire", "lines", "formulas", "summaries")}
    plain.update(nodes=nodes, events=events, edges=edges)
    return plain
