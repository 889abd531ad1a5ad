"""Stepping fast through backward: a step alone has its products typeset at once; steps
that follow each other closely (a held arrow key) show them as plain text with the same
numbers, and the last step's lines are typeset once the stepping pauses. Typesetting is
most of a step's cost in JupyterLab (script, style and layout of KaTeX's ~550 objects)."""
import pytest
from conftest import ARTIFACTS
from test_step_panel import numbers, plain
from view_page import ignore_favicon, open_document

import ag_jupyter as ag
from ag_jupyter.widgets.labels import label_trace

pytestmark = pytest.mark.browser

# one click on the step button, and what the panel holds right after it (same task)
CLICK_AND_READ = """() => {
  document.querySelector('button[data-action=step]').click();
  const math = document.querySelector('.ag-math');
  return {counter: document.querySelector('.ag-step-counter').textContent,
          typeset: math.querySelectorAll('.ag-product .katex-html').length,
          plain: [...math.querySelectorAll('.ag-product.ag-plain')].map((e) => e.textContent)};
}"""


def chain_document():
    with ag.trace() as tr:
        a = ag.tensor(1.5, requires_grad=True)
        b = ag.tensor(-0.5, requires_grad=True)
        c = a * b
        d = c.sin()
        e = d * 3
        e.backward()
    label_trace(tr, dict(a=a, b=b, c=c, d=d, e=e))
    return tr.to_dict()


def test_a_step_alone_is_typeset_at_once_fast_steps_wait_as_plain_text(page, site):
    doc = chain_document()
    kinds = [e["type"] for e in doc["events"]]
    first = kinds.index("backward_step")
    assert kinds[first:first + 3] == ["backward_step"] * 3, kinds
    open_document(page, site, doc, "fast_steps", step=first)  # the next click shows backward step `first`
    page.wait_for_timeout(400)  # the page's own first picture is not a step taken fast
    alone = page.evaluate(CLICK_AND_READ)
    assert alone["counter"] == f"{first + 1} / {len(kinds)}"
    assert alone["typeset"] >= 1 and alone["plain"] == [], alone
    # the next two steps right after it: plain text, with the trace's numbers
    page.evaluate(CLICK_AND_READ)
    fast = page.evaluate(CLICK_AND_READ)
    assert fast["typeset"] == 0 and len(fast["plain"]) >= 1, fast
    event = doc["events"][first + 2]
    sent = [g for g in event["grad_inputs"] if g["node"] or g["grad"]]
    assert len(fast["plain"]) == len(sent)
    for text, g in zip(fast["plain"], sent):
        assert numbers(plain(text).split("=")[-1]) == pytest.approx(g["grad"]["values"], rel=1e-3), (text, g)
    # once the stepping pauses the same lines are typeset, with the same numbers
    page.wait_for_function("document.querySelectorAll('.ag-math .ag-product .katex-html').length > 0")
    typeset = [plain(t) for t in page.locator(".ag-math .ag-product .katex-html").all_inner_texts()]
    assert page.locator(".ag-math .ag-plain").count() == 0
    assert [numbers(t.split("=")[-1]) for t in typeset] == [numbers(plain(t).split("=")[-1]) for t in fast["plain"]]
    page.locator(".ag-graph").screenshot(path=str(ARTIFACTS / "fast-steps-typeset.png"))
    assert ignore_favicon(page.console_errors) == []
