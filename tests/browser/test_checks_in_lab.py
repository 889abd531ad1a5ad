"""Check it yourself (issue 33), as a learner does it: in a real JupyterLab, select a leaf,
nudge it and read the slope beside its gradient (the kernel re-runs the graph); click an
entry of W in X @ W + b and nudge that one; select x of y = x*x + 3*x and read its two
paths; take one step downhill from the output. Then the same README graph as a written
page with no kernel, which re-runs the graph itself."""
from __future__ import annotations

import re

import numpy
import pytest
from conftest import ARTIFACTS
from contrast import measuring
from example_graphs import README_CELL
from lab_harness import open_notebook, run_all_cells, write_notebook
from offline import OfflinePage, node_ids_by_label

pytestmark = pytest.mark.browser

MATMUL = """%%autograd
X = ag.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
W = ag.tensor([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], requires_grad=True)
b = ag.zeros(2, requires_grad=True)
loss = ((X @ W + b) ** 2).sum()
loss.backward()
"""
TWO_PATHS = "%%autograd\nx = ag.tensor(2.0, requires_grad=True)\ny = x * x + 3 * x\ny.backward()\n"
CELLS = ["%load_ext ag_jupyter\nimport ag_jupyter as ag", "%%autograd\n" + README_CELL, MATMUL, TWO_PATHS]


def _select(page, widget, label):
    ids = node_ids_by_label(widget)
    widget.locator("button[data-action=last]").click()  # the whole backward on screen
    widget.locator("button[data-action=fit]").click()
    page.wait_for_timeout(600)  # the camera's move
    widget.locator(f"g.ag-node[data-id={ids[label]}]").click()
    return widget.locator(".ag-inspector .ag-checks")


def _answer(checks, words):
    result = checks.locator(".ag-check-result")
    result.filter(has_text=words).wait_for(timeout=30_000)
    return result.inner_text()


def test_a_learner_checks_gradients_in_jupyterlab(lab, page):
    root, base, token = lab
    write_notebook(root / "checks.ipynb", CELLS)
    open_notebook(page, base, token, "checks.ipynb")
    run_all_cells(page)
    page.wait_for_selector(".ag-graph g.ag-node", timeout=60_000)
    readme, matmul, two = (page.locator(".ag-graph").nth(k) for k in range(3))

    checks = _select(page, readme, "a")
    assert checks.locator("input.ag-nudge-h").input_value() == "0.002"  # 1e-3 of a's scale, 2
    checks.locator("input.ag-nudge-h").fill("0.001")
    checks.locator("button.ag-nudge-go").click()
    text = _answer(checks, "slope")
    slope = float(re.search(r"slope \(L\(x\+h\) − L\(x−h\)\) / 2h = (\S+);", text).group(1))
    assert abs(slope + 3) < 1e-3 and "grad = -3" in text, text
    assert int(re.search(r"(\d+) digits? agree", text).group(1)) >= 3, text
    readme.screenshot(path=str(ARTIFACTS / "checks-nudge-a.png"))

    checks = _select(page, readme, "e")
    checks.locator("button.ag-downhill-go").click()
    text = _answer(checks, "first-order")
    before, after = map(float, re.search(r"L = (\S+) → (\S+) after", text).groups())
    predicted = float(re.search(r"lr·‖grad‖² = (\S+) ", text).group(1))
    assert after < before and abs(after - predicted) < 0.1 * (before - after), text
    assert "kernel's tensors are unchanged" in text

    checks = _select(page, matmul, "W")
    entry = checks.locator("button.ag-entry[title='W[2, 1]']")
    entry.click()
    assert entry.get_attribute("aria-pressed") == "true"
    checks.locator("input.ag-nudge-h").fill("0.001")
    checks.locator("button.ag-nudge-go").click()
    text = _answer(checks, "slope")
    X = numpy.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    W = numpy.array([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]])
    expected = (X.T @ (2 * (X @ W)))[2, 1]
    grad = float(re.search(r"grad = (\S+)\n", text + "\n").group(1))
    assert grad == pytest.approx(expected, rel=1e-6), text
    matmul.screenshot(path=str(ARTIFACTS / "checks-nudge-W.png"))

    checks = _select(page, two, "x")
    paths = checks.locator("button.ag-path-button")
    assert paths.all_inner_texts() == ["x → x*x → y: (2 + 2) × 1 = 4", "x → 3*x → y: 3 × 1 = 3"]
    assert "sum: 4 + 3 = 7; backward computed 7" in checks.inner_text()
    paths.nth(1).hover()
    lit = two.locator("g.ag-node.ag-path")
    assert lit.count() == 5  # x, the 3*x op, 3*x, the + op, y
    assert two.locator("path.ag-edge.ag-path").count() == 4
    two.screenshot(path=str(ARTIFACTS / "checks-paths.png"))
    assert min(two.evaluate(PANEL_CONTRAST)) >= 4.5

    # Settings > Theme > JupyterLab Dark: the panel stays readable, the lit path visible
    page.locator(".lm-MenuBar-itemLabel", has_text="Settings").click()
    page.locator(".lm-Menu-itemLabel", has_text="Theme").first.hover()
    page.locator(".lm-Menu-itemLabel").get_by_text("JupyterLab Dark", exact=True).click()
    page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'", timeout=30_000)
    page.wait_for_timeout(500)  # the theme's stylesheet applies
    paths.nth(0).hover()
    assert two.locator("g.ag-node.ag-path").count() == 5  # x, the × op, x*x, the + op, y
    assert min(two.evaluate(PANEL_CONTRAST)) >= 4.5
    two.screenshot(path=str(ARTIFACTS / "checks-paths-dark.png"))
    assert page.console_errors == []


# The check panel's text (path buttons, sums, answers) against the inspector's background.
PANEL_CONTRAST = measuring("""
  const paint = (e) => { for (let n = e; n; n = n.parentElement) {
    const c = getComputedStyle(n).backgroundColor;
    if (c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c; } return 'white'; };
  return [...root.querySelectorAll('.ag-checks button, .ag-checks div')].filter((e) => e.textContent.trim())
    .map((e) => ratio(rgb(getComputedStyle(e).color), rgb(paint(e))));
""")


def test_a_written_page_re_runs_the_readme_graph_itself(chromium, ip, tmp_path):
    path = tmp_path / "readme.html"
    assert ip.run_cell(f"%%autograd --html {path}\n{README_CELL}").success
    view = OfflinePage(chromium, path)
    page = view.page
    widget = page.locator(".ag-graph")
    widget.locator("g.ag-node").first.wait_for(state="attached")
    checks = _select(page, widget, "a")
    checks.locator("input.ag-nudge-h").fill("0.001")
    checks.locator("button.ag-nudge-go").click()
    text = _answer(checks, "slope")
    assert re.search(r"slope \(L\(x\+h\) − L\(x−h\)\) / 2h = -3(\.0+\d*)?;", text), text
    page.screenshot(path=str(ARTIFACTS / "checks-page.png"))
