"""The scrubber moves the view in one cut, a step glides: a move of more than one event
(the scrubber dragged, End) puts the current node in view at once, where a glide across
a long chain would build and paint every box it passes; one step (→) still glides to
its node, so the learner sees where it went."""
import pytest
from view_page import ignore_favicon, open_document

import ag_jupyter as ag
from ag_jupyter.widgets.labels import label_trace

pytestmark = pytest.mark.browser

VIEWPORT = "() => document.querySelector('.ag-viewport').getAttribute('transform')"
# set the scrubber as a drag does (an input event), and read the view in the same task
SCRUB_TO = """(step) => {
  const bar = document.querySelector('.ag-scrubber');
  bar.value = String(step);
  bar.dispatchEvent(new Event('input', {bubbles: true}));
  return document.querySelector('.ag-viewport').getAttribute('transform');
}"""


def long_chain():
    with ag.trace() as tr:
        x = ag.tensor(0.5, requires_grad=True)
        y = x
        for i in range(60):
            y = y * 1.01 if i % 2 else y.sin()
        y.backward()
    label_trace(tr, dict(x=x, y=y))
    return tr.to_dict()


def current_box_in_view(page) -> bool:
    return page.evaluate("""() => {
      const canvas = document.querySelector('.ag-canvas').getBoundingClientRect();
      const box = document.querySelector('g.ag-node.ag-current').getBoundingClientRect();
      return box.left >= canvas.left && box.right <= canvas.right
        && box.top >= canvas.top && box.bottom <= canvas.bottom;
    }""")


def test_the_scrubber_cuts_to_its_node_a_step_glides(page, site):
    doc = long_chain()
    open_document(page, site, doc, "scrub_jumps", step=1)
    page.wait_for_timeout(400)
    before = page.evaluate(VIEWPORT)
    far = len([e for e in doc["events"] if e["type"] != "backward_step"]) - 2  # the forward's far end
    at_once = page.evaluate(SCRUB_TO, far)
    assert at_once != before, "the view moved in the same task as the scrub"
    page.wait_for_timeout(400)
    assert page.evaluate(VIEWPORT) == at_once, "and did not glide on after it"
    assert current_box_in_view(page)
    # steps back from there, one event each: when the view follows, it glides (the same
    # task leaves it where it was; it has moved some frames later)
    glided = 0
    for _ in range(20):
        start = page.evaluate(VIEWPORT)
        same_task = page.evaluate("() => { document.querySelector('button[data-action=back]').click(); "
                                  "return document.querySelector('.ag-viewport').getAttribute('transform'); }")
        page.wait_for_timeout(400)
        if page.evaluate(VIEWPORT) != start:
            assert same_task == start, "a step glides, it does not cut"
            glided += 1
        assert current_box_in_view(page)
    assert glided >= 1, "stepping back along the chain moved the view"
    assert ignore_favicon(page.console_errors) == []
