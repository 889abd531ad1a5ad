"""Follow the step: after every step a person takes (the arrow keys, the step buttons, the
scrubber) and every step set from outside (as Python sets `step`), the current node's box
lies inside the canvas, clear of the overview, with its text at least 11 px on screen.
Measured from bounding boxes on a 200-node graph and on a three-pass DynamicNet."""
from pathlib import Path

import pytest
from conftest import ARTIFACTS
from example_graphs import THREE_PASSES_CELL, THREE_PASSES_SETUP, three_passes_widget
from geometry import current_in_view
from view_page import counter, ignore_favicon, open_document

pytestmark = pytest.mark.browser


def transform(page):
    return page.get_attribute(".ag-viewport", "transform")


def step_count(page):
    return int(counter(page).split(" / ")[1])


def drive(page, total):
    """Step to the end as a person might, mixing every way of stepping, and measure after
    each step; some steps go back. Returns the steps where the current node was not in view."""
    page.focus(".ag-graph")  # as Tab does: a click could land on a node and select it
    ways = ["key", "key", "button", "key", "scrubber", "python", "key", "back"]
    wrong, i, step = [], 0, 0
    while step < total:
        way = ways[i % len(ways)]
        i += 1
        if way == "key":
            page.keyboard.press("ArrowRight")
        elif way == "back":
            page.keyboard.press("ArrowLeft")
        elif way == "button":
            page.click("button[data-action=step]")
        elif way == "scrubber":
            page.focus(".ag-scrubber")
            page.keyboard.press("ArrowRight")  # a range input moves one step per key
            page.focus(".ag-graph")
        else:  # what Python's `w.step = n` does to the model
            page.evaluate("n => { window.model.set('step', n); window.model.save_changes(); }", step + 1)
        step = int(counter(page).split(" / ")[0])
        seen = current_in_view(page)
        if seen and not (seen["inside"] and not seen["underMinimap"] and seen["text"] >= 10.95):
            wrong.append((step, way, seen))
    return wrong


def test_stepping_a_200_node_graph_keeps_the_current_node_in_view_and_readable(page, site):
    page.goto(site + "?synth=200&step=0")
    page.wait_for_function("window.viewReady === true", timeout=30_000)
    assert page.locator("g.ag-node").count() >= 190
    assert drive(page, step_count(page)) == []
    page.locator(".ag-graph").screenshot(path=str(ARTIFACTS / "follow-step-200.png"))
    # f fits everything (text may be small then) and the fit stays through steps; the
    # learner's own zoom hands the view back to the camera: the next step is readable.
    # This graph is ~17,000 px long: whole it would be 0.06x, boxes 1.5 px tall, so f
    # stops at framing.js's FIT_FLOOR (0.3x), as far out as boxes still show
    page.keyboard.press("f")
    page.wait_for_timeout(300)
    fitted = transform(page)
    assert float(fitted.split("scale(")[1].rstrip(")")) == pytest.approx(0.3), fitted
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    seen = current_in_view(page, min_text=0)
    assert seen["inside"] and transform(page) == fitted, seen
    box = page.locator(".ag-svg").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -120)  # the widget has focus: the wheel zooms it
    page.keyboard.press("ArrowRight")
    seen = current_in_view(page)
    assert seen["inside"] and seen["text"] >= 10.95, seen
    assert ignore_favicon(page.console_errors) == []


@pytest.mark.parametrize("direction", ["LR", "TB"])
def test_stepping_tutorial_4s_model_keeps_the_current_node_in_view(page, site, ip, direction):
    widget = three_passes_widget(ip)
    open_document(page, site, widget.trace, f"tutorial4_{direction}", step=0, direction=direction)
    assert drive(page, step_count(page)) == []
    assert ignore_favicon(page.console_errors) == []


def test_a_step_set_from_python_in_jupyterlab_brings_the_node_into_view(lab, page):
    """The real thing: the three-pass DynamicNet cell in JupyterLab, then `w.step = n` in the kernel."""
    from lab_harness import open_notebook, run_all_cells, write_notebook

    root, base, token = lab
    source = [THREE_PASSES_SETUP, THREE_PASSES_CELL]
    steps = (40, 75, 100)
    write_notebook(root / "follow_python.ipynb", [*source, "w = _\nprint('from', ag.__file__)"])
    open_notebook(page, base, token, "follow_python.ipynb")
    run_all_cells(page, timeout_ms=180_000)
    widget = page.locator(".ag-graph").first
    widget.locator("g.ag-node").first.wait_for(timeout=30_000)
    # this checkout's package and bundle (module outlines are new in it), not an installed one
    assert f"from {Path(__file__).resolve().parents[2]}" in page.locator(".jp-OutputArea").last.inner_text()
    assert widget.locator(".ag-outline").count() > 0
    # Python code in the notebook's kernel sets the step, as a learner's cell would. It pauses
    # first: a widget still playing its forward pass (on a loaded machine it may be) goes on
    # from the step it is given to the next pause, as a playing slider does.
    for step in steps:
        page.evaluate("""code => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel
                         .requestExecute({ code }).done""", f"w.playing = False\nw.step = {step}")
        page.wait_for_function("s => document.querySelector('.ag-step-counter').textContent.startsWith(s + ' /')",
                               arg=step, timeout=60_000)
        seen = current_in_view(page, root=".ag-graph")
        assert seen and seen["inside"] and not seen["underMinimap"] and seen["text"] >= 10.95, (step, seen)
    assert [e for e in page.console_errors if "favicon" not in e] == []
