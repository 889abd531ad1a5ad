"""The static picture: a layered layout and an SVG written in pure Python."""
from __future__ import annotations

import json
import math
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import ag_jupyter as ag
from ag_jupyter.widgets.graph_layout import layered
from ag_jupyter.widgets.static_svg import escape, grad_text, number, static_svg

FIXTURES = Path(__file__).parent / "fixtures"
SVG = "{http://www.w3.org/2000/svg}"
XSS = "<img src=x onerror=alert(1)>"


def texts(svg: str) -> list:
    """The text of every <text> element, as a reader of the picture sees it."""
    return [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]


def nodes(svg: str) -> dict:
    """data-id -> the texts inside that node's group."""
    root = ET.fromstring(svg)
    return {g.get("data-id"): [t.text for t in g.iter(f"{SVG}text")]
            for g in root.iter(f"{SVG}g") if g.get("data-id")}


def e_graph(label_xss: bool = False) -> dict:
    doc = json.loads((FIXTURES / "e_graph.json").read_text())
    leaves = [n for n in doc["nodes"] if n["kind"] == "tensor" and n["is_leaf"]]
    for node, name in zip(leaves, "abcd"):
        node["label"] = name
    if label_xss:
        leaves[0]["label"] = XSS
    return doc


# ----- layout ---------------------------------------------------------------------
def test_layers_follow_the_longest_path_and_sources_sit_before_their_consumer():
    order = ["a", "b", "op1", "t1", "c", "op2", "t2"]
    edges = [("a", "op1"), ("b", "op1"), ("op1", "t1"), ("t1", "op2"), ("c", "op2"), ("op2", "t2")]
    cells = layered(order, edges)
    assert {n: cells[n][0] for n in order} == {"a": 0, "b": 0, "op1": 1, "t1": 2, "c": 2, "op2": 3, "t2": 4}
    # rows within a layer are a permutation 0..k-1
    by_layer: dict = {}
    for layer, row in cells.values():
        by_layer.setdefault(layer, []).append(row)
    assert all(sorted(rows) == list(range(len(rows))) for rows in by_layer.values())


def test_barycenter_ordering_removes_a_crossing():
    # a feeds op_a, b feeds op_b, but the ops were created in the other order
    order = ["a", "b", "op_b", "op_a"]
    cells = layered(order, [("a", "op_a"), ("b", "op_b")])
    assert cells["a"][1] < cells["b"][1] and cells["op_a"][1] < cells["op_b"][1]


def test_backward_edges_are_ignored_and_unknown_ids_dropped():
    cells = layered(["x", "y"], [("y", "x"), ("x", "y"), ("x", "ghost")])
    assert cells == {"x": (0, 0), "y": (1, 0)}


# ----- the SVG --------------------------------------------------------------------
def test_e_graph_svg_parses_and_names_every_tensor_with_its_shape_and_grad():
    svg = static_svg(e_graph())
    drawn = nodes(svg)
    assert len(drawn) == 12  # 8 tensors, 4 ops
    labels = [lines[0] for lines in drawn.values()]
    for name, value in zip("abcd", ("2", "-3", "10", "4")):
        assert f"{name} = {value}" in labels  # a scalar: its value after its name, as on screen
    assert {"×", "+", "log", "param*param = -6", "log(param)*param = 13.86"} <= set(labels)  # unnamed: expression
    assert not any(label.startswith("t") and label[1:].isdigit() for label in labels)  # never an id
    grads = {lines[0].split(" =")[0]: lines[1] for lines in drawn.values() if len(lines) > 1}
    assert grads == {"a": "grad = -3", "b": "grad = 2", "c": "grad = 1.386", "d": "grad = 2.5"}
    assert texts(svg)[0] == "e = a*b + log(d)*c"  # the title
    assert len(ET.fromstring(svg).findall(f".//{SVG}path")) >= 11  # the edges (and the arrow head)


def test_labels_are_text_never_markup():
    svg = static_svg(e_graph(label_xss=True))
    assert "<img" not in svg  # only as &lt;img
    assert f"{XSS} = 2" in texts(svg)
    assert escape('"<&>') == "&quot;&lt;&amp;&gt;"
    assert escape("bad\x00\x1bchar") == "badchar"  # XML 1.0 forbids these, even escaped


def test_direction_tb_stacks_layers_vertically():
    doc = json.loads((FIXTURES / "matmul.json").read_text())
    for direction, axis in (("LR", "x"), ("TB", "y")):
        root = ET.fromstring(static_svg(doc, direction))
        rects = {g.get("data-id"): g.find(f"{SVG}rect") for g in root.iter(f"{SVG}g") if g.get("data-id")}
        first_op = next(n["id"] for n in doc["nodes"] if n["kind"] == "op")
        leaf = next(n["id"] for n in doc["nodes"] if n["kind"] == "tensor")
        assert float(rects[leaf].get(axis)) < float(rects[first_op].get(axis))


