"""The camera serves the step (issue 31, item 5), measured from bounding boxes on the
three-pass DynamicNet (example_graphs: 67 nodes, 119 steps) and a 1,000-node graph:

- after every step and every jump, the current node's box lies wholly inside the canvas;
- at the end of a pass (End, or stepping onto it) the answer is in view: the loss and
  every leaf the pass reached, not one node;
- "fit" stays through steps, jumps and clicks on nodes until the learner zooms or pans;
- a big graph waiting for its backward is shown whole, its start not cut off."""
import pytest
from conftest import ARTIFACTS
from example_graphs import three_passes_widget
from view_page import counter, ignore_favicon, open_document

pytestmark = pytest.mark.browser

# ids (display ids) whose box is not wholly inside the canvas
OUTSIDE = """(ids) => {
  const c = document.querySelector('.ag-canvas').getBoundingClientRect();
  return ids.filter((id) => {
    const g = document.querySelector(`g.ag-node[data-id="${id}"]`);
    const r = g.querySelector('.ag-shape').getBoundingClientRect();
    return !(r.left >= c.left - 0.5 && r.right <= c.right + 0.5 && r.top >= c.top - 0.5 && r.bottom <= c.bottom + 0.5);
  });
}"""

WHOLE_GRAPH_INSIDE = """() => {
  const c = document.querySelector('.ag-canvas').getBoundingClientRect();
  const r = document.querySelector('.ag-nodes').getBoundingClientRect();
  return r.left >= c.left - 1 && r.right <= c.right + 1 && r.top >= c.top - 1 && r.bottom <= c.bottom + 1;
}"""


def outside(page, ids):
    """Wait (glides take 240 ms) until every box of ``ids`` is inside; the ones still out."""
    try:
        page.wait_for_function(f"ids => ({OUTSIDE})(ids).length === 0", arg=ids, timeout=5_000, polling="raf")
    except Exception:  # noqa: BLE001 - the measurement below says which
        pass
    return page.evaluate(OUTSIDE, ids)


def whole_graph_inside(page):
    try:
        page.wait_for_function(WHOLE_GRAPH_INSIDE, timeout=5_000, polling="raf")
    except Exception:  # noqa: BLE001 - the assertion reports it
        pass
    return page.evaluate(WHOLE_GRAPH_INSIDE)


def transform(page):
    page.wait_for_timeout(400)  # any glide has ended
    return page.get_attribute(".ag-viewport", "transform")


def step_now(page):
    return int(counter(page).split(" / ")[0])


def answer(doc, step):
    """The loss and the leaves the pass ending at ``step`` reached (accumulated or left None)."""
    events = doc["events"]
    end = events[step - 1]
    assert end["type"] == "backward_end"
    begin = next(e for e in reversed(events[:step]) if e["type"] == "backward_begin")
    leaves = [e["node"] for e in events[:step] if e["type"] == "accumulate" and e.get("pass", 0) == end.get("pass", 0)]
    return sorted({*begin["roots"], *leaves, *end.get("grad_none", [])})


def current(page):
    return page.evaluate("() => { const g = document.querySelector('g.ag-node.ag-current');"
                         " return g && g.dataset.id; }")


@pytest.fixture
def dynamic_net(ip):
    return three_passes_widget(ip).trace


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_step_keeps_its_node_whole_and_each_pass_ends_on_its_answer(page, site, dynamic_net, theme):
    doc = dynamic_net
    total = len(doc["events"])
    ends = [i + 1 for i, e in enumerate(doc["events"]) if e["type"] == "backward_end"]
    assert total == 119 and len(ends) == 3
    open_document(page, site, doc, f"camera_{theme}", step=0, theme=theme)
    page.focus(".ag-graph")  # as Tab does
    page.keyboard.press("End")
    assert step_now(page) == total
    assert outside(page, answer(doc, total)) == []
    page.locator(".ag-graph").screenshot(path=str(ARTIFACTS / f"camera-end-{theme}.png"))
    page.keyboard.press("Home")
    wrong = []
    for _ in range(total):
        page.keyboard.press("ArrowRight")
        step, node = step_now(page), current(page)
        ids = [node] if node else answer(doc, step) if step in ends else []
        missed = outside(page, ids)
        if missed:
            wrong.append((step, missed))
    assert wrong == []
    # jumps: clicks along the scrubber, as a person clicks the bar
    bar = page.locator(".ag-scrubber").bounding_box()
    for fraction in (0.9, 0.2, 0.55, 0.75):
        page.mouse.click(bar["x"] + bar["width"] * fraction, bar["y"] + bar["height"] / 2)
        node = current(page)
        if node:
            assert outside(page, [node]) == [], (fraction, counter(page))
    assert ignore_favicon(page.console_errors) == []


