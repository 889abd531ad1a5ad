"""The built widget bundle in Chromium without JupyterLab: js/bench/view.html mounts
it on a trace fixture with a fake anywidget model. Checks the DOM hooks documented
in js/README.md: labels, stepping, grad badges, keyboard, errors, XSS, inspector,
collapse, export. (The JupyterLab test drives the same hooks through a notebook.)
"""
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from view_page import counter, ignore_favicon, open_document, open_view

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


def test_step_through_forward_and_backward(page, site):
    open_view(page, site, "e_labelled")
    assert counter(page) == "0 / 22"
    assert page.locator("g.ag-node:not(.ag-hidden)").count() == 0
    for k in range(1, 13):
        page.click("button[data-action=step]")
        assert counter(page) == f"{k} / 22"
    labels = page.eval_on_selector_all("g.ag-node[data-kind=tensor] .ag-label", "els => els.map(e => e.textContent)")
    assert {"a", "b", "c", "d", "e", "a*b", "log(d)", "log(d)*c"} <= set(labels)
    assert not any(label.startswith(("t", "op")) and label[-1].isdigit() for label in labels)  # no ids
    assert page.locator("g.ag-node.ag-hidden").count() == 0
    current_ops = []
    for _ in range(12, 22):
        page.click("button[data-action=step]")
        current_ops += page.eval_on_selector_all("g.ag-node.ag-current", "els => els.map(e => e.dataset.id)")
    assert [i for i in current_ops if i.startswith("op")] == ["op3", "op2", "op1", "op0"]
    badges = {b: page.text_content(f".ag-grad-badge[data-id={b}]") for b in ("t0", "t1", "t2", "t3")}
    assert badges == {"t0": "-3", "t1": "2", "t2": "1.386", "t3": "2.5"}
    page.click("button[data-action=first]")
    assert counter(page) == "0 / 22"
    page.click("button[data-action=last]")
    assert counter(page) == "22 / 22"
    assert ignore_favicon(page.console_errors) == []


def test_backward_step_shows_the_chain_rule(page, site):
    open_view(page, site, "e_labelled", step=19)  # the MulBackward0 of a*b
    assert page.get_attribute("g.ag-node.ag-current", "data-id") == "op0"
    products = page.eval_on_selector_all(".ag-product", "els => els.map(e => e.title)")
    assert "∂e/∂a = ∂e/∂(a*b) · ∂(a*b)/∂a = 1 · -3 = -3" in products
    assert page.locator(".ag-math .katex").count() >= 3
    assert page.locator(".ag-edge.ag-active").count() == 3  # the output edge and two inputs


def test_keyboard_only_with_focus(page, site):
    open_view(page, site, "e_labelled", step=5)
    page.keyboard.press("ArrowRight")
    assert counter(page) == "5 / 22", "no focus, no shortcut"
    page.focus(".ag-graph")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert counter(page) == "6 / 22"
    page.keyboard.press(" ")
    page.wait_for_function("document.querySelector('.ag-step-counter').textContent !== '6 / 22'", timeout=5_000)
    page.keyboard.press(" ")
    assert page.text_content("button[data-action=play]") == "▶"


def test_labels_are_text_never_html(page, site):
    open_view(page, site, "xss_label", step=22)
    label = page.text_content("g.ag-node[data-id=t0] .ag-label")
    assert label == "<img src=x onerror=alert(1)>"
    assert page.locator(".ag-graph img").count() == 0
    page.click("g.ag-node[data-id=t0]")
    assert "<img src=x onerror=alert(1)>" in page.text_content(".ag-inspector .ag-title")
    assert page.locator(".ag-graph img").count() == 0
    assert ignore_favicon(page.console_errors) == []


def test_error_marks_the_op_in_red_with_its_message(page, site):
    open_view(page, site, "error_matmul", step=6)
    assert "mat1 and mat2 shapes cannot be multiplied" in page.text_content(".ag-error")
    assert page.get_attribute("g.ag-node.ag-error-node", "data-id") == "op1"


