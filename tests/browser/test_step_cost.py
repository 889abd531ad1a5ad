"""A step costs what it changes: stepping back or forward by one event on a chain traced
with the engine changes as many DOM nodes at 1,000 nodes as at 200 (counted with a
MutationObserver on the widget's root while a person presses ← and →), so the O(1) step
cannot regress silently into a redraw of the whole graph."""
import pytest
from view_page import counter, ignore_favicon, open_document

import ag_jupyter as ag

pytestmark = pytest.mark.browser

PRESSES = ["ArrowLeft"] * 6 + ["ArrowRight"] * 6

# Counts, per key press, the DOM nodes it changed: an attribute's or a text's owner, each
# node added or removed. The camera's own moves are counted apart: the viewport's
# transform, the overview's frame, and the boxes and edges that enter or leave the
# document as the view pans (added to or taken from their layer, cull.js): those scale
# with the view, not with the graph.
OBSERVE = """() => {
  const root = document.querySelector('.ag-graph');
  window.stepMutations = { step: new Set(), camera: new Set() };
  const layer = (el) => el.classList?.contains('ag-nodes') || el.classList?.contains('ag-edges');
  const camera = (r) => r.attributeName === 'style' || r.target.closest?.('.ag-minimap')
    || (r.type === 'childList' && layer(r.target))
    || (r.attributeName === 'transform' && r.target.classList?.contains('ag-viewport'));
  window.stepObserver = new MutationObserver((records) => {
    for (const r of records) {
      const into = camera(r) ? window.stepMutations.camera : window.stepMutations.step;
      if (r.type !== 'childList') { into.add(r.target); continue; }
      r.addedNodes.forEach((n) => into.add(n));
      r.removedNodes.forEach((n) => into.add(n));
    }
  });
  window.stepObserver.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
}"""
TAKE = """() => new Promise((done) => requestAnimationFrame(() => setTimeout(() => {
  window.stepObserver.takeRecords();
  const m = window.stepMutations, out = { step: m.step.size, camera: m.camera.size };
  m.step.clear(); m.camera.clear();
  done(out);
}, 300)))"""


def chain_document(ops):
    """A chain of ``ops`` ops (x + 0.01, then * 1.001, ...) summed to a loss, traced with its backward."""
    with ag.trace() as tr:
        x = ag.tensor([0.5, -1.0], requires_grad=True)
        h = x
        for i in range(ops - 1):
            h = h * 1.001 if i % 2 else h + 0.01
        h.sum().backward()
    return tr.to_dict()


def mutations_per_step(page, site, ops):
    doc = chain_document(ops)
    total = len(doc["events"])
    open_document(page, site, doc, f"step_cost_chain_{ops}", step=total - 20)
    page.focus(".ag-graph")  # as Tab does: a click could land on a node and select it
    page.wait_for_timeout(500)  # the first fit and glide are over
    page.evaluate(OBSERVE)
    counts = []
    for key in PRESSES:
        before = counter(page)
        page.keyboard.press(key)
        counts.append(page.evaluate(TAKE))
        assert counter(page) != before
    drawn = page.evaluate("() => [...document.querySelectorAll('g.ag-node')]"
                          ".filter((g) => getComputedStyle(g).display !== 'none').length")
    return len(doc["nodes"]), counts, drawn


def test_a_step_changes_as_many_dom_nodes_at_1000_nodes_as_at_200(page, site):
    small_nodes, small, small_drawn = mutations_per_step(page, site, 100)
    big_nodes, big, big_drawn = mutations_per_step(page, site, 500)
    assert (small_nodes, big_nodes) == (201, 1001)
    steps_small, steps_big = [c["step"] for c in small], [c["step"] for c in big]
    # each press changes a handful of nodes: the current and previous node, their edges
    # and badges, the step panel's lines, the counter
    assert max(steps_big) <= 60, big
    assert steps_big == steps_small, (small, big)
    # the boxes entering or leaving the view as it follows the step are the view's worth
    assert max(c["camera"] for c in big) <= 300, big
    # a big graph keeps only what is near the view in the render tree
    assert big_drawn < 400, big_drawn
    assert small_drawn == small_nodes
    assert ignore_favicon(page.console_errors) == []


def test_at_10000_nodes_a_step_changes_what_it_does_at_1000_and_the_page_holds_the_view(page, site):
    """Ten times the graph, the same step: the same DOM nodes changed per press, and only
    what is near the view is in the document (cull.js), made as it first comes near."""
    _, mid, _ = mutations_per_step(page, site, 500)
    huge_nodes, huge, huge_drawn = mutations_per_step(page, site, 5000)
    assert huge_nodes == 10001
    assert [c["step"] for c in huge] == [c["step"] for c in mid], (mid, huge)
    assert max(c["camera"] for c in huge) <= 300, huge
    assert huge_drawn < 400, huge_drawn
    elements = page.evaluate("() => document.querySelectorAll('.ag-graph *').length")
    assert elements < 10_000, f"{elements} elements for {huge_nodes} nodes: the whole graph was made"
    assert ignore_favicon(page.console_errors) == []
