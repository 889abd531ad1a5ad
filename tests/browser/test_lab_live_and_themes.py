"""In a real JupyterLab, as a learner would: a `%%autograd --live` cell steps the real
backward from the widget's own buttons (x.grad in the kernel follows the screen), and
every node's label is readable on its fill in the light and the dark theme (contrast
read from computed styles)."""
import re

import pytest
from conftest import ARTIFACTS
from contrast import measuring
from lab_harness import open_notebook, run_all_cells, write_notebook

pytestmark = pytest.mark.browser

CELLS = [
    "%load_ext ag_jupyter\nimport ag_jupyter as ag",
    "%%autograd --live\n"
    "x = ag.tensor(3.0, requires_grad=True)\n"
    "k = ag.tensor(2.0)\n"
    "y = x * x + k * x\n"
    "y.backward()",
    "print('grad:', x.grad)",
    "%%autograd\n"
    "w = ag.tensor([1.0, 2.0], requires_grad=True)\n"
    "bad = (w * 3) @ ag.ones(3, 3)",
]

# WCAG 2 contrast of a label's fill (text colour) on its shape's fill, from computed styles.
CONTRASTS = measuring("""
  const out = [];
  for (const node of root.querySelectorAll('g.ag-node:not(.ag-hidden)')) {
    const shape = node.querySelector('.ag-shape'), label = node.querySelector('.ag-label');
    if (!shape || !label) continue;
    const role = node.classList.contains('ag-error-node') ? 'error'
      : node.classList.contains('ag-stepped') ? 'stepped' : node.dataset.role;
    const fills = [label, shape].map((el) => rgb(getComputedStyle(el).fill));
    out.push({ role, text: label.textContent, ratio: ratio(...fills) });
  }
  return out;
""")


def run_cell(page, index):
    """Click into cell `index` and press Shift+Enter, as a learner re-runs one cell."""
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(
        "() => { const w = window.jupyterapp.shell.currentWidget; const k = w.sessionContext.session.kernel;"
        " return k.status === 'idle'; }")


def printed_grad(page):
    page.wait_for_function("() => /grad: /.test(document.querySelectorAll('.jp-Notebook .jp-Cell')[2].innerText)")
    text = page.locator(".jp-Notebook .jp-Cell").nth(2).locator(".jp-OutputArea").inner_text()
    return re.search(r"grad: (.*)", text).group(1).strip()


def counter(widget):
    done, total = widget.locator(".ag-step-counter").inner_text().split("/")
    return int(done), int(total)


def check_contrast(page, theme):
    for graph in page.locator(".ag-graph").all():
        ratios = graph.evaluate(CONTRASTS)
        assert ratios, "no node drawn"
        low = [r for r in ratios if r["ratio"] < 4.5]
        assert not low, f"{theme}: labels below 4.5:1 on their fill: {low}"
    return {r["role"] for graph in page.locator(".ag-graph").all() for r in graph.evaluate(CONTRASTS)}


def test_live_mode_from_the_buttons_and_readable_labels_in_both_themes(lab, page):
    root, base, token = lab
    write_notebook(root / "live.ipynb", CELLS)
    open_notebook(page, base, token, "live.ipynb")
    run_all_cells(page)
    page.wait_for_function("() => document.querySelectorAll('.ag-graph').length === 2", timeout=60_000)
    live = page.locator(".ag-graph").first
    done, total = counter(live)
    assert done == total and printed_grad(page) == "None"  # the cell's y.backward() was not run

    live.locator("button[data-action=step]").click()  # →: the first node of the real backward
    page.wait_for_function("(n) => { const t = document.querySelector('.ag-graph .ag-step-counter').innerText;"
                           " return Number(t.split('/')[1]) > n; }", arg=total)
    run_cell(page, 2)
    assert printed_grad(page) == "None", "the add node ran; x's gradient is not complete yet"

    live.locator("button[data-action=last]").click()  # ▶|: the rest of the real backward
    page.wait_for_function("() => /backward done/.test(document.querySelector('.ag-graph .ag-caption').innerText)",
                           timeout=30_000)
    run_cell(page, 2)
    assert printed_grad(page) == "tensor(8.)"  # dy/dx = 2x + k = 8
    x_id = live.evaluate("g => [...g.querySelectorAll('g.ag-node[data-kind=tensor]')]"
                         ".find(n => n.querySelector('.ag-label').textContent === 'x').dataset.id")
    assert live.locator(f".ag-grad-badge[data-id={x_id}]").text_content() == "8"

    page.locator(".ag-graph").nth(1).locator("button[data-action=last]").click()  # to the error
    page.wait_for_selector(".ag-graph g.ag-node.ag-error-node:not(.ag-hidden)")
    roles = check_contrast(page, "light")
    assert {"leaf", "constant", "intermediate", "output", "op", "stepped", "error"} <= roles, roles
    page.screenshot(path=str(ARTIFACTS / "theme-light.png"), full_page=True)

    # Settings > Theme > JupyterLab Dark, through the menu
    page.locator(".lm-MenuBar-itemLabel", has_text="Settings").click()
    page.locator(".lm-Menu-itemLabel", has_text="Theme").first.hover()
    page.locator(".lm-Menu-itemLabel").get_by_text("JupyterLab Dark", exact=True).click()
    page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'", timeout=30_000)
    page.wait_for_timeout(500)  # the theme's stylesheet applies
    check_contrast(page, "dark")
    page.screenshot(path=str(ARTIFACTS / "theme-dark.png"), full_page=True)
    live.screenshot(path=str(ARTIFACTS / "theme-dark-widget.png"))
    assert [e for e in page.console_errors if "Failed to load resource" not in e] == []


