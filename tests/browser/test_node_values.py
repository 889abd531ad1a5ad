"""Values and gradients where one looks: on the nodes themselves. Graphs made by the
engine here, opened in the built widget (js/bench/view.html), read back from the
rendered SVG as a person reads them, and compared with the engine's numbers."""
import json

import numpy as np
import pytest
from conftest import ARTIFACTS, ROOT
from contrast import measuring
from example_graphs import readme_example
from geometry import boxes_overlap, labels_over_boxes
from view_page import counter, ignore_favicon, open_document, open_view

import ag_jupyter as ag
from ag_jupyter.widgets.labels import label_trace

pytestmark = pytest.mark.browser


def open_doc(page, site, tr, names, name, step=0, **model):
    label_trace(tr, names)
    doc = tr.to_dict()
    open_document(page, site, doc, name, step=step, **model)
    return doc


def node_texts(page, node_id):
    return page.eval_on_selector(f"g.ag-node[data-id={node_id}]",
                                 "g => [...g.querySelectorAll('text')].map(t => t.textContent)")


def test_readme_example_shows_every_value_and_at_the_end_every_leaf_grad(page, site):
    tr, names = readme_example()
    doc = open_doc(page, site, tr, names, "readme_values")
    total = len(doc["events"])
    page.click("button[data-action=last]")  # one press to the end: no node clicked
    assert counter(page) == f"{total} / {total}"
    tensors = [n for n in doc["nodes"] if n["kind"] == "tensor"]
    assert len(tensors) == 8
    for node in tensors:
        title = page.text_content(f"g.ag-node[data-id={node['id']}] .ag-title")
        name, value = title.split(" = ")
        assert np.isclose(float(value), node["value"]["values"][0], rtol=1e-3), title
        assert "[" not in title  # a scalar has no shape written
    for name in "abcd":
        node_id = tr.node_id(names[name])
        shown = page.text_content(f".ag-grad-badge[data-id={node_id}]")
        assert np.isclose(float(shown), names[name].grad.item(), rtol=1e-3), (name, shown)
        assert page.get_attribute(f"g.ag-node[data-id={node_id}] .ag-grad-line", "data-state") == "value"
    assert boxes_overlap(page) == []
    page.locator(".ag-graph").screenshot(path=str(ARTIFACTS / "node-values-readme.png"))
    assert ignore_favicon(page.console_errors) == []


def test_gradient_states_pending_zero_none_look_different(page, site):
    with ag.trace() as tr:
        x = ag.tensor(3.0, requires_grad=True)
        w = ag.tensor([[1.0, 2.0], [3.0, 4.5]], requires_grad=True)
        off = ag.tensor(1.0, requires_grad=True)
        y = (x * 2 + 3) ** 2 + (w * 0.0).sum()
        _ = off * 5  # not on the path to y
        y.backward()
    names = dict(x=x, w=w, off=off, y=y)
    doc = open_doc(page, site, tr, names, "grad_states")
    begin = next(i for i, ev in enumerate(doc["events"]) if ev["type"] == "backward_begin")
    for _ in range(begin + 1):
        page.click("button[data-action=step]")
    state = lambda t: page.get_attribute(f"g.ag-node[data-id={tr.node_id(t)}] .ag-grad-line", "data-state")  # noqa: E731
    assert state(x) == "pending" and page.text_content(f".ag-grad-badge[data-id={tr.node_id(x)}]") == ""
    page.click("button[data-action=last]")
    assert state(x) == "value"
    assert page.text_content(f".ag-grad-badge[data-id={tr.node_id(x)}]") == str(int(x.grad.item()))
    assert state(w) == "zero"
    # a small tensor's value and gradient are grids of the engine's numbers
    cells = page.eval_on_selector_all(f"g.ag-node[data-id={tr.node_id(w)}] .ag-value-grid text",
                                      "els => els.map(e => e.textContent)")
    assert [float(v) for v in cells] == w.detach().numpy().ravel().tolist()
    grads = page.eval_on_selector_all(f".ag-grad-badge[data-id={tr.node_id(w)}] text",
                                      "els => els.map(e => e.textContent)")
    assert [float(v) for v in grads] == w.grad.numpy().ravel().tolist()
    assert state(off) == "none" and page.text_content(f".ag-grad-badge[data-id={tr.node_id(off)}]") == "None"
    # the three looks differ: the value's colour, zero's muted, None's struck through
    style = lambda t: page.eval_on_selector(  # noqa: E731
        f".ag-grad-badge[data-id={tr.node_id(t)}] text",
        "e => { const s = getComputedStyle(e); return [s.fill, s.textDecorationLine, s.fontStyle].join(' '); }")
    assert len({style(x), style(w), style(off)}) == 3
    # op nodes carry their Python constants
    ops = page.eval_on_selector_all("g.ag-node[data-kind=op] .ag-label", "els => els.map(e => e.textContent)")
    assert {"× 2", "+ 3", "** 2", "× 0", "× 5"} <= set(ops)
    assert boxes_overlap(page) == []
    page.locator(".ag-graph").screenshot(path=str(ARTIFACTS / "node-values-states.png"))
    assert ignore_favicon(page.console_errors) == []


