"""Predict mode in a real JupyterLab, as a learner uses it: a `%%autograd --predict`
cell stops before the step that sends the first leaf its gradient, the learner types a wrong
answer (and gets a hint), then a right one with a line of why, sees both verdicts, and the
kernel reads the score and the why from `_.predictions`."""
import ast
import re

import pytest
from conftest import ARTIFACTS
from lab_harness import open_notebook, run_all_cells, write_notebook
from test_lab_live_and_themes import run_cell

pytestmark = pytest.mark.browser

CELLS = [
    "%load_ext ag_jupyter\nimport ag_jupyter as ag",
    "%%autograd --predict\n"
    "a = ag.tensor(2.0, requires_grad=True)\n"
    "b = ag.tensor(-3.0, requires_grad=True)\n"
    "c = ag.tensor(10.0, requires_grad=True)\n"
    "d = ag.tensor(4.0, requires_grad=True)\n"
    "e = a * b + ag.log(d) * c\n"
    "e.backward()",
    "w = _",
    "print('score:', {k: w.predictions.get(k) for k in ('right', 'wrong', 'revealed')})\n"
    "print('why:', [a.get('reason') for a in w.predictions.get('attempts', [])])\n"
    "print('grads:', {n: round(t.grad.item(), 4) for n, t in dict(a=a, b=b, c=c, d=d).items()})",
]


def printed(page, key):
    cell = page.locator(".jp-Notebook .jp-Cell").nth(3)
    page.wait_for_function(f"() => /{key}: /.test(document.querySelectorAll('.jp-Notebook .jp-Cell')[3].innerText)")
    return ast.literal_eval(re.search(rf"{key}: (.*)", cell.locator(".jp-OutputArea").inner_text()).group(1))


def test_predict_a_gradient_wrong_then_right_and_read_the_score_in_the_kernel(lab, page):
    root, base, token = lab
    write_notebook(root / "predict.ipynb", CELLS)
    open_notebook(page, base, token, "predict.ipynb")
    run_all_cells(page)
    widget = page.locator(".ag-graph").first
    grads = printed(page, "grads")
    widget.locator("button[data-action=last]").click()
    question = widget.locator(".ag-predict-question")
    question.wait_for()
    leaf = re.match(r"What will (\w)\.grad be\?", question.inner_text()).group(1)
    box = widget.locator(".ag-predict-input")
    box.fill("123")
    box.press("Enter")
    widget.locator(".ag-verdict.ag-wrong").wait_for()
    widget.locator(".ag-predict-reason").fill("it is what the other factor was")
    box.fill(f"{grads[leaf]:.4g}")
    widget.locator("button[data-action=predict-check]").click()
    widget.locator(".ag-verdict.ag-right").wait_for()
    verdicts = widget.locator(".ag-verdict-text").all_inner_texts()
    right = f"{grads[leaf]:.4g}"
    assert verdicts == [f"✗ 123 is not {leaf}.grad", f"✓ {right} is right: {leaf}.grad = {right}"], verdicts
    assert widget.locator(".ag-slip").inner_text().startswith("Not yet.")
    widget.screenshot(path=str(ARTIFACTS / "lab-predict.png"))
    run_cell(page, 3)
    page.wait_for_timeout(300)
    assert printed(page, "score") == {"right": 1, "wrong": 1, "revealed": 0}
    assert printed(page, "why") == [None, "it is what the other factor was"]  # the teacher reads the why
    assert [e for e in page.console_errors if "Failed to load resource" not in e] == []