def test_errors_and_unused_parameters_are_marked():
    with ag.trace(title="fails") as tr:
        w = ag.tensor([1.0, 2.0], requires_grad=True)
        unused = ag.tensor(3.0, requires_grad=True)  # noqa: F841 - a parameter with no gradient
        (w * 2).sum().backward()
        with pytest.raises(RuntimeError):
            w @ ag.ones(3)
    doc = tr.to_dict()
    svg = static_svg(doc)
    root = ET.fromstring(svg)
    errors = [g for g in root.iter(f"{SVG}g") if "ag-error" in (g.get("class") or "")]
    assert len(errors) == 1
    assert any("shapes cannot be multiplied" in (t or "") for t in texts(svg))
    dimmed = [g for g in root.iter(f"{SVG}g") if g.get("opacity") == "0.5"]
    assert [t.text for t in dimmed[0].iter(f"{SVG}text")] == ["param = 3", "grad = None"]


def test_a_large_graph_collapses_modules_and_stays_small():
    model = ag.nn.Sequential(*[ag.nn.Linear(4, 4) for _ in range(80)])
    with ag.trace() as tr:
        model(ag.randn(2, 4)).sum()
    doc = tr.to_dict()
    assert len(doc["nodes"]) > 400
    svg = static_svg(doc)
    drawn = nodes(svg)
    assert len(drawn) < 200 and any(lines[0] == "Sequential.0" for lines in drawn.values())
    assert any("each nn.Module is drawn as one box" in t for t in texts(svg))
    cut = static_svg(doc, max_nodes=10)
    assert len(nodes(cut)) == 10 and any("only the first 10" in t for t in texts(cut))


def test_minimal_and_empty_documents_still_draw():
    ET.fromstring(static_svg({}))
    ET.fromstring(static_svg({"nodes": [{"id": "n1", "label": "hello"}]}))


def test_number_and_grad_formatting():
    assert [number(v) for v in (2.0, -3, 1.38629436, 1e-8, "NaN", True)] == \
        ["2", "-3", "1.386", "1×10⁻⁸", "NaN", "True"]
    assert grad_text({"grad": {"shape": [2], "values": [1.0, 0.5]}}) == "grad = [1,0.5]"
    assert grad_text({"grad": {"shape": [5], "values": [0.0] * 5}}) is None
    assert grad_text({"grad": {"shape": [40, 50], "min": 0}}) is None


def test_drawing_scales_linearly_enough():
    """A 6,000-node chain drawn whole (no cut). The barycenter sweeps are linear per sweep:
    a quadratic version took minutes here, which this test would show as a stalled run
    (no clock in the assertion: timed assertions flake on a loaded machine)."""
    doc = {"title": "chain", "nodes": [], "edges": [], "events": []}
    for k in range(3000):
        doc["nodes"] += [{"id": f"t{k}", "kind": "tensor", "shape": [], "is_leaf": k == 0},
                         {"id": f"op{k}", "kind": "op", "op": "TanhBackward0", "symbol": "tanh"}]
        doc["edges"].append({"src": f"t{k}", "dst": f"op{k}", "arg": 0})
        if k + 1 < 3000:
            doc["edges"].append({"src": f"op{k}", "dst": f"t{k + 1}", "arg": 0})
        doc["events"] += [{"type": "create", "node": f"t{k}"}, {"type": "create", "node": f"op{k}"}]
    svg = static_svg(doc, max_nodes=10**6)
    assert len(nodes(svg)) == 6000


def test_values_and_constants_are_drawn_as_the_widget_draws_them():
    with ag.trace() as tr:
        x = ag.tensor(3.0, requires_grad=True)
        w = ag.tensor([[1.0, 2.0], [3.0, 4.5]], requires_grad=True)
        big = ag.tensor([[float(6 * i + j) for j in range(6)] for i in range(5)], requires_grad=True)
        ((x * 2 + 3) ** 2 + (w * big[:2, :2]).sum() + big.sum() + ag.arange(30.0).sum()).backward()
    lines = list(nodes(static_svg(tr.to_dict())).values())
    firsts = [line[0] for line in lines]
    assert {"× 2", "+ 3", "** 2"} <= set(firsts)
    assert "param = 3" in firsts
    grid = next(line for line in lines if line[0].startswith("param [2,2]"))
    assert grid[1:3] == ["1    2", "3  4.5"]
    assert next(line for line in lines if line[0].startswith("param [5,6]"))[1] == "min 0  max 29"
    assert "435" in firsts  # a constant named by its value is not written "435 = 435"


def test_an_empty_tensor_shows_its_shape_and_no_min_or_max():
    with ag.trace() as tr:
        ag.zeros(0, 4, requires_grad=True).sum()
    lines = list(nodes(static_svg(tr.to_dict())).values())
    assert next(line for line in lines if line[0].startswith("param [0,4]")) == ["param [0,4]"]


