"""The static picture in words: its ``<title>`` and ``<desc>``, what a screen reader says
for the graph where the widget cannot run (a saved notebook, nbconvert's HTML, GitHub).

The same facts a sighted reader takes from the picture: how many tensors and ops, the
leaves with their values and final gradients, the output. Numbers as the picture writes
them (``static_values.number``), a minus as "−" so it is read as minus.

>>> doc = {"title": "t", "nodes": [
...     {"id": "t0", "kind": "tensor", "label": "a", "shape": [], "is_leaf": True, "requires_grad": True,
...      "value": {"shape": [], "values": [2.0]}, "grad": {"shape": [], "values": [-3.0]}},
...     {"id": "op0", "kind": "op", "op": "MulBackward0", "symbol": "×"},
...     {"id": "t1", "kind": "tensor", "expr": "a*3", "shape": [], "value": {"shape": [], "values": [6.0]}}],
...   "edges": [{"src": "t0", "dst": "op0"}, {"src": "op0", "dst": "t1"}]}
>>> title, desc = graph_words(doc)
>>> title
't: computation graph of a*3'
>>> desc
'computation graph, 2 tensors and 1 op. Leaves: a = 2 with gradient −3. Output: a*3 = 6.'
"""
from __future__ import annotations

from .static_values import number

LISTED = 8  # leaves named one by one; more are counted


def _spoken(text: str) -> str:
    return "−" + text[1:] if text[:1] == "-" else text


def _name(node: dict) -> str:
    return node.get("label") or node.get("param") or node.get("expr") or "tensor"


def _value(summary) -> str | None:
    """The number of a one-element summary, else None (a bigger one is named by its shape)."""
    if not summary or len(summary.get("values") or ()) != 1:
        return None
    return _spoken(number(summary["values"][0]))


def _tensor(node: dict, with_grad: bool) -> str:
    value = _value(node.get("value"))
    shape = node.get("shape")
    text = f"{_name(node)} = {value}" if value is not None else (
        f"{_name(node)} of shape {' by '.join(map(str, shape))}" if shape else _name(node))
    grad = _value(node.get("grad")) if with_grad else None
    return f"{text} with gradient {grad}" if grad is not None else text


def graph_words(doc: dict) -> tuple[str, str]:
    """``(title, description)`` of trace document ``doc``'s picture."""
    nodes = doc.get("nodes") or []
    consumed = {edge.get("src") for edge in doc.get("edges") or ()}
    tensors = [n for n in nodes if n.get("kind") == "tensor"]
    ops = [n for n in nodes if n.get("kind") == "op"]
    leaves = [n for n in tensors if n.get("is_leaf") and n.get("requires_grad")]
    outputs = [n for n in tensors if not n.get("is_leaf") and n["id"] not in consumed]
    plural = lambda n, word: f"{n} {word}{'' if n == 1 else 's'}"  # noqa: E731
    parts = [f"computation graph, {plural(len(tensors), 'tensor')} and {plural(len(ops), 'op')}."]
    if leaves:
        named = ", ".join(_tensor(n, True) for n in leaves[:LISTED])
        more = f", and {len(leaves) - LISTED} more" if len(leaves) > LISTED else ""
        parts.append(f"Leaves: {named}{more}.")
    if outputs:
        parts.append(f"Output: {', '.join(_tensor(n, False) for n in outputs[:3])}.")
    title = str(doc.get("title") or "graph")
    about = ", ".join(_name(n) for n in outputs[:3])
    return (f"{title}: computation graph of {about}" if about else title), " ".join(parts)