def test_a_fit_the_learner_chose_stays_until_they_zoom(page, site, dynamic_net):
    doc = dynamic_net
    collapsed = ["model.input_linear", "model.middle_linear", "model.output_linear"]
    open_document(page, site, doc, "camera_fit", step=40, theme="dark", collapsed=collapsed)
    page.click("button[data-action=fit]")
    assert whole_graph_inside(page)
    fitted = transform(page)
    scale = float(fitted.split("scale(")[1].rstrip(")"))
    for key in ("ArrowRight", "ArrowRight", "ArrowLeft", "Home", "ArrowRight", "End"):
        page.keyboard.press(key)
        assert transform(page) == fitted, key
        node = current(page)
        assert not node or outside(page, [node]) == []
    # a click on a node opens the inspector beside the canvas: the graph stays whole, never
    # zoomed in (the old camera went back to its readable zoom); a second click moves nothing
    page.locator("g.ag-node[data-role=leaf]:not(.ag-hidden)").first.click()
    assert page.locator(".ag-inspector").is_visible()
    assert whole_graph_inside(page)
    after_click = transform(page)
    assert float(after_click.split("scale(")[1].rstrip(")")) <= scale + 1e-9
    page.locator("g.ag-node[data-role=leaf]:not(.ag-hidden)").nth(1).click()
    assert transform(page) == after_click
    page.keyboard.press("Escape")  # from the node clicked back to the widget, where arrows step
    before = counter(page)
    page.keyboard.press("ArrowLeft")
    assert counter(page) != before and transform(page) == after_click
    page.locator(".ag-graph").screenshot(path=str(ARTIFACTS / "camera-fit-dark.png"))
    # the learner's own zoom hands the view back: the next step follows at a readable zoom
    box = page.locator(".ag-svg").bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + 20)
    page.mouse.wheel(0, -120)
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    moved = transform(page)
    assert moved != after_click and float(moved.split("scale(")[1].rstrip(")")) >= 1 - 1e-9
    assert ignore_favicon(page.console_errors) == []


def test_a_big_graph_waiting_for_its_backward_is_shown_whole(page, site):
    page.goto(site + "?synth=1000&step=0")
    page.wait_for_function("window.viewReady === true", timeout=30_000)
    wait = page.evaluate("() => window.model.get('trace').events.findIndex(e => e.type === 'backward_begin')")
    # (boxes far from the view are out of the document, cull.js: the trace says how many)
    assert page.evaluate("() => window.model.get('trace').nodes.length") > 300 and wait > 0
    # the step set as Python's `w.step = n` (or a pause in playing) sets it
    page.evaluate("n => { window.model.set('step', n); window.model.save_changes(); }", wait)
    assert whole_graph_inside(page)
    page.focus(".ag-graph")
    page.keyboard.press("ArrowRight")  # the backward's first step: its node, readable again
    node = current(page)
    assert node and outside(page, [node]) == []
    # opened right there (as ``--live`` opens at the forward's end)
    page.goto(site + f"?synth=1000&step={wait}&theme=dark")
    page.wait_for_function("window.viewReady === true", timeout=30_000)
    assert whole_graph_inside(page)
    page.locator(".ag-graph").screenshot(path=str(ARTIFACTS / "camera-waiting-1000-dark.png"))
    assert ignore_favicon(page.console_errors) == []
