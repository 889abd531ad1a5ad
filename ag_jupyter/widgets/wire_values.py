"""The trace document as the widget sends it: its float values as binary parts and no
repeated formulas, the document itself unchanged.

A 10,000-node training step's document is 14 MB of JSON, and about 40% of it is the
``values`` of small summaries written as text: a float32 entry as its float64 ``repr``, up
to 20 characters for 4 bytes. The kernel's JSON packer, the trip and the browser's parse
each pay for that text. While the trait is sent (``comm_state.py``):

- each finite float32 or float64 small summary goes as ``{"packed": [at, dtype, *shape]}``,
  its entries at ``at`` in the document's ``values32`` or ``values64`` buffer (binary
  message parts, little-endian), the same bits; a summary met at several places (a gradient
  sent, received and stored) is written into the buffer once. One with NaN or infinities,
  of another dtype, or with other keys than the usual five, goes as JSON;
- a backward step's ``formula``, its node's (``journal.py``), is left out;
- the document is marked ``"wire": 1``.

The front end puts all of it back (``js/src/model/wirevalues.js``) before anything reads the
document, and ``unpacked`` does the same in Python for a saved widget state.
"""
from __future__ import annotations

import sys
from array import array

_BUFFERS = {"float32": ("values32", "f"), "float64": ("values64", "d")}
_NONE = object()
_BIG_ENDIAN = sys.byteorder == "big"


def _rewritten(document: dict, change, step) -> tuple[list, list]:
    """Copies of ``document``'s nodes and events with each summary ``s`` in them as
    ``change(s)``, and ``step(event, formula)`` called on each backward step's copy with
    its node's formula (``_NONE`` for a node not found): what packing and unpacking share.
    Nodes and events without a summary are not copied."""
    formulas, nodes, events = {}, [], []
    for node in document["nodes"]:
        if node.get("kind") == "op":
            formulas[node["id"]] = node.get("formula")
        value, grad, saved = node.get("value"), node.get("grad"), node.get("saved")
        if value is not None or grad is not None or saved:
            node = dict(node)
            if value is not None:
                node["value"] = change(value)
            if grad is not None:
                node["grad"] = change(grad)
            if saved:
                node["saved"] = [dict(s, value=change(s["value"])) if "value" in s else s for s in saved]
        nodes.append(node)
    for event in document["events"]:
        if "grad_output" in event:
            event = dict(event, grad_output=change(event["grad_output"]),
                         grad_inputs=[_grad_input(g, change) for g in event["grad_inputs"]])
            if event["type"] == "backward_step":
                step(event, formulas.get(event["node"], _NONE))
        elif event.get("type") == "update":
            event = dict(event, values={k: change(v) for k, v in event["values"].items()})
        events.append(event)
    return nodes, events


def _grad_input(entry: dict, change) -> dict:
    entry = dict(entry, grad=change(entry["grad"]))
    if "total" in entry:
        entry["total"] = change(entry["total"])
    return entry


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


def _formula_left_out(event: dict, formula) -> None:
    if "formula" in event and event["formula"] == formula:
        del event["formula"]  # its node's, as drawn (journal.py): the front end puts it back


def _formula_put_back(event: dict, formula) -> None:
    if "formula" not in event and formula is not _NONE:
        event["formula"] = formula


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
        nodes, events = _rewritten(document, packer.summary, _formula_left_out)
    except (KeyError, TypeError, AttributeError, ValueError, OverflowError):
        return document
    out = dict(document, nodes=nodes, events=events, wire=1)
    out.update(packer.buffers())
    return out


def _restored(summary, buffers: dict):
    if not isinstance(summary, dict) or "packed" not in summary:  # a saved state's nodes are dict subclasses
        return summary
    at, dtype, *shape = summary["packed"]
    entries = buffers.get(_BUFFERS[dtype][0])
    if entries is None:  # the binary parts were dropped on the way: the shape, no numbers
        return {"shape": shape, "dtype": dtype, "nan": 0, "inf": 0}
    count = _count(shape)
    return {"shape": shape, "dtype": dtype, "values": entries[at:at + count].tolist(), "nan": 0, "inf": 0}


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
    nodes, events = _rewritten(trace, lambda summary: _restored(summary, found), _formula_put_back)
    plain = {key: value for key, value in trace.items() if key not in ("values32", "values64", "wire")}
    plain.update(nodes=nodes, events=events)
    return plain
