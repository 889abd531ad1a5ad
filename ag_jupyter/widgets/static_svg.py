"""The static picture of a trace document: an SVG string written in pure Python.

It is the fallback in ``GraphWidget``'s MIME bundle, so a saved notebook still
shows the graph where the widget cannot run (nbconvert, GitHub, a closed
kernel). It draws the *final* graph: every node, and the leaves' gradients as
the document has them at the end. No matplotlib, no Graphviz.

Tensors are boxes labelled ``name [shape]`` (with ``grad ...`` under them when
the gradient is small), ops are pills with the op's symbol, edges follow the
data flow. Every piece of text goes through ``escape``: a tensor named
``<img src=x onerror=alert(1)>`` is that literal text in the picture.

>>> svg = static_svg({"title": "t", "nodes": [{"id": "t0", "kind": "tensor", "shape": [2],
...                   "label": "x", "requires_grad": True, "is_leaf": True}],
...                   "edges": [], "events": [{"type": "create", "node": "t0"}]})
>>> svg.startswith("<svg") and "x [2]" in svg
True
"""
from __future__ import annotations

import html
import math
import re

from .graph_layout import layered_routes
from .static_values import number, op_text, scalar_suffix, value_lines
from .static_words import graph_words

MAX_DRAWN = 400  # nodes; beyond, modules collapse into one box each, then the rest is cut
SMALL = 4  # a gradient with at most this many numbers is written out
CHAR_W, LINE_H, PAD = 7.0, 15.0, 8.0  # 12px sans-serif: an average glyph is about 7px wide
LAYER_GAP, ROW_GAP, MARGIN, TITLE_H = 56.0, 16.0, 16.0, 26.0
SLOT = 4.0  # across-extent of the empty slot a long edge passes through in a layer it skips

# Fill and stroke per role, readable on a white page (the notebook's usual background).
ROLE_STYLE = {
    "param": ("#e8f5e9", "#2e7d32"),
    "constant": ("#f5f5f5", "#9e9e9e"),
    "intermediate": ("#e3f2fd", "#1565c0"),
    "output": ("#fff3e0", "#ef6c00"),
    "op": ("#ffffff", "#555555"),
    "error": ("#ffebee", "#c62828"),
    "group": ("#ede7f6", "#5e35b1"),
}
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape(text) -> str:
    """Text safe inside SVG elements and attributes: XML's special characters as
    entities, and the characters XML 1.0 forbids (even escaped) dropped."""
    return html.escape(_NOT_XML.sub("", str(text)), quote=True)


def shape_text(shape) -> str:
    return "[?]" if shape is None else "[" + ",".join(str(n) for n in shape) + "]"


def tensor_text(node: dict) -> str:
    """``name [shape]``, as the widget draws it: the label (else the expression the
    tracer wrote) and the shape, which a scalar leaves out."""
    name = node.get("label") or node.get("param") or node.get("expr") or ""
    shape = node.get("shape")
    return name if shape == [] and name else f"{name} {shape_text(shape)}".strip()


def grad_text(node: dict) -> str | None:
    """``grad -3`` or ``grad [1,2]`` when the node's final gradient is small, else None."""
    grad = node.get("grad")
    if not grad or "values" not in grad or len(grad["values"]) > SMALL:
        return None
    values = [number(v) for v in grad["values"]]
    return "grad = " + (values[0] if not grad.get("shape") else "[" + ",".join(values) + "]")


def role(node: dict, has_out: bool) -> str:
    if node.get("kind") == "op":
        return "error" if node.get("origin") == "error" else "op"
    if node.get("kind") == "group":
        return "group"
    if node.get("is_leaf"):
        return "param" if node.get("requires_grad") else "constant"
    return "intermediate" if has_out else "output"


def _creation_order(doc: dict) -> list:
    ids = [n["id"] for n in doc.get("nodes", ())]
    present = set(ids)
    order = [e["node"] for e in doc.get("events", ()) if e.get("type") == "create" and e.get("node") in present]
    created = set(order)
    return order + [i for i in ids if i not in created]  # a node without a create event goes last


