""""fit" (f) on a graph too long to show whole stays something a learner can use: on a
1,000-node chain the whole graph would be one hairline (~0.006x), so f frames the current
node at the furthest zoom where boxes are still shapes (framing.js FIT_FLOOR); on a small
graph f still frames everything. Measured from what is on screen: the boxes' rendered size."""
import pytest
from conftest import ARTIFACTS
from test_camera import current, outside, transform, whole_graph_inside
from test_step_cost import chain_document
from view_page import counter, ignore_favicon, open_document

pytestmark = pytest.mark.browser

# the boxes drawn inside the canvas: their rendered width and height
BOXES_IN_VIEW = """() => {
  const c = document.querySelector('.ag-canvas').getBoundingClientRect();
  return [...document.querySelectorAll('g.ag-node:not(.ag-hidden) .ag-shape')]
    .map((s) => s.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.left >= c.left && r.right <= c.right && r.top >= c.top && r.bottom <= c.bottom)
    .map((r) => [r.width, r.height]);
}"""


def scale_of(view_transform):
    return float(view_transform.split("scale(")[1].rstrip(")"))


def test_f_on_a_long_chain_keeps_its_boxes_visible_around_the_current_node(page, site):
    doc = chain_document(500)
    assert len(doc["nodes"]) > 1000
    open_document(page, site, doc, "fit_chain_500", step=len(doc["events"]) // 2, theme="dark")
    page.focus(".ag-graph")
    node = current(page)
    assert node
    page.keyboard.press("f")
    k = scale_of(transform(page))
    assert 0.25 <= k < 1, k  # further out than the readable zoom, yet not a hairline
    boxes = page.evaluate(BOXES_IN_VIEW)
    assert len(boxes) >= 10, boxes  # more of the chain than one step shows
    assert min(h for _, h in boxes) >= 6 and min(w for w, _ in boxes) >= 6, boxes
    assert outside(page, [node]) == [], "the current node is in the fit"
    page.locator(".ag-graph").screenshot(path=str(ARTIFACTS / "fit-chain-500-dark.png"))
    # the fit stays through steps (the view only pans as the current node moves on)
    before = counter(page)
    page.keyboard.press("ArrowRight")
    assert counter(page) != before
    assert scale_of(transform(page)) == pytest.approx(k)
    assert outside(page, [current(page)]) == []
    # a click on a box opens the inspector beside the canvas: the fit's zoom stays, the
    # box clicked in view
    node_id = page.evaluate("""() => { const c = document.querySelector('.ag-canvas').getBoundingClientRect();
      const g = [...document.querySelectorAll('g.ag-node:not(.ag-hidden):not(.ag-current)')].find((n) => {
        const r = n.querySelector('.ag-shape').getBoundingClientRect();
        return r.left > c.left && r.right < c.right && r.top > c.top && r.bottom < c.bottom; });
      return g && g.dataset.id; }""")
    assert node_id
    page.locator(f'g.ag-node[data-id="{node_id}"] .ag-shape').click()
    assert page.locator(".ag-inspector").is_visible()
    assert scale_of(transform(page)) == pytest.approx(k)
    assert outside(page, [node_id]) == []
    assert ignore_favicon(page.console_errors) == []


def test_f_on_a_small_graph_still_frames_everything(page, site):
    doc = chain_document(6)
    open_document(page, site, doc, "fit_chain_6", step=len(doc["events"]) // 2)
    page.focus(".ag-graph")
    page.keyboard.press("f")
    assert whole_graph_inside(page)
    assert scale_of(transform(page)) <= 1.5
    page.locator(".ag-graph").screenshot(path=str(ARTIFACTS / "fit-chain-6-light.png"))
    assert ignore_favicon(page.console_errors) == []
