"""Each tutorial in a real JupyterLab, Run All as a learner does: every widget renders with
no console errors and no traceback, and the first one builds its graph and waits, its
caption saying what to press (the kernel runs this checkout, so the widget is this
checkout's bundle). Screenshots: the whole notebook, and its first widget."""
import shutil
from pathlib import Path

import pytest
from conftest import ARTIFACTS
from lab_harness import open_notebook, run_all_cells

pytestmark = pytest.mark.browser
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
# the widgets each shows after Run All (as tests/test_notebooks.py counts them)
TUTORIALS = [("01_computational_graphs.ipynb", 3), ("02_matrices_and_the_gradient_signal.ipynb", 2),
             ("03_the_chain_rule_and_turning_it_off.ipynb", 3), ("04_dynamic_networks.ipynb", 4),
             ("05_training.ipynb", 4), ("06_your_pytorch_model.ipynb", 3),
             ("07_convolutions_and_a_training_loop.ipynb", 1)]


@pytest.mark.parametrize("name, widgets", TUTORIALS, ids=[name[:2] for name, _ in TUTORIALS])
def test_tutorial_widgets_render_and_wait(lab, page, name, widgets):
    if name.startswith("06"):
        pytest.importorskip("torch")
    root, base, token = lab
    shutil.copy(NOTEBOOKS / name, root / name)
    open_notebook(page, base, token, name)
    run_all_cells(page, timeout_ms=240_000)
    page.wait_for_function(f"() => document.querySelectorAll('.ag-graph').length >= {widgets}", timeout=60_000)
    for graph in page.locator(".ag-graph").all():
        graph.locator("g.ag-node").first.wait_for(timeout=30_000)
        assert graph.locator("g.ag-node").count() > 0
    assert not any("Traceback" in text for text in page.locator(".jp-OutputArea").all_inner_texts())
    first = page.locator(".ag-graph").first
    first.scroll_into_view_if_needed()
    # it plays the forward, then stops by itself (a learner's Run All: nobody presses a key)
    page.wait_for_function("""() => {
      const graph = document.querySelector('.ag-graph');
      return graph.querySelector('button[data-action=play]').textContent === '▶'
        && graph.querySelector('.ag-caption').textContent.includes('— the graph is built');
    }""", timeout=60_000)
    step, total = map(int, first.locator(".ag-step-counter").text_content().split(" / "))
    # live: the kernel has the backward still to run; a graph drawn with no backward says so
    nothing_to_step = "— the graph is built; no backward" in first.locator(".ag-caption").text_content()
    assert step < total or "--live" in (NOTEBOOKS / name).read_text() or nothing_to_step, (step, total)
    first.screenshot(path=str(ARTIFACTS / f"{Path(name).stem}-first-widget.png"))
    page.screenshot(path=str(ARTIFACTS / f"{Path(name).stem}.png"), full_page=True)
    assert page.console_errors == []