HIDDEN_BACKWARD = [
    "%load_ext ag_jupyter\nimport ag_jupyter as ag",
    "def finish(t):\n    t.backward()",
    "%%autograd --live\nx = ag.tensor(3.0, requires_grad=True)\ny = x * x\nfinish(y)",
]
REFUSAL = "already ran it (a .backward() inside a function the cell calls)"


def test_live_refuses_a_backward_run_inside_a_helper_and_says_so_on_screen(lab, page):
    root, base, token = lab
    write_notebook(root / "hidden_backward.ipynb", HIDDEN_BACKWARD)
    open_notebook(page, base, token, "hidden_backward.ipynb")
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()  # Run > Run All Cells, as a learner
    page.locator(".lm-Menu-itemLabel").get_by_text("Run All Cells", exact=True).click()
    output = page.locator(".jp-Notebook .jp-Cell").nth(2).locator(".jp-OutputArea")
    output.get_by_text(REFUSAL, exact=False).wait_for(timeout=60_000)
    text = output.inner_text()
    assert "UsageError" in text and "drop --live" in text
    assert output.locator(".ag-graph").count() == 0  # refused: no half-stepped widget
    box = output.get_by_text(REFUSAL, exact=False).bounding_box()
    assert box is not None and box["width"] > 0 and box["height"] > 0
    page.screenshot(path=str(ARTIFACTS / "live-refusal-lab.png"), full_page=True)


INFINITY_ROWS = [
    "%load_ext ag_jupyter\nimport ag_jupyter as ag\nimport numpy as np",
    "%%autograd\nvalues = np.zeros((10, 10), dtype=np.float32)\nvalues[::2] = np.inf\n"
    "x = ag.tensor(values, requires_grad=True)\ny = (x * 2).sum()",
]
# The inspector heatmap's colour at column 4 of rows 0, 1, 2 and 9, read from its canvas.
HEATMAP_ROWS = """c => {
    const cell = c.width / 10, ctx = c.getContext('2d');
    const at = (r) => ctx.getImageData(cell * 4 + cell / 2, cell * r + cell / 2, 1, 1).data;
    return [0, 1, 2, 9].map(r => [...at(r)].slice(0, 3));
}"""
MAGENTA, WHITE = [255, 0, 255], [255, 255, 255]


def inspect_infinity_rows(widget):
    """Step to the end, click x, and read its heatmap: +inf rows magenta, zero rows white."""
    from offline import node_ids_by_label

    widget.locator("button[data-action=last]").click()
    widget.locator(f"g.ag-node[data-id={node_ids_by_label(widget)['x']}]").click()
    heatmap = widget.locator(".ag-inspector canvas.ag-heatmap")
    heatmap.wait_for(timeout=30_000)
    assert "50 inf" in widget.locator(".ag-inspector").inner_text()
    return heatmap.evaluate(HEATMAP_ROWS)


def test_a_heatmap_of_inf_rows_among_zeros_shows_them_in_jupyterlab(lab, page):
    root, base, token = lab
    write_notebook(root / "inf_rows.ipynb", INFINITY_ROWS)
    open_notebook(page, base, token, "inf_rows.ipynb")
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()  # Run > Run All Cells
    page.locator(".lm-Menu-itemLabel").get_by_text("Run All Cells", exact=True).click()
    widget = page.locator(".ag-graph").first
    widget.locator("g.ag-node").first.wait_for(state="attached", timeout=120_000)
    assert inspect_infinity_rows(widget) == [MAGENTA, WHITE, MAGENTA, WHITE]
    page.screenshot(path=str(ARTIFACTS / "heatmap-infinity-lab.png"), full_page=True)
    assert [e for e in page.console_errors if "Failed to load resource" not in e] == []