def test_inspector_collapse_direction_and_export(page, site):
    open_view(page, site, "mlp_scopes", step=38)
    page.click("g.ag-node[data-id=t0]")
    text = page.text_content(".ag-inspector")
    for word in ("shape", "dtype", "float32", "device", "grad"):
        assert word in text
    first_op = page.eval_on_selector("g.ag-node[data-kind=op]", "e => e.dataset.id")
    page.click(f"g.ag-node[data-id={first_op}]")
    assert "grad_fn" in page.text_content(".ag-inspector")
    before = page.locator("g.ag-node").count()
    inner = page.evaluate("() => model.get('trace').nodes.find(n => n.scope === 'MLP.fc1' && n.kind === 'op').id")
    page.click(f"g.ag-node[data-id={inner}]")
    page.click("button[data-action=collapse]")
    assert page.locator("g.ag-node[data-kind=scope]").count() == 1
    assert page.locator("g.ag-node").count() < before
    page.dblclick("g.ag-node[data-kind=scope]")
    assert page.locator("g.ag-node").count() == before
    page.click("button[data-action=direction]")
    assert page.text_content("button[data-action=direction]") == "TB"
    with page.expect_download() as svg:
        page.click("button[data-action=export-svg]")
    content = Path(svg.value.path()).read_text()
    assert content.startswith("<svg") and "ag-node" in content
    with page.expect_download() as png:
        page.click("button[data-action=export-png]")
    assert Path(png.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert ignore_favicon(page.console_errors) == []


def test_pass_selector_marks_unused_parameters(page, site):
    doc = json.loads((ROOT / "js" / "test" / "fixtures" / "dynamic_passes.json").read_text())
    total, first = len(doc["events"]), doc["passes"][0]
    open_view(page, site, "dynamic_passes", step=total)
    page.select_option("select.ag-pass", "0")
    assert counter(page) == f"{first['last_event'] + 1} / {total}"
    unused = page.eval_on_selector_all("g.ag-node.ag-pass-unused", "els => els.map(e => e.dataset.id)")
    assert unused == first["params_unused"]  # mid.weight, mid.bias: the loop ran 0 times
    for node_id in unused:
        assert page.text_content(f"g.ag-node[data-id={node_id}] .ag-note") == "grad is None"
        # and no badge left over from another pass claims a gradient for it
        assert page.text_content(f".ag-grad-badge[data-id={node_id}]") == "None"
    page.click("button[data-action=first]")
    assert counter(page) == f"{first['first_event'] + 1} / {total}", "|◀ lands on the pass's first event"
    page.select_option("select.ag-pass", "2")
    assert page.locator("g.ag-node.ag-pass-added").count() > 0  # mid runs twice, once in pass 1


def test_a_document_of_another_major_version_shows_a_message_not_a_drawing(page, site):
    doc = json.loads((ROOT / "js" / "test" / "fixtures" / "e_labelled.json").read_text())
    doc["version"] = "2.0"
    path = ROOT / "test-artifacts" / "docs" / "version_2.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    page.goto(site + "?doc=../../test-artifacts/docs/version_2.json&step=0")
    page.wait_for_function("window.viewReady === true", timeout=30_000)
    assert "version 2.0 trace document" in page.locator(".ag-doc-problem").inner_text()
    assert page.locator(".ag-canvas g.ag-node:visible").count() == 0
    assert ignore_favicon(page.console_errors) == []


def test_the_exported_svg_keeps_what_the_screen_shows(page, site):
    # mid-backward: values on the nodes, gradients beside them, the gradients the walked
    # edges carry back; the exported file must say all of it, as the screen does
    open_view(page, site, "e_labelled", step=19)
    on_screen = set(page.eval_on_selector_all(".ag-svg text", "els => els.filter(e => e.getClientRects().length)"
                                                             ".map(e => e.textContent)"))
    edge_labels = {t for t in on_screen if t.startswith("←")}
    assert edge_labels and "a = 2" in "".join(on_screen)
    with page.expect_download() as svg:
        page.click("button[data-action=export-svg]")
    root = ET.fromstring(Path(svg.value.path()).read_text())
    texts = {"".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert edge_labels <= texts, (edge_labels, texts)
    for shown in ("a = 2", "b = -3", "log(d) = 1.386", "grad = ", "2.5", "1.386"):
        assert shown in texts, (shown, texts)


def test_a_minimap_shows_where_the_view_is_on_a_large_graph_and_pans_there(page, site):
    page.goto(site + "?synth=300&step=0")
    page.wait_for_function("window.viewReady === true", timeout=30_000)
    page.wait_for_selector(".ag-graph g.ag-node", state="attached")
    page.click("button[data-action=last]")  # every node drawn; the end fits the answer (leaves and loss)
    page.click("button[data-action=back]")  # the last step: its node at a readable zoom, the rest off screen
    minimap = page.locator(".ag-minimap")
    assert minimap.is_visible(), "a graph larger than the view gets an overview"
    frame = page.locator(".ag-minimap-frame").bounding_box()
    box = minimap.bounding_box()
    assert frame["width"] < box["width"], "the frame shows the part on screen, not the whole"
    before = page.get_attribute(".ag-viewport", "transform")
    minimap.click(position={"x": box["width"] - 6, "y": box["height"] / 2})  # the far end of the graph
    page.wait_for_function("b => document.querySelector('.ag-viewport').getAttribute('transform') !== b", arg=before)
    open_view(page, site, "e_labelled", step=22)  # a small graph fits: no overview
    assert not page.locator(".ag-minimap").is_visible()
    assert ignore_favicon(page.console_errors) == []


def test_after_backward_a_branch_the_loss_does_not_depend_on_is_dimmed(page, site):
    import ag_jupyter as ag
    from ag_jupyter.widgets.labels import label_trace

    with ag.trace() as tr:
        x = ag.tensor(2.0, requires_grad=True)
        unused = ag.exp(x)  # computed, never part of the loss
        loss = x * 3
        loss.backward()
    label_trace(tr, {"x": x, "unused": unused, "loss": loss})
    path = ROOT / "test-artifacts" / "docs" / "dead_branch.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(tr.to_dict()))
    open_view(page, site, "test-artifacts/docs/dead_branch.json", step=0)
    page.click("button[data-action=last]")
    dimmed = page.eval_on_selector_all("g.ag-node.ag-dead .ag-label", "els => els.map(e => e.textContent)")
    assert dimmed == ["exp", "unused"], dimmed
    opacity = page.eval_on_selector("g.ag-node.ag-dead", "e => getComputedStyle(e).opacity")
    assert float(opacity) < 0.6
    assert page.locator("g.ag-node.ag-dead", has_text="loss").count() == 0


def test_the_inspector_opens_on_a_click_and_keeps_the_clicked_node_in_view(page, site):
    open_view(page, site, "e_labelled", step=22)
    width = lambda sel: page.eval_on_selector(sel, "e => e.getBoundingClientRect().width")  # noqa: E731
    assert width(".ag-inspector") < 1, "folded away while nothing is selected"
    assert width(".ag-canvas") >= width(".ag-main") - 1, "the graph has the whole width"
    # the rightmost node: the one the opening inspector would cover
    right = page.evaluate("""() => [...document.querySelectorAll('g.ag-node[data-kind=tensor]')]
        .map(g => [g.dataset.id, g.getBoundingClientRect().right]).sort((a, b) => b[1] - a[1])[0][0]""")
    page.click(f"g.ag-node[data-id={right}]")
    assert 230 <= width(".ag-inspector") <= 250
    page.wait_for_timeout(600)  # the pan glides for 240 ms
    box = page.eval_on_selector(f"g.ag-node[data-id={right}] .ag-shape", "e => e.getBoundingClientRect().toJSON()")
    canvas = page.eval_on_selector(".ag-canvas", "e => e.getBoundingClientRect().toJSON()")
    assert canvas["left"] <= box["left"] and box["right"] <= canvas["right"], (box, canvas)
    page.click(".ag-svg", position={"x": 5, "y": 5})  # the background: nothing selected
    assert width(".ag-inspector") < 1


def test_an_empty_tensor_shows_its_shape_and_no_min_or_max(page, site):
    import ag_jupyter as ag

    with ag.trace() as t:
        empty = ag.zeros(0, 4, requires_grad=True)
        (empty.sum() + ag.tensor(2.0, requires_grad=True)).backward()
    open_document(page, site, t.to_dict(), "empty_tensor", step=3)
    leaf = page.evaluate("() => model.get('trace').nodes.find(n => n.kind === 'tensor' && n.shape.length === 2).id")
    text = page.locator(f"g.ag-node[data-id={leaf}]").text_content()
    assert "[0,4]" in text and "min" not in text and "nan" not in text.lower(), text
    assert ignore_favicon(page.console_errors) == []


def test_a_heatmap_draws_an_infinity_as_one_even_among_zeros(page, site):
    # A 10x10 value whose even rows are +inf and odd rows 0 (a large summary: a preview).
    # Its heatmap once drew the infs as zeros (white); an infinity is magenta, as NaN is.
    import numpy as np
    from conftest import ARTIFACTS

    import ag_jupyter as ag

    values = np.zeros((10, 10), dtype=np.float32)
    values[::2] = np.inf
    with ag.trace() as t:
        x = ag.tensor(values, requires_grad=True)
        (x * 2).sum()
    open_document(page, site, t.to_dict(), "heatmap_infinity", step=3)
    leaf = page.evaluate("() => model.get('trace').nodes.find(n => n.kind === 'tensor' && n.is_leaf).id")
    box = page.locator(f"g.ag-node[data-id={leaf}]")
    # its min and max are the finite entries' (0 and 0): the box says there are 50 infinities too,
    # in view inside the box, and so does what a screen reader reads of it
    warning = box.locator("text.ag-bad")
    assert warning.text_content() == "⚠ 50 inf"
    inside, shape = warning.bounding_box(), box.locator(".ag-shape").bounding_box()
    assert shape["y"] <= inside["y"] and inside["y"] + inside["height"] <= shape["y"] + shape["height"], (inside, shape)
    assert "min 0, max 0" in box.get_attribute("aria-label") and "50 inf entries" in box.get_attribute("aria-label")
    page.click(f"g.ag-node[data-id={leaf}]")
    page.wait_for_selector(".ag-inspector canvas.ag-heatmap")
    colours = page.eval_on_selector(".ag-inspector canvas.ag-heatmap", """c => {
        const cell = c.width / 10, ctx = c.getContext('2d');
        const at = (r) => ctx.getImageData(cell * 4 + cell / 2, cell * r + cell / 2, 1, 1).data;
        return [0, 1, 2, 9].map(r => [...at(r)].slice(0, 3));
    }""")
    assert colours == [[255, 0, 255], [255, 255, 255], [255, 0, 255], [255, 255, 255]]
    page.screenshot(path=str(ARTIFACTS / "heatmap-infinity.png"))
    assert ignore_favicon(page.console_errors) == []
