"""The widget renders inside a real JupyterLab, with no console errors."""
import pytest

from conftest import ARTIFACTS
from lab_harness import open_notebook, run_all_cells, write_notebook

pytestmark = pytest.mark.browser


def test_graph_widget_renders_in_jupyterlab(lab, page):
    root, base, token = lab
    write_notebook(root / "smoke.ipynb", [
        "from ag_jupyter.widgets import GraphWidget\n"
        "GraphWidget(trace={'nodes': [{'id': 'n1', 'label': 'hello <img src=x onerror=alert(1)>'}]})",
    ])
    open_notebook(page, base, token, "smoke.ipynb")
    run_all_cells(page)
    page.wait_for_selector(".ag-graph .ag-node", timeout=60_000)
    page.screenshot(path=str(ARTIFACTS / "smoke.png"))
    # Nodes are SVG groups (no innerText); the label is the documented hook (js/README.md).
    assert page.text_content(".ag-graph .ag-node .ag-label") == "hello <img src=x onerror=alert(1)>"
    assert page.console_errors == []