def test_gradient_on_an_edge_points_back_and_never_covers_a_node(page, site):
    with ag.trace() as tr:
        x = ag.tensor(1.5, requires_grad=True)
        w = ag.tensor(-2.0, requires_grad=True)
        h = x * w
        y = h * h + ag.exp(h) * x + w
        y.backward()
    doc = open_doc(page, site, tr, dict(x=x, w=w, h=h, y=y), "edge_labels", direction="TB")
    assert not page.is_visible(".ag-legend-item")  # the key waits for the backward pass
    seen = 0
    for event in doc["events"]:
        page.click("button[data-action=step]")
        labels = page.eval_on_selector_all(".ag-edge-grad text", "els => els.map(e => e.textContent)")
        if event["type"] != "backward_step":
            continue
        assert page.is_visible(".ag-legend-item[data-state=none]")
        sent = [g for g in event["grad_inputs"] if g["node"] and g["grad"]]
        assert len(labels) >= len(sent) and all(label.startswith("↑ ") for label in labels), labels
        seen += len(labels)
        covered = labels_over_boxes(page)
        assert covered == [], (event["node"], labels)
        assert page.locator("path.ag-edge.ag-active[marker-start]").count() >= 1
    assert seen > 0
    assert ignore_favicon(page.console_errors) == []


def test_forward_captions_are_the_arithmetic_with_the_engines_numbers(page, site):
    with ag.trace() as tr:
        a = ag.tensor(2.0, requires_grad=True)
        b = ag.tensor(-3.0, requires_grad=True)
        u = a * b
        v = u * 2 + 1
    names = dict(a=a, b=b, u=u, v=v)
    doc = open_doc(page, site, tr, names, "forward_arithmetic")
    said = []
    for _ in doc["events"]:
        page.click("button[data-action=step]")
        said.append(page.text_content(".ag-caption"))
    assert "forward: a = 2" in said and "forward: b = -3" in said
    assert f"forward: u = a × b = 2 × (-3) = {int(u.item())}" in said
    # v = u*2 + 1 = -12 + 1 = -11, each number the engine's (then: no backward was recorded)
    last, _, rest = said[-1].partition(" — ")
    assert rest.startswith("the graph is built; no backward pass was recorded"), said[-1]
    assert last.startswith("forward: v = u*2 + 1 = ") and last.endswith(f"= {int(v.item())}"), last
    assert f"{int((u * 2).item())} + 1" in last


