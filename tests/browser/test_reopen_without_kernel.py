"""A notebook saved with its graphs and reopened after the server restarted (its
kernel, and so every widget model, gone) shows each graph's saved picture, in
JupyterLab 4 and in Notebook 7: never "model not found"."""
import json
import re

import pytest
from conftest import ARTIFACTS
from lab_harness import jupyterlab, open_notebook, run_all_cells, write_notebook

pytestmark = pytest.mark.browser
# Notebook 7.6 throws these itself while it loads its settings, with or without ag_jupyter
NOTEBOOK7_OWN = re.compile(r"reading 'schema'|Command 'filebrowser:open-path' not registered")

CELLS = [
    "%load_ext ag_jupyter\nimport ag_jupyter as ag",
    "%%autograd\n"
    "a = ag.tensor(2.0, requires_grad=True)\n"
    "b = ag.tensor(-3.0, requires_grad=True)\n"
    "e = a * b + ag.log(a)\n"
    "e.backward()",
]


def saved_pictures(page):
    page.wait_for_selector(".ag-static-picture img", timeout=60_000)
    pictures = page.locator(".ag-static-picture img")
    page.wait_for_function("() => [...document.querySelectorAll('.ag-static-picture img')].every(i => i.complete)")
    return [p.evaluate("img => [img.naturalWidth, img.getBoundingClientRect().height]") for p in pictures.all()]


def test_a_reopened_notebook_shows_the_saved_picture(browser_ready, chromium, tmp_path):
    write_notebook(tmp_path / "saved.ipynb", CELLS)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with jupyterlab(tmp_path, ARTIFACTS / "jupyterlab-first.log") as (base, token):
        page = chromium.new_page(viewport={"width": 1300, "height": 900})
        open_notebook(page, base, token, "saved.ipynb")
        run_all_cells(page)
        page.wait_for_selector(".ag-graph g.ag-node")
        assert page.locator(".ag-static-picture").count() == 0  # the live widget, while its kernel runs
        page.locator(".jp-Notebook").click()
        page.keyboard.press("Control+s")  # saved as a person saves
        page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty")
        page.close()
    outputs = json.loads((tmp_path / "saved.ipynb").read_text())["cells"][1]["outputs"]
    assert any("application/vnd.ag-jupyter.graph+json" in o.get("data", {}) for o in outputs)

    with jupyterlab(tmp_path, ARTIFACTS / "jupyterlab-reopened.log") as (base, token):
        for front_end, url in [("lab", f"{base}/lab/tree/saved.ipynb?reset&token={token}"),
                               ("notebook7", f"{base}/notebooks/saved.ipynb?token={token}")]:
            page = chromium.new_page(viewport={"width": 1300, "height": 900})
            errors = []
            page.on("pageerror", lambda e, seen=errors: seen.append(str(e)))
            page.goto(url, timeout=120_000)
            page.wait_for_selector(".jp-Notebook", timeout=120_000)
            pictures = saved_pictures(page)
            assert len(pictures) == 1 and pictures[0][0] > 100 and pictures[0][1] > 50, (front_end, pictures)
            assert "model not found" not in page.locator(".jp-Notebook").inner_text(), front_end
            page.screenshot(path=str(ARTIFACTS / f"reopened-{front_end}.png"), full_page=True)
            assert [e for e in errors if not NOTEBOOK7_OWN.search(e)] == [], errors
            page.close()
