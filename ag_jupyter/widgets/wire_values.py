"""The trace document's float values sent as binary: how the widget's ``trace`` goes to the
front end, with the document itself unchanged.

A 10,000-node training step's document is 14 MB of JSON, and about 40% of it is the
``values`` of small summaries written as text: a float32 entry as its float64 ``repr``, up
to 20 characters for 4 bytes. The kernel's JSON packer, the trip and the browser's parse
each pay for that text. While the trait is sent, each finite float32 or float64 small
summary goes out as ``{"packed": [at, dtype, *shape]}``, its entries at ``at`` in the
document's ``values32`` or ``values64`` buffer (little-endian, sent as binary message
parts); a summary met at several places (a gradient sent, received and stored) is written
into the buffer once. The front end puts every summary back as it was
(``js/src/model/wirevalues.js``) before anything reads the document, and ``unpacked``
does the same in Python for a saved widget state. A summary with NaN or infinities, of another
dtype, or with more than those five keys, goes as JSON. The numbers are the same bits: float32 entries as float32,
float64 as float64.
"""
from __future__ import annotations

import sys
from array import array

_BUFFERS = {"float32": ("values32", "f"), "float64": ("values64", "d")}
_BIG_ENDIAN = sys.byteorder == "big"


class _Packer:
    def __init__(self):
        self.entries = {"float32": [], "float64": []}
        self.done: dict = {}  # id(summary) -> its wire form

    def summary(self, summary):
        if summary.__class__ is not dict:
            return summary
        key = id(summary)
        wire = self.done.get(key)
        if wire is not None:
            return wire
        values = summary.get("values")
        entries = self.entries.get(summary.get("dtype"))
        if values is None or entries is None or summary["nan"] or summary["inf"] or len(summary) != 5 \
                or len(values) != _count(summary["shape"]):
            wire = summary
        else:
            wire = {"packed": [len(entries), summary["dtype"], *summary["shape"]]}
            entries.extend(values)
        self.done[key] = wire
        return wire

    def node(self, node: dict) -> dict:
        value, grad, saved = node.get("value"), node.get("grad"), node.get("saved")
        if value is None and grad is None and not saved:
            return node
        node = dict(node)
        if value is not None:
            node["value"] = self.summary(value)
        if grad is not None:
            node["grad"] = self.summary(grad)
        if saved:
            node["saved"] = [dict(s, value=self.summary(s["value"])) if "value" in s else s for s in saved]
        return node

    def event(self, event: dict) -> dict:
        if "grad_output" in event:
            event = dict(event, grad_output=self.summary(event["grad_output"]),
                         grad_inputs=[self.grad_input(g) for g in event["grad_inputs"]])
        elif event["type"] == "update":
            event = dict(event, values={k: self.summary(v) for k, v in event["values"].items()})
        return event

    def grad_input(self, entry: dict) -> dict:
        entry = dict(entry, grad=self.summary(entry["grad"]))
        if "total" in entry:
            entry["total"] = self.summary(entry["total"])
        return entry

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
    """``document`` as the widget sends it: float values moved into binary buffers (see the
    module doc). ``document`` itself is not changed. A document not in the trace format
    (the widget takes any dict with list-valued lists) goes as it is."""
    packer = _Packer()
    try:
        out = dict(document, nodes=[packer.node(n) for n in document["nodes"]],
                   events=[packer.event(e) for e in document["events"]])
        out.update(packer.buffers())
    except (KeyError, TypeError, AttributeError, ValueError, OverflowError):
        return document
    return out


def _restored(summary, buffers: dict):
    if not isinstance(summary, dict) or "packed" not in summary:  # a saved state's nodes are dict subclasses
        return summary
    at, dtype, *shape = summary["packed"]
    name, code = _BUFFERS[dtype]
    entries = buffers[name]
    count = _count(shape)
    return {"shape": shape, "dtype": dtype, "values": entries[at:at + count].tolist(), "nan": 0, "inf": 0}


def unpacked(trace: dict, buffers: dict) -> dict:
    """The plain document of a ``trace`` as ``packed`` sent it, ``buffers`` holding its
    ``values32`` and ``values64`` (bytes-like: a saved widget state keeps them apart from
    the trace, as base64); a document never packed comes back as it is."""
    found = {}
    for name, code in _BUFFERS.values():
        data = buffers.get(name, trace.get(name))
        if data is None:
            continue
        entries = array(code, bytes(data))
        if _BIG_ENDIAN:
            entries.byteswap()
        found[name] = entries
    if not found:
        return trace
    nodes = []
    for node in trace["nodes"]:
        node = dict(node)
        for key in ("value", "grad"):
            if key in node:
                node[key] = _restored(node[key], found)
        if node.get("saved"):
            node["saved"] = [dict(s, value=_restored(s["value"], found)) if "value" in s else s for s in node["saved"]]
        nodes.append(node)
    events = []
    for event in trace["events"]:
        if "grad_output" in event:
            event = dict(event, grad_output=_restored(event["grad_output"], found),
                         grad_inputs=[{k: _restored(v, found) if k in ("grad", "total") else v for k, v in g.items()}
                                      for g in event["grad_inputs"]])
        elif event.get("type") == "update":
            event = dict(event, values={k: _restored(v, found) for k, v in event["values"].items()})
        events.append(event)
    plain = {key: value for key, value in trace.items() if key not in ("values32", "values64")}
    plain.update(nodes=nodes, events=events)
    return plain
