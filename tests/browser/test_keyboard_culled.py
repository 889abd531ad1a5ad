"""The keyboard reaches every node of a big graph (cull.js keeps only what is near the view
in the document): at the end of a 1,000-node chain's pass the view shows its loss, yet Tab
lands on the graph's tab stop far off at its start, brought back into the document and into
view, and the arrows walk on from there."""
import pytest
from test_step_cost import chain_document
from view_page import ignore_favicon, open_document

pytestmark = pytest.mark.browser

FOCUSED = """() => { const el = document.activeElement.closest('svg.ag-svg .ag-node');
  if (!el) return null;
  const c = document.querySelector('.ag-canvas').getBoundingClientRect(), r = el.getBoundingClientRect();
  return { id: el.dataset.id, name: el.getAttribute('aria-label'),
    inside: r.left >= c.left && r.right <= c.right && r.top >= c.top && r.bottom <= c.bottom }; }"""


def focused(page):
    page.wait_for_timeout(400)  # the glide to the focused node is over
    return page.evaluate(FOCUSED)


def test_tab_reaches_a_node_the_cull_took_out_and_arrows_walk_on(page, site):
    doc = chain_document(500)
    total = len(doc["events"])
    open_document(page, site, doc, "keyboard_culled_chain_500", step=total)
    stop = page.evaluate("() => document.querySelector('svg.ag-svg .ag-node[tabindex=\"0\"]')?.dataset.id ?? null")
    drawn = page.evaluate("() => document.querySelectorAll('svg.ag-svg g.ag-node').length")
    assert drawn < len(doc["nodes"]) / 2, "most of the chain is out of the document"
    assert stop is not None, "the tab stop is in the document however far off it lies"
    widget = page.locator(".ag-graph")
    widget.focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => !!document.activeElement.closest('svg.ag-svg .ag-node')"):
            break
    first = focused(page)
    assert first and first["id"] == stop and first["inside"], first
    seen = [first["id"]]
    for _ in range(4):  # on along the chain, each node brought in and into view
        page.keyboard.press("ArrowRight")
        now = focused(page)
        assert now and now["inside"] and now["id"] not in seen, (seen, now)
        seen.append(now["id"])
    assert page.text_content(".ag-step-counter").startswith(f"{total} /"), "arrows on a node walk, they do not step"
    assert ignore_favicon(page.console_errors) == []
