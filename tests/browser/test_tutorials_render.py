"""Tutorials 1 and 4 in a real JupyterLab: every widget renders, with no console errors."""
import shutil
from pathlib import Path

import pytest
from conftest import ARTIFACTS
from lab_harness import open_notebook, run_all_cells

pytestmark = pytest.mark.browser
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


@pytest.mark.parametrize("name, widgets", [("01_computational_graphs.ipynb", 2), ("04_dynamic_networks.ipynb", 2)])
def test_tutorial_widgets_render(lab, page, name, widgets):
    root, base, token = lab
    shutil.copy(NOTEBOOKS / name, root / name)
    open_notebook(page, base, token, name)
    run_all_cells(page, timeout_ms=240_000)
    page.wait_for_function(f"() => document.querySelectorAll('.ag-graph').length >= {widgets}", timeout=60_000)
    for graph in page.locator(".ag-graph").all():
        graph.locator("g.ag-node").first.wait_for(timeout=30_000)
        assert graph.locator("g.ag-node").count() > 0
    assert not any("Traceback" in text for text in page.locator(".jp-OutputArea").all_inner_texts())
    page.screenshot(path=str(ARTIFACTS / f"{Path(name).stem}.png"), full_page=True)
    assert page.console_errors == []
