"""Exported notebooks opened from file:// with every http(s) request refused: nbconvert's
plain HTML shows each graph's picture (no empty box); `--to ag_html` steps, and its
gradients at the end equal the engine's."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest
from conftest import ARTIFACTS
from lab_harness import open_notebook, write_notebook
from offline import OfflinePage, badge, node_ids_by_label
from playwright.sync_api import TimeoutError as PlaywrightTimeout

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from export_fixtures import README_CELLS, README_GRADS, TUTORIAL_1, executed  # noqa: E402

pytestmark = pytest.mark.browser
MATHJAX = "cdnjs.cloudflare.com/ajax/libs/mathjax"  # nbconvert's markdown maths; not ours


def export(notebook, exporter, path: Path) -> Path:
    body, _ = exporter.from_notebook_node(copy.deepcopy(notebook))
    path.write_text(body, encoding="utf-8")
    return path


@pytest.mark.parametrize("source", ["readme", "tutorial_1"])
def test_plain_export_shows_every_graph_as_its_picture(chromium, tmp_path, source):
    from nbconvert import HTMLExporter

    notebook = executed(README_CELLS if source == "readme" else TUTORIAL_1, with_widget_state=False)
    graphs = sum(1 for c in notebook.cells for o in c.get("outputs", [])
                 if "application/vnd.jupyter.widget-view+json" in o.get("data", {}))
    view = OfflinePage(chromium, export(notebook, HTMLExporter(), tmp_path / f"{source}.html"))
    pictures = view.page.locator('.jp-OutputArea-output img[src^="data:image/svg+xml"]')
    assert graphs >= 2 and pictures.count() == graphs
    for picture in pictures.all():
        box = picture.bounding_box()
        assert box and box["width"] > 100 and box["height"] > 40
    assert view.page.locator(".jupyter-widgets").count() == 0, "no empty widget box"
    view.page.screenshot(path=str(ARTIFACTS / f"export-plain-{source}.png"), full_page=True)
    # nbconvert's own page asks its CDN for require.js and MathJax; refused, the graphs still show
    assert all(url.startswith("https://cdnjs.cloudflare.com/ajax/libs/") for url in view.requests), view.requests
    view.close()


def test_steppable_export_steps_offline_to_the_engines_gradients(chromium, tmp_path):
    from ag_jupyter.export import SteppableHTMLExporter

    notebook = executed(README_CELLS, with_widget_state=True)
    path = export(notebook, SteppableHTMLExporter(), tmp_path / "readme-steps.html")
    print(f"\nREADME notebook: ag_html page {path.stat().st_size / 1e6:.2f} MB")
    view = OfflinePage(chromium, path)
    widgets = view.page.locator(".ag-graph")
    widgets.first.locator("g.ag-node").first.wait_for(state="attached")
    assert widgets.count() == 2
    widget = widgets.first
    widget.locator("button[data-action=first]").click()
    assert widget.locator(".ag-step-counter").text_content().startswith("0 /")
    widget.locator("button[data-action=step]").click()
    assert widget.locator(".ag-step-counter").text_content().startswith("1 /")
    widget.locator("button[data-action=last]").click()
    ids = node_ids_by_label(widget)
    shown = {name: badge(widget, ids[name]) for name in "abcd"}
    assert shown == pytest.approx(README_GRADS, rel=1e-3)
    assert "x" in node_ids_by_label(widgets.nth(1))  # ag.show(tr, names=...) in a notebook
    view.page.wait_for_timeout(600)
    view.page.screenshot(path=str(ARTIFACTS / "export-steppable.png"), full_page=True)
    assert view.page.locator(".ag-static:visible").count() == 0, "the pictures give way to the widgets"
    assert all(MATHJAX in url for url in view.requests), view.requests
    assert [e for e in view.errors if "Failed to load resource" not in e] == []
    view.close()


def test_the_steppable_export_is_in_jupyterlabs_export_menu(lab, page):
    # File > Save and Export Notebook As lists the exporters nbconvert knows through their
    # entry points; JupyterLab titles an unknown one from its name: "ag_html" is "Ag_html"
    root, base, token = lab
    write_notebook(root / "menu.ipynb", ["answer = 6 * 7"])
    open_notebook(page, base, token, "menu.ipynb")
    # JupyterLab fills the submenu when the server's list of exporters arrives (the server
    # imports every exporter first: seconds on a loaded machine), and a menu opened before
    # that stays empty: a person closes it and opens it again, as this does for up to 90 s
    item = page.locator(".lm-Menu-itemLabel").get_by_text("Ag_html", exact=True)
    for _ in range(18):
        page.locator(".lm-MenuBar-itemLabel", has_text="File").click()
        page.locator(".lm-Menu-itemLabel", has_text="Save and Export Notebook As").first.hover()
        try:
            item.wait_for(timeout=5_000)
            break
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
            page.keyboard.press("Escape")
    item.wait_for(timeout=1_000)
    with page.expect_download(timeout=60_000) as exported:
        item.click()
    html = Path(exported.value.path()).read_text(encoding="utf-8")
    assert "answer" in html and 'content="ag_jupyter ag_html exporter"' in html  # through our exporter