def _collapse(nodes: dict, order: list, edges: list, drawn: int) -> tuple:
    """Each ``nn.Module`` scope becomes one box (too many nodes to draw one by one). Only the
    edges between the first ``drawn`` boxes are kept: a graph of 10,000 nodes has 20,000 edges
    to sort, and all but a few hundred would be cut."""
    group_of, groups = {}, {}
    for node_id in order:
        scope = nodes[node_id].get("scope")
        if scope:
            gid = "scope:" + scope
            group_of[node_id] = gid
            groups.setdefault(gid, {"id": gid, "kind": "group", "label": scope, "count": 0})["count"] += 1
    consumers: dict = {}
    for src, dst in edges:
        consumers.setdefault(src, set()).add(group_of.get(dst))
    for node_id in order:  # a parameter (made outside any scope) joins the one module using it
        used_by = consumers.get(node_id, set())
        if node_id not in group_of and len(used_by) == 1 and None not in used_by:
            group_of[node_id] = gid = next(iter(used_by))
            groups[gid]["count"] += 1
    merged = dict(nodes)
    merged.update(groups)
    new_order, seen = [], set()
    for node_id in order:
        key = group_of.get(node_id, node_id)
        if key not in seen:
            seen.add(key)
            new_order.append(key)
    kept = set(new_order[:drawn])
    new_edges = {(src, dst) for src, dst in ((group_of.get(s, s), group_of.get(d, d)) for s, d in edges)
                 if src in kept and dst in kept}
    return merged, new_order, sorted((s, d) for s, d in new_edges if s != d)


def _boxes(nodes: dict, order: list, out_degree: dict, params_without_grad: set) -> dict:
    """Per node: its lines of text, size and role."""
    boxes = {}
    for node_id in order:
        node = nodes[node_id]
        kind = node.get("kind")
        if kind == "op":
            lines = [op_text(node)]
            width, height = max(30.0, CHAR_W * len(lines[0]) + 2 * PAD), 26.0
        else:
            if kind == "group":
                lines = [node["label"], f"{node['count']} nodes"]
            else:
                title = tensor_text(node) or node_id
                lines = [title + scalar_suffix(node, title), *value_lines(node)]
                extra = grad_text(node)
                if extra is None and node_id in params_without_grad:
                    extra = "grad = None"
                if extra:
                    lines.append(extra)
            width = max(44.0, CHAR_W * max(len(t) for t in lines) + 2 * PAD)
            height = LINE_H * len(lines) + PAD
        boxes[node_id] = {"lines": lines, "w": width, "h": height,
                          "role": role(node, out_degree.get(node_id, 0) > 0),
                          "dim": node_id in params_without_grad}
    return boxes


def _place(boxes: dict, cells: dict, horizontal: bool) -> tuple:
    """Centre coordinates per node (and dummy), each layer's span along the flow
    ``{layer: (start, end)}``, and the drawing's width and height."""
    layers: dict = {}
    for node_id, (layer, row) in cells.items():
        layers.setdefault(layer, []).append((row, node_id))
    along, across = ("w", "h") if horizontal else ("h", "w")
    size = {n: boxes.get(n, {along: 0.0, across: SLOT}) for n in cells}
    extent = [max(size[n][along] for _, n in layers[k]) for k in sorted(layers)]
    spans = [sum(size[n][across] for _, n in sorted(layers[k])) + ROW_GAP * (len(layers[k]) - 1)
             for k in sorted(layers)]
    widest = max(spans, default=0.0)
    centres, bands, offset = {}, {}, MARGIN
    for k, length, span in zip(sorted(layers), extent, spans):
        position = MARGIN + (widest - span) / 2  # centre each layer across the picture
        bands[k] = (offset, offset + length)
        for _, node_id in sorted(layers[k]):
            cross = size[node_id][across]
            a, b = offset + length / 2, position + cross / 2
            centres[node_id] = (a, b) if horizontal else (b, a)
            position += cross + ROW_GAP
        offset += length + LAYER_GAP
    length = offset - LAYER_GAP + MARGIN if layers else 2 * MARGIN
    breadth = widest + 2 * MARGIN
    return centres, bands, (length, breadth) if horizontal else (breadth, length)


