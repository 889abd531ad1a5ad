"""The README example and tutorial 1 in Jupyter Notebook 7 (not JupyterLab): the graphs
draw, ▶| steps to the end, and the gradients shown equal the engine's."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from conftest import ARTIFACTS
from lab_harness import write_notebook
from offline import badge, node_ids_by_label
from server_harness import notebook7

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from export_fixtures import README_CELLS, README_GRADS, TUTORIAL_1  # noqa: E402

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(browser_ready, tmp_path_factory):
    pytest.importorskip("notebook", minversion="7")
    root = tmp_path_factory.mktemp("nb7")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with notebook7(root, ARTIFACTS / "notebook7.log") as (base, token):
        yield root, base, token


def open_and_run(page, base, token, name, widgets):
    page.foreign_errors = []  # errors raised inside Notebook 7's own bundle, not by the widget
    page.on("pageerror", lambda e: page.foreign_errors.append(str(e))
            if "/static/notebook/notebook_core." in (e.stack or "").split("\n", 2)[1] else None)
    page.goto(f"{base}/notebooks/{name}?token={token}", timeout=120_000)
    page.wait_for_selector(".jp-Notebook", timeout=120_000)
    page.wait_for_function(
        """() => { const app = window.jupyterapp; const w = app && app.shell.currentWidget;
                   const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
                   return !!(k && k.status === 'idle'); }""", timeout=120_000)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.wait_for_function(f"() => document.querySelectorAll('.ag-graph').length >= {widgets}", timeout=120_000)
    for graph in page.locator(".ag-graph").all():
        graph.locator("g.ag-node").first.wait_for(state="attached", timeout=60_000)


@pytest.mark.parametrize("name", ["readme", "tutorial_1"])
def test_notebook7_draws_and_steps(server, page, name):
    root, base, token = server
    if name == "readme":
        write_notebook(root / "readme.ipynb", README_CELLS)
        file = "readme.ipynb"
    else:
        file = TUTORIAL_1.name
        shutil.copy(TUTORIAL_1, root / file)
    open_and_run(page, base, token, file, widgets=2)
    widget = page.locator(".ag-graph").first
    widget.locator("button[data-action=first]").click()
    assert widget.locator(".ag-step-counter").text_content().startswith("0 /")
    widget.locator("button[data-action=last]").click()
    done, total = widget.locator(".ag-step-counter").text_content().split(" / ")
    assert done == total
    ids = node_ids_by_label(widget)
    shown = {leaf: badge(widget, ids[leaf]) for leaf in "abcd"}
    assert shown == pytest.approx(README_GRADS, rel=1e-3)  # both notebooks build e = a*b + log(d)*c
    page.wait_for_timeout(600)
    page.screenshot(path=str(ARTIFACTS / f"notebook7-{name}.png"), full_page=True)
    assert not any("Traceback" in t for t in page.locator(".jp-OutputArea").all_inner_texts())
    # Notebook 7.6 itself sometimes throws "Cannot read properties of undefined (reading
    # 'schema')" from notebook_core.js while it loads settings on a fresh server: not ours
    assert [e for e in page.console_errors if e not in page.foreign_errors] == []


def test_notebook7_shows_why_live_refuses_a_hidden_backward(server, page):
    from test_lab_live_and_themes import HIDDEN_BACKWARD, REFUSAL

    root, base, token = server
    write_notebook(root / "hidden_backward.ipynb", HIDDEN_BACKWARD)
    open_and_run(page, base, token, "hidden_backward.ipynb", widgets=0)
    output = page.locator(".jp-Notebook .jp-Cell").nth(2).locator(".jp-OutputArea")
    output.get_by_text(REFUSAL, exact=False).wait_for(timeout=60_000)
    text = output.inner_text()
    assert "UsageError" in text and "drop --live" in text
    assert output.locator(".ag-graph").count() == 0
    page.screenshot(path=str(ARTIFACTS / "live-refusal-notebook7.png"), full_page=True)


def test_notebook7_draws_inf_rows_among_zeros_as_infinities(server, page):
    from test_lab_live_and_themes import INFINITY_ROWS, MAGENTA, WHITE, inspect_infinity_rows

    root, base, token = server
    write_notebook(root / "inf_rows.ipynb", INFINITY_ROWS)
    open_and_run(page, base, token, "inf_rows.ipynb", widgets=1)
    assert inspect_infinity_rows(page.locator(".ag-graph").first) == [MAGENTA, WHITE, MAGENTA, WHITE]
    page.screenshot(path=str(ARTIFACTS / "heatmap-infinity-notebook7.png"), full_page=True)
    assert not any("Traceback" in t for t in page.locator(".jp-OutputArea").all_inner_texts())
    assert [e for e in page.console_errors if e not in page.foreign_errors] == []