def test_a_large_value_with_infinities_says_how_many_under_its_finite_min_and_max():
    import numpy as np
    values = np.zeros((10, 10), dtype=np.float32)
    values[::2] = np.inf
    values[1, 1] = np.nan
    with ag.trace() as tr:
        ag.tensor(values, requires_grad=True).sum()
    lines = list(nodes(static_svg(tr.to_dict())).values())
    box = next(line for line in lines if line[0].startswith("param [10,10]"))
    assert box[1:] == ["min 0  max 0", "⚠ 1 nan, 50 inf"]


def test_numbers_are_written_as_the_widget_writes_them():
    # one table, read by this test and by js/test/format.test.mjs for num()
    from ag_jupyter.widgets.static_values import number

    for value, text in json.loads((FIXTURES / "numbers.json").read_text(encoding="utf-8")):
        assert number(value) == text, value


# ----- no edge through a node -------------------------------------------------------
def _path_points(d: str) -> list:
    """Points along an SVG path of M, L and C commands (lines every 2 px, curves in 32 steps)."""
    tokens = re.findall(r"[MLC]|-?[\d.]+", d)
    points, at, i = [], None, 0
    while i < len(tokens):
        command = tokens[i]
        count = {"M": 1, "L": 1, "C": 3}[command]
        coords = [(float(tokens[i + 1 + 2 * k]), float(tokens[i + 2 + 2 * k])) for k in range(count)]
        i += 1 + 2 * count
        if command == "M":
            at = coords[0]
        elif command == "L":
            (x0, y0), (x1, y1) = at, coords[0]
            steps = max(1, int(math.hypot(x1 - x0, y1 - y0) / 2))
            points += [(x0 + (x1 - x0) * t / steps, y0 + (y1 - y0) * t / steps) for t in range(steps + 1)]
            at = coords[0]
        else:
            p0, (p1, p2, p3) = at, coords
            for step in range(33):
                t = step / 32
                u = 1 - t
                points.append(tuple(u**3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t**3 * e
                                    for a, b, c, e in zip(p0, p1, p2, p3)))
            at = p3
    return points


def edges_through_nodes(svg: str) -> list:
    """(src, dst, node) for every edge whose drawn path enters a box other than its ends'."""
    root = ET.fromstring(svg)
    boxes = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("data-id"):
            r = g.find(f"{SVG}rect")
            x, y, w, h = (float(r.get(k)) for k in ("x", "y", "width", "height"))
            boxes[g.get("data-id")] = (x + 0.5, y + 0.5, x + w - 0.5, y + h - 0.5)
    hits = []
    for path in root.iter(f"{SVG}path"):
        if not path.get("data-src"):
            continue
        ends = {path.get("data-src"), path.get("data-dst")}
        points = _path_points(path.get("d"))
        for node, (x0, y0, x1, y1) in boxes.items():
            if node not in ends and any(x0 < x < x1 and y0 < y < y1 for x, y in points):
                hits.append((path.get("data-src"), path.get("data-dst"), node))
    return hits


def random_dag(seed: int, size: int = 40) -> dict:
    """Tensors and ops alternating as in a trace, inputs drawn from anywhere earlier (long edges)."""
    rng = random.Random(seed)
    doc = {"title": f"random {seed}", "nodes": [], "edges": [], "events": []}
    tensors = []
    for k in range(size):
        t = f"t{k}"
        doc["nodes"].append({"id": t, "kind": "tensor", "shape": [], "is_leaf": not tensors, "label": t})
        doc["events"].append({"type": "create", "node": t})
        if tensors and rng.random() < 0.7:
            op = f"op{k}"
            doc["nodes"].append({"id": op, "kind": "op", "op": "AddBackward0", "symbol": "+"})
            doc["events"].insert(-1, {"type": "create", "node": op})
            for src in {rng.choice(tensors) for _ in range(rng.randint(1, 3))}:
                doc["edges"].append({"src": src, "dst": op, "arg": 0})
            doc["edges"].append({"src": op, "dst": t, "arg": 0})
        tensors.append(t)
    return doc


@pytest.mark.parametrize("direction", ["LR", "TB"])
@pytest.mark.parametrize("seed", range(8))
def test_no_edge_of_a_random_dag_runs_through_a_node(seed, direction):
    doc = random_dag(seed)
    svg = static_svg(doc, direction=direction)
    assert svg.count("data-src=") == len(doc["edges"])  # every edge drawn, and measured
    assert edges_through_nodes(svg) == []


@pytest.mark.parametrize("direction", ["LR", "TB"])
def test_no_edge_of_a_tutorial_graph_runs_through_a_node(ip, direction):
    from example_graphs import TUTORIAL_WIDGETS, tutorial_widget

    for name, cell, expr in TUTORIAL_WIDGETS:
        if name.startswith("06"):
            pytest.importorskip("torch")
        widget = tutorial_widget(ip, Path(__file__).parents[1] / "notebooks" / f"{name}.ipynb", cell, expr)
        svg = static_svg(widget.trace, direction=direction)
        assert edges_through_nodes(svg) == [], name