def _edge_path(chain: list, centres: dict, cells: dict, bands: dict, boxes: dict, horizontal: bool) -> str:
    """An edge through ``chain`` (its source, the dummies of the layers it skips, its
    target). Inside a layer's band it runs straight along the flow, at its node's or
    slot's own row, so it crosses no other node of that layer; it bends only in the
    gaps between layers, where no node is. An edge drawn against the layers (only
    after modules were collapsed into boxes) is one curve, box to box."""
    def flip(a, b):  # (along, across) -> (x, y)
        return (a, b) if horizontal else (b, a)

    along = [centres[n][0 if horizontal else 1] for n in chain]
    across = [centres[n][1 if horizontal else 0] for n in chain]
    half = [boxes[n]["w" if horizontal else "h"] / 2 if n in boxes else 0.0 for n in chain]
    src, dst = chain[0], chain[-1]
    if cells[dst][0] <= cells[src][0]:
        x1, x2 = along[0] + half[0], along[-1] - half[-1]
        bend = max(20.0, abs(x2 - x1) / 2)
        p = [flip(x1, across[0]), flip(x1 + bend, across[0]), flip(x2 - bend, across[-1]), flip(x2, across[-1])]
        return "M{:.1f},{:.1f} C{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}".format(*[c for pt in p for c in pt])
    start = flip(along[0] + half[0], across[0])
    parts = [f"M{start[0]:.1f},{start[1]:.1f}"]
    for i, node in enumerate(chain):
        band = bands[cells[node][0]]
        if i > 0:  # the gap before this layer: one curve, its tangents along the flow
            prev = bands[cells[chain[i - 1]][0]][1]
            mid = (prev + band[0]) / 2
            c1, c2, end = flip(mid, across[i - 1]), flip(mid, across[i]), flip(band[0], across[i])
            parts.append(f"C{c1[0]:.1f},{c1[1]:.1f} {c2[0]:.1f},{c2[1]:.1f} {end[0]:.1f},{end[1]:.1f}")
        last = i == len(chain) - 1
        out = flip(along[i] - half[i] if last else band[1], across[i])  # to the target's edge, or across the band
        parts.append(f"L{out[0]:.1f},{out[1]:.1f}")
    return " ".join(parts)


def _node_svg(node_id: str, box: dict, centre: tuple, tooltip: str) -> str:
    x, y = centre
    fill, stroke = ROLE_STYLE[box["role"]]
    w, h = box["w"], box["h"]
    radius = h / 2 if box["role"] in ("op", "error") else 4
    parts = [f'<g class="ag-node ag-{box["role"]}" data-id="{escape(node_id)}"'
             + (' opacity="0.5"' if box["dim"] else "") + ">",
             f"<title>{escape(tooltip)}</title>",
             f'<rect x="{x - w / 2:.1f}" y="{y - h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" '
             f'rx="{radius:.1f}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>']
    first = y - (len(box["lines"]) - 1) * LINE_H / 2
    for index, line in enumerate(box["lines"]):
        weight = ' font-weight="bold"' if box["role"] in ("op", "error") else ""
        parts.append(f'<text x="{x:.1f}" y="{first + index * LINE_H:.1f}" text-anchor="middle" '
                     f'dominant-baseline="central"{weight}>{escape(line)}</text>')
    parts.append("</g>")
    return "".join(parts)


def _tooltip(node: dict) -> str:
    if node.get("kind") == "op":
        text = node.get("op", "")
        return f"{text}: {node['error']}" if node.get("error") else text
    if node.get("kind") == "group":
        return f"{node['label']}: {node['count']} nodes"
    return f"{tensor_text(node)} {node.get('dtype') or ''}".strip()


