"""Predict mode teaches, in the built widget (js/bench/view.html), typed as a learner
types: each question comes before the step that would show its answer (the panel, the
edge labels and the badges are read at every question and hold none of it), a wrong
answer gets its likely slip and a hint, a right one is said even when the next question
follows at once, a line of why is kept with the answer, and the pass ends with a summary."""
import pytest
from conftest import ARTIFACTS
from example_graphs import readme_example
from view_page import ignore_favicon, open_document

import ag_jupyter as ag
from ag_jupyter.widgets.labels import label_trace

pytestmark = pytest.mark.browser


def open_predict(page, site, tr, names, name, theme="light"):
    label_trace(tr, names)
    doc = tr.to_dict()
    open_document(page, site, doc, name, theme=theme, predict=True)
    return doc


def asked(page):
    return page.text_content(".ag-predict-question").strip()


def answer(page, text, why=""):
    if why:
        page.locator(".ag-predict-reason").fill(why)
    box = page.locator(".ag-predict-input")
    box.fill(text)
    box.press("Enter")


def nothing_gives_it_away(page, tr, names, leaf):
    """At a question: the leaf's badge is empty, no edge label sits on an edge out of it,
    and the step panel writes no product for it."""
    node = tr.node_id(names[leaf])
    assert page.text_content(f".ag-grad-badge[data-id={node}]") == ""
    keys = page.eval_on_selector_all(".ag-edge-grad", "els => els.map(e => e.dataset.key)")
    assert not [k for k in keys if k.startswith(f"{node}>")], keys
    panel = page.locator(".ag-steppanel").inner_text()
    assert f"/∂{leaf} " not in panel and f"{leaf}.grad" not in panel, panel
    grad = f"{names[leaf].grad.item():.4g}"
    labels = page.eval_on_selector_all(".ag-edge-grad text", "els => els.map(e => e.textContent)")
    assert all(grad not in text for text in labels), (leaf, labels)


def slip(page, tr, names, leaf):
    """The slip said under the leaf's last wrong answer."""
    block = f".ag-predict-block[data-node={tr.node_id(names[leaf])}]"
    return page.locator(f"{block} .ag-verdict.ag-wrong .ag-slip").last.inner_text()


def test_each_slip_is_named_a_right_answer_is_said_and_the_pass_is_summed_up(page, site):
    tr, names = readme_example()  # e = a*b + log(d)*c with a=2, b=-3, c=10, d=4
    open_predict(page, site, tr, names, "predict_teaches")
    page.click("button[data-action=last]")
    assert asked(page) == "What will c.grad be?"
    nothing_gives_it_away(page, tr, names, "c")
    answer(page, "-1.386")
    assert "the sign is not" in slip(page, tr, names, "c")
    nothing_gives_it_away(page, tr, names, "c")
    answer(page, "1.386", why="log(d) is what c is multiplied by")
    page.click("button[data-action=last]")
    assert asked(page) == "What will d.grad be?"
    nothing_gives_it_away(page, tr, names, "d")
    answer(page, "0.25")
    text = slip(page, tr, names, "d")
    assert "local derivative ∂log(d)/∂d alone" in text and "∂e/∂log(d)" in text and "step 17" in text, text
    page.locator(".ag-graph").screenshot(path=str(ARTIFACTS / "predict-slip-light.png"))
    page.click("button[data-action=predict-reveal]")
    page.click("button[data-action=last]")
    assert asked(page) == "What will a.grad be?"
    nothing_gives_it_away(page, tr, names, "a")
    nothing_gives_it_away(page, tr, names, "b")
    answer(page, "2")
    assert "2 is a's value, not its gradient" in slip(page, tr, names, "a")
    answer(page, "-3")
    # a's "right" stays on screen while b, sent its gradient by the same step, is asked
    assert asked(page) == "What will b.grad be?"
    assert page.locator(".ag-verdict.ag-right").inner_text().startswith("✓ -3 is right: a.grad = -3")
    nothing_gives_it_away(page, tr, names, "b")
    answer(page, "2")
    page.click("button[data-action=last]")
    assert page.text_content(".ag-predict-summary") == \
        "This pass: 1 right first time, 2 right after a hint, 1 revealed."
    predictions = page.evaluate("window.model.get('predictions')")
    said = [(a["name"], a.get("slip"), a.get("reason")) for a in predictions["attempts"]]
    assert said == [("c", "sign", None), ("c", None, "log(d) is what c is multiplied by"), ("d", "no-upstream", None),
                    ("d", None, None), ("a", "value", None), ("a", None, None), ("b", None, None)], said
    assert ignore_favicon(page.console_errors) == []


def test_one_path_of_several_and_a_grad_not_zeroed(page, site):
    names: dict = {}
    with ag.trace() as tr:
        x = names["x"] = ag.tensor(3.0, requires_grad=True)
        names["y"] = y = x * x + x * 2
        y.backward()
        names["z"] = z = x * 4
        z.backward()
    open_predict(page, site, tr, names, "predict_paths")
    page.click("button[data-action=last]")
    assert asked(page) == "What will x.grad be?"
    nothing_gives_it_away(page, tr, names, "x")
    answer(page, "2")
    text = slip(page, tr, names, "x")
    assert "2 is what one path sends x" in text and "used 3 times" in text and "+=" in text, text
    answer(page, "8")
    page.click("button[data-action=last]")  # the first pass's end: its summary
    assert page.text_content(".ag-predict-summary") == \
        "This pass: 0 right first time, 1 right after a hint, 0 revealed."
    page.click("button[data-action=last]")
    assert asked(page) == "What will x.grad be?"
    answer(page, "4")
    assert "already held a gradient from an earlier backward" in slip(page, tr, names, "x")
    answer(page, "12")
    assert "✓ 12 is right: x.grad = 12" in page.locator(".ag-predict").inner_text()


def test_a_predict_explanation_in_the_dark_theme(page, site):
    tr, names = readme_example()
    open_predict(page, site, tr, names, "predict_dark", theme="dark")
    page.click("button[data-action=last]")
    answer(page, "7", why="c times something")
    assert "Not yet" in slip(page, tr, names, "c")
    page.locator(".ag-graph").screenshot(path=str(ARTIFACTS / "predict-slip-dark.png"))
    answer(page, "1.386")
    assert "∂e/∂c = ∂e/∂(log(d)*c) · ∂(log(d)*c)/∂c = 1 · 1.386 = 1.386" in page.locator(".ag-predict-why").inner_text()
    page.locator(".ag-graph").screenshot(path=str(ARTIFACTS / "predict-answered-dark.png"))