def test_predict_mode_asks_judges_and_records_each_leafs_gradient(page, site):
    tr, names = readme_example()
    doc = open_doc(page, site, tr, names, "predict", predict=True)
    assert page.get_attribute("button[data-action=predict]", "aria-pressed") == "true"
    total = len(doc["events"])
    page.click("button[data-action=last]")  # stops before the step that sends the first leaf its gradient
    leaves = {tr.node_id(names[name]): name for name in "abcd"}
    sent = next(ev for ev in doc["events"] if ev["type"] == "backward_step"
                and any(g.get("node") in leaves for g in ev["grad_inputs"]))
    first = next(g for g in sent["grad_inputs"] if g.get("node") in leaves)
    leaf = leaves[first["node"]]
    assert page.text_content(".ag-predict-question").strip() == f"What will {leaf}.grad be?"
    assert counter(page) != f"{total} / {total}"
    assert page.text_content(f".ag-grad-badge[data-id={first['node']}]") == ""
    expected = names[leaf].grad.item()
    page.fill(".ag-predict-input", "99")
    page.press(".ag-predict-input", "Enter")
    assert page.text_content(".ag-verdict.ag-wrong .ag-verdict-text") == f"✗ 99 is not {leaf}.grad"
    assert page.text_content(f".ag-grad-badge[data-id={first['node']}]") == ""  # still hidden
    page.fill(".ag-predict-input", f"{expected:.4g}")  # as the screen writes it
    page.click("button[data-action=predict-check]")
    verdicts = page.eval_on_selector_all(".ag-verdict", "els => els.map(e => e.textContent)")
    assert len(verdicts) == 2 and verdicts[1].startswith(f"✓ {expected:.4g} is right"), verdicts
    why = page.text_content(".ag-predict-why")
    for _ in range(3):  # the product on its edge now; .grad once the accumulate is stepped
        if page.text_content(f".ag-grad-badge[data-id={first['node']}]"):
            break
        page.click("button[data-action=step]")
    assert np.isclose(float(page.text_content(f".ag-grad-badge[data-id={first['node']}]")), expected, rtol=1e-3)
    assert f"{leaf}.grad = {expected:.4g}" in why and "·" in why  # the chain-rule product
    page.locator(".ag-graph").screenshot(path=str(ARTIFACTS / "predict-answered.png"))
    # the rest: "show me" for each leaf left, then the end
    for _ in range(3):
        page.click("button[data-action=last]")
        page.click("button[data-action=predict-reveal]")
    page.click("button[data-action=last]")  # the pass's end, and its summary
    assert page.text_content(".ag-predict-summary") == \
        "This pass: 0 right first time, 1 right after a hint, 3 revealed."
    assert counter(page) == f"{total} / {total}"
    predictions = page.evaluate("window.model.get('predictions')")
    assert (predictions["right"], predictions["wrong"], predictions["revealed"]) == (1, 1, 3)
    assert predictions["attempts"][0]["name"] == leaf and not predictions["attempts"][0]["correct"]
    # the toolbar toggle turns it off
    page.click("button[data-action=predict]")
    assert page.evaluate("window.model.get('predict')") is False
    assert ignore_favicon(page.console_errors) == []


TEXT_CONTRAST = measuring("""
  const out = [];
  for (const node of document.querySelectorAll('g.ag-node[data-kind=tensor]:not(.ag-hidden)')) {
    const fill = rgb(getComputedStyle(node.querySelector('.ag-shape')).fill);
    for (const t of node.querySelectorAll('.ag-title, .ag-cell, .ag-grad-key, .ag-grad-badge text')) {
      const own = rgb(getComputedStyle(t).fill);
      out.push({ text: t.textContent, cls: t.getAttribute('class'), ratio: ratio(own, fill) });
    }
  }
  return out;
""")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_values_and_gradients_are_readable_on_their_boxes(page, site, theme):
    with ag.trace() as tr:
        x = ag.tensor(3.0, requires_grad=True)
        w = ag.tensor([[1.0, 2.0], [3.0, 4.5]], requires_grad=True)
        k = ag.tensor(2.0)
        y = (x * k + 3) ** 2 + (w * 0.0).sum()
        y.backward()
    open_doc(page, site, tr, dict(x=x, w=w, k=k, y=y), f"contrast_{theme}", theme=theme)
    page.goto(page.url.replace("&model=", f"&theme={theme}&model="))
    page.wait_for_function("window.viewReady === true", timeout=30_000)
    page.click("button[data-action=last]")
    ratios = page.evaluate(TEXT_CONTRAST)
    assert {r["cls"] for r in ratios} >= {"ag-title", "ag-cell", "ag-grad-key", "ag-start"}
    low = [r for r in ratios if r["ratio"] < 4.5]
    assert not low, low


TEXT_OUTSIDE = """() => {
  const out = [];
  for (const node of document.querySelectorAll('g.ag-node[data-kind=tensor]:not(.ag-hidden)')) {
    const box = node.querySelector('.ag-shape').getBoundingClientRect();
    for (const t of node.querySelectorAll('.ag-title, .ag-cell, .ag-grad-key, .ag-grad-badge text')) {
      const r = t.getBoundingClientRect();
      const outside = r.left < box.left - 1 || r.right > box.right + 1
        || r.top < box.top - 1 || r.bottom > box.bottom + 1;
      if (r.width && outside) out.push(t.textContent);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("fixture", ["nan_sqrt", "mlp_scopes", "dynamic_passes", "e_labelled", "large_matmul"])
def test_every_value_and_gradient_stays_inside_its_box(page, site, fixture):
    doc = json.loads((ROOT / "js" / "test" / "fixtures" / f"{fixture}.json").read_text())
    open_view(page, site, fixture, step=len(doc["events"]))
    page.click("button[data-action=fit]")
    assert page.evaluate(TEXT_OUTSIDE) == []