def _errors(doc: dict) -> list:
    lines = []
    for event in doc.get("events", ()):
        if event.get("type") == "error":
            where = event.get("line") or {}
            at = f" (line {where['lineno']})" if "lineno" in where else ""
            lines.append(f"{event.get('error_type', 'Error')}: {event.get('message', '')}{at}")
    return lines


def static_svg(doc: dict, direction: str = "LR", max_nodes: int = MAX_DRAWN) -> str:
    """The SVG text of the final graph of trace document ``doc``."""
    nodes = {n["id"]: n for n in doc.get("nodes", ())}
    order = _creation_order(doc)
    edges = [(e.get("src"), e.get("dst")) for e in doc.get("edges", ())]
    edges = [(src, dst) for src, dst in edges if src in nodes and dst in nodes]
    notes = []
    if len(order) > max_nodes:
        nodes, order, edges = _collapse(nodes, order, edges, max_nodes)
        notes.append(f"{len(order)} nodes: each nn.Module is drawn as one box")
    if len(order) > max_nodes:
        notes.append(f"only the first {max_nodes} of {len(order)} boxes are drawn")
        order = order[:max_nodes]
        kept = set(order)
        edges = [(s, d) for s, d in edges if s in kept and d in kept]
    out_degree: dict = {}
    for src, _ in edges:
        out_degree[src] = out_degree.get(src, 0) + 1
    ends = [e for e in doc.get("events", ()) if e.get("type") == "backward_end"]
    without_grad = set(ends[-1].get("grad_none", ())) if ends else set()
    boxes = _boxes(nodes, order, out_degree, without_grad)
    horizontal = direction.upper() != "TB"
    cells, routes = layered_routes(order, edges)
    centres, bands, (width, height) = _place(boxes, cells, horizontal)

    footer = _errors(doc) + notes
    top, bottom = TITLE_H, LINE_H * len(footer) + (PAD if footer else 0)
    width = max(width, CHAR_W * max((len(t) for t in footer + [doc.get("title", "")]), default=0) + 2 * MARGIN)
    total_h = height + top + bottom
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{math.ceil(width)}" height="{math.ceil(total_h)}" '
           f'viewBox="0 0 {math.ceil(width)} {math.ceil(total_h)}" font-family="DejaVu Sans, Helvetica, Arial, '
           f'sans-serif" font-size="12" class="ag-static-graph" role="img">',
           # what a screen reader says for the picture (its alt text in nbconvert's HTML)
           *(f"<{tag}>{escape(text)}</{tag}>" for tag, text in zip(("title", "desc"), graph_words(doc))),
           '<defs><marker id="ag-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#777"/></marker></defs>',
           '<rect width="100%" height="100%" fill="#ffffff"/>',
           f'<text x="{MARGIN}" y="{TITLE_H - 9}" font-size="13" font-weight="bold">'
           f'{escape(doc.get("title", ""))}</text>',
           f'<g transform="translate(0,{top})">']
    for src, dst in edges:
        path = _edge_path([src, *routes.get((src, dst), ()), dst], centres, cells, bands, boxes, horizontal)
        out.append(f'<path d="{path}" data-src="{escape(src)}" data-dst="{escape(dst)}" fill="none" '
                   'stroke="#777" stroke-width="1.2" marker-end="url(#ag-arrow)"/>')
    for node_id in order:
        out.append(_node_svg(node_id, boxes[node_id], centres[node_id], _tooltip(nodes[node_id])))
    out.append("</g>")
    for index, line in enumerate(footer):
        colour = "#c62828" if index < len(footer) - len(notes) else "#555555"
        out.append(f'<text x="{MARGIN}" y="{top + height + (index + 1) * LINE_H:.1f}" fill="{colour}">'
                   f"{escape(line)}</text>")
    out.append("</svg>")
    return "\n".join(out)
