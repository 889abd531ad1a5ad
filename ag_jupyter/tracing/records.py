"""The raw material of a trace document: node records, edges, events, in order.

Both the engine recorder and the PyTorch importers fill one of these; the
``document`` module turns it into the JSON document. Records are plain dicts
holding summaries, ids and strings: never a tensor, an array or a graph node. A
record's line is its document dict (``source_lines.LineTable``) once the record is
written out; its summaries are finished in place when a document is built.
"""
from __future__ import annotations

from .source_lines import LineTable


class NodeIds(dict):
    """``ids[n]``: the id of a trace's ``n``-th node of one kind (``t7``, ``op7``), made once
    and kept for the traces after (each numbers its nodes from 0), up to ``KEPT``. Looking one
    up costs a third of formatting it, on the tracer's hot path (two ids per op); one past
    ``KEPT`` costs 2.5 times as much (the miss, then the formatting), so ``KEPT`` covers a
    long traced loop: 32,768 of each kind, 7.3 MB for both once a trace made them all."""

    __slots__ = ("prefix",)
    KEPT = 1 << 15

    def __init__(self, prefix: str):
        super().__init__()
        self.prefix = prefix

    def __missing__(self, n: int) -> str:
        node_id = f"{self.prefix}{n}"
        if n < self.KEPT:
            self[n] = node_id
        return node_id


TENSOR_IDS, OP_IDS = NodeIds("t"), NodeIds("op")


class Records:
    """Append-only lists of nodes, edges and events, with the ids handed out so far."""

    def __init__(self, title: str | None, source: str):
        self.title = title
        self.source = source  # "ag_jupyter" or "torch"
        self.nodes: list[dict] = []  # creation order
        self.by_id: dict[str, dict] = {}
        self.edges: list[tuple] = []  # (src id, dst id, arg)
        self.events: list[dict] = []
        self.warnings: list[str] = []
        self.lines = LineTable()  # a record's line is its document dict, one per line (source_lines.py)
        self._tensors = 0
        self._ops = 0

    def tensor(self, shape, dtype, device, requires_grad: bool, is_leaf: bool, origin: str,
               value=None, line=None, scope=None) -> dict:
        """A new tensor node and its create event."""
        node_id = TENSOR_IDS[self._tensors]
        self._tensors += 1
        record = {"id": node_id, "kind": "tensor", "shape": shape, "dtype": dtype, "device": device,
                  "requires_grad": requires_grad, "is_leaf": is_leaf, "origin": origin}
        if value is not None:
            record["value"] = value
        return self._created(record, line, scope)

    def op(self, name: str, symbol: str, formula: str | None, origin: str, line=None, scope=None) -> dict:
        """A new op node and its create event."""
        node_id = OP_IDS[self._ops]
        self._ops += 1
        record = {"id": node_id, "kind": "op", "op": name, "symbol": symbol, "formula": formula,
                  "origin": origin, "saved": []}
        return self._created(record, line, scope)

    def _created(self, record: dict, line, scope) -> dict:
        """Add a node record with its optional line and scope, and its create event."""
        if line is not None:
            record["line"] = self.lines.json(line)
        if scope:
            record["scope"] = scope
        self.nodes.append(record)
        self.by_id[record["id"]] = record
        self.events.append({"type": "create", "node": record["id"]})
        return record

    def settle(self, finite: bool = False) -> None:
        """Finish what waited for the document (the engine's recorder defers some marks)."""

    def drain(self) -> None:
        """Write out what waits to be recorded (the engine's recorder keeps a journal)."""

    # ----- names from outside the engine (the user's variables), given before the document is built
    def name_node(self, node_id: str, label: str) -> None:
        """Name a node: its ``label`` in every document built from now on."""
        self.drain()
        self.by_id[node_id]["label"] = str(label)

    def label_of(self, node_id: str) -> str | None:
        self.drain()
        return self.by_id[node_id].get("label")

    def rename_scope(self, old: str, new: str, first: int = 0, stop: int | None = None) -> int:
        """Replace the leading scope segment ``old`` by ``new`` for the nodes recorded in
        ``[first, stop)``; return how many nodes changed."""
        self.drain()
        changed = 0
        for record in self.nodes[first:stop]:
            scope = record.get("scope")
            if scope is not None and (scope == old or scope.startswith(old + ".")):
                record["scope"] = new + scope[len(old):]
                changed += 1
        return changed

    def edge(self, src: str, dst: str, arg: int) -> None:
        self.edges.append((src, dst, arg))

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)
