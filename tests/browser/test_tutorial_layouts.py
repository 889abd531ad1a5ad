"""Each tutorial's main widget, drawn left to right and top to bottom: stepped to the end
one press at a time, no gradient label ever covers a node box, and at the end no two node
boxes overlap and no module's name covers a node (measured from the rendered DOM's
bounding boxes). Played from 0 as a new widget is, it stops where the backward begins with
a caption that says what to press. Each exercise's result, the change applied. Screenshots
of each, in the light and the dark theme, go to test-artifacts/tutorials/."""
from pathlib import Path

import pytest
from conftest import ARTIFACTS
from example_graphs import EXERCISE_WIDGETS, TUTORIAL_EXERCISES, TUTORIAL_WIDGETS, tutorial_widget
from geometry import boxes_overlap, labels_over_boxes, outline_labels_over_boxes
from view_page import counter, ignore_favicon, open_document

pytestmark = pytest.mark.browser
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
SHOTS = ARTIFACTS / "tutorials"


@pytest.fixture(scope="module")
def tutorial_views(ip):
    """{notebook: (document, view traits)} for each tutorial's main widget."""
    out = {}
    for name, cell, expr in TUTORIAL_WIDGETS:
        if name.startswith("06") and not _has_torch():
            continue
        widget = tutorial_widget(ip, NOTEBOOKS / f"{name}.ipynb", cell, expr)
        view = {k: getattr(widget, k) for k in ("max_nodes", "collapsed", "hide_constants", "pass_index")}
        out[name] = (widget.trace, view)
    return out


def _has_torch():
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.parametrize("direction", ["LR", "TB"])
@pytest.mark.parametrize("name", [name for name, _, _ in TUTORIAL_WIDGETS])
def test_no_overlaps_stepping_a_tutorial_to_the_end(page, site, tutorial_views, name, direction):
    if name not in tutorial_views:
        pytest.skip("PyTorch is not installed")
    doc, view = tutorial_views[name]
    open_document(page, site, doc, f"{name}_{direction}", step=0, direction=direction, **view)
    total = int(counter(page).split(" / ")[1])
    covered = []
    for _ in range(total):
        page.click("button[data-action=step]")
        hit = labels_over_boxes(page)
        if hit:
            covered.append((counter(page), hit))
    assert counter(page) == f"{total} / {total}"
    assert covered == []
    assert boxes_overlap(page) == []
    assert outline_labels_over_boxes(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    if direction == "LR":  # as a learner first sees it, at the end of the backward pass
        open_document(page, site, doc, f"{name}_{direction}", step=total, direction=direction, **view)
        page.locator(".ag-graph").screenshot(path=str(SHOTS / f"{name}-light.png"))
        open_document(page, site, doc, f"{name}_{direction}", step=total, theme="dark", direction=direction, **view)
        page.locator(".ag-graph").screenshot(path=str(SHOTS / f"{name}-dark.png"))
    assert ignore_favicon(page.console_errors) == []


def _play_until_it_waits(page):
    """The widget as a learner finds it after Run All: played from 0, as a new widget is,
    until playing stops by itself; returns (counter, caption)."""
    page.wait_for_function("() => document.querySelector('button[data-action=play]').textContent === '▶'",
                           timeout=60_000)
    return counter(page), page.text_content(".ag-caption")


@pytest.mark.parametrize("name", [name for name, _, _ in TUTORIAL_WIDGETS])
def test_a_tutorials_widget_builds_its_graph_and_waits(page, site, tutorial_views, name):
    """Screenshots (light, dark) of each tutorial's main widget where it waits for the learner."""
    if name not in tutorial_views:
        pytest.skip("PyTorch is not installed")
    doc, view = tutorial_views[name]
    SHOTS.mkdir(parents=True, exist_ok=True)
    for theme in ("light", "dark"):
        open_document(page, site, doc, f"{name}_waits", step=0, theme=theme, playing=True, speed=32, **view)
        at, caption = _play_until_it_waits(page)
        step, total = map(int, at.split(" / "))
        assert step < total and caption.startswith("the graph is built: press → to step"), (at, caption)
        page.locator(".ag-graph").screenshot(path=str(SHOTS / f"{name}-waits-{theme}.png"))
    assert ignore_favicon(page.console_errors) == []


@pytest.mark.parametrize("name, cell, widget", EXERCISE_WIDGETS, ids=[name for name, _, _ in EXERCISE_WIDGETS])
def test_an_exercises_result(page, site, ip, name, cell, widget):
    """Each exercise that draws a graph, with the change its text asks for: built, it waits
    like any widget; stepped to the end, screenshots (light, dark) of the result."""
    if name.startswith("06"):
        pytest.importorskip("torch")
    change = TUTORIAL_EXERCISES[name]["replace"]
    doc = tutorial_widget(ip, NOTEBOOKS / f"{name}.ipynb", cell, widget, change=change).trace
    open_document(page, site, doc, f"{name}_exercise", step=0, playing=True, speed=32)
    at, caption = _play_until_it_waits(page)
    if doc_has_backward(doc):
        assert caption.startswith("the graph is built: press → to step"), (at, caption)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for theme in ("light", "dark"):
        open_document(page, site, doc, f"{name}_exercise", step=len(doc["events"]), theme=theme)
        page.locator(".ag-graph").screenshot(path=str(SHOTS / f"{name}-exercise-{theme}.png"))
    assert ignore_favicon(page.console_errors) == []


def doc_has_backward(doc):
    return any(e["type"] == "backward_begin" for e in doc["events"])


def test_tutorial_4s_collapsed_layer_opens_on_a_double_click(page, site, tutorial_views):
    """The text says: double-click a box to open it. It opens that module, and only it."""
    doc, view = tutorial_views["04_dynamic_networks"]
    open_document(page, site, doc, "04_open_a_layer", step=len(doc["events"]), **view)
    boxes = page.locator("g.ag-node[data-kind=scope]")
    assert boxes.count() == 3  # one box per layer
    boxes.filter(has_text="input_linear").first.dispatch_event("dblclick")
    assert page.evaluate("window.model.get('collapsed')") == ["model.middle_linear", "model.output_linear"]
    assert page.locator("g.ag-node[data-kind=scope]").filter(has_text="input_linear").count() == 0
    assert ignore_favicon(page.console_errors) == []
