"""Large graphs keep their structure: the three-pass DynamicNet (example_graphs) drawn with an outline per
module call, named, the loop's consecutive calls of middle_linear outlined together as
"middle_linear ×2"; a click on a name collapses that module into one box and a double
click on the box opens it again. Measured from the rendered DOM."""

import pytest
from example_graphs import three_passes_widget
from view_page import ignore_favicon, open_document

pytestmark = pytest.mark.browser

def pan_to(page, selector):
    """Drag the canvas, as a person pans, until ``selector`` is at the canvas's centre."""
    canvas = page.locator(".ag-canvas").bounding_box()
    target = page.locator(selector).bounding_box()
    cx, cy = canvas["x"] + canvas["width"] / 2, canvas["y"] + canvas["height"] / 2
    dx, dy = cx - (target["x"] + target["width"] / 2), cy - (target["y"] + target["height"] / 2)
    start = (canvas["x"] + 4, canvas["y"] + canvas["height"] / 2)  # the margin: no node there
    start = (start[0] if dx >= 0 else canvas["x"] + canvas["width"] - 4, start[1])
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + dx, start[1] + dy, steps=8)
    page.mouse.up()


def outline_labels(page):
    return page.eval_on_selector_all(".ag-outline:not(.ag-hidden) .ag-outline-label",
                                     "els => els.map(e => e.textContent)")


def test_module_calls_and_the_loops_repeats_are_outlined_named_and_collapse(page, site, ip):
    widget = three_passes_widget(ip)
    doc = widget.trace
    open_document(page, site, doc, "tutorial4_outlines", step=len(doc["events"]))
    labels = outline_labels(page)
    # three passes, three calls of the model; each with its layers
    assert labels.count("model") == 3, labels
    assert labels.count("input_linear") == 3 and labels.count("output_linear") == 3, labels
    # the passes called middle_linear 1, 0 and 2 times: the two calls are one repeat
    assert labels.count("middle_linear ×2") == 1 and labels.count("middle_linear") == 3, labels
    # every node drawn inside the outlines of the module calls that made it
    scopes = {n["id"]: n.get("scope") or "" for n in doc["nodes"]}
    strays = page.evaluate("""(scopes) => {
      const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
        && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
      const outlines = [...document.querySelectorAll('.ag-outline-module')]
        .map(g => [g.dataset.scope, g.querySelector('rect').getBoundingClientRect()]);
      return [...document.querySelectorAll('g.ag-node')].filter(n => {
        const scope = scopes[n.dataset.id] || '';
        const mine = outlines.filter(([s]) => scope === s || scope.startsWith(s + '.'));
        return scope && !mine.some(([, box]) => inside(n.querySelector('.ag-shape').getBoundingClientRect(), box));
      }).map(n => n.dataset.id);
    }""", scopes)
    assert strays == []
    # a click on the repeat's name collapses middle_linear into one box ...
    pan_to(page, ".ag-outline-repeat .ag-outline-label")
    page.click(".ag-outline-repeat .ag-outline-label")
    box = page.locator("g.ag-node[data-kind=scope]")
    assert box.count() == 1 and "middle_linear" in box.text_content()
    assert "middle_linear ×2" not in outline_labels(page)
    assert page.evaluate("window.model.get('collapsed')") == ["model.middle_linear"]
    # ... and a double click on the box opens it again
    pan_to(page, "g.ag-node[data-kind=scope]")
    box.dblclick()
    assert page.locator("g.ag-node[data-kind=scope]").count() == 0
    assert "middle_linear ×2" in outline_labels(page)
    assert ignore_favicon(page.console_errors) == []
