"""marimo (no magics, no ipywidgets): mo.ui.anywidget(ag.show(tr, names=globals())) in an
app run headless draws the graph with the learner's names, ▶| steps to the end, and the
gradients shown equal the engine's."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import ARTIFACTS
from offline import badge, node_ids_by_label
from server_harness import marimo_app

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from export_fixtures import README_GRADS  # noqa: E402

pytestmark = pytest.mark.browser
APP = Path(__file__).resolve().parent / "marimo_app.py"


def test_marimo_draws_names_and_steps(browser_ready, page):
    pytest.importorskip("marimo")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with marimo_app(APP, ARTIFACTS / "marimo.log") as base:
        page.goto(base, timeout=120_000)
        widget = page.locator(".ag-graph").first
        widget.locator("g.ag-node").first.wait_for(state="attached", timeout=120_000)
        ids = node_ids_by_label(widget)
        assert set("abcde") <= set(ids), ids
        widget.locator("button[data-action=first]").click()
        assert widget.locator(".ag-step-counter").text_content().startswith("0 /")
        widget.locator("button[data-action=step]").click()
        assert widget.locator(".ag-step-counter").text_content().startswith("1 /")
        widget.locator("button[data-action=last]").click()
        done, total = widget.locator(".ag-step-counter").text_content().split(" / ")
        assert done == total
        shown = {leaf: badge(widget, ids[leaf]) for leaf in "abcd"}
        assert shown == pytest.approx(README_GRADS, rel=1e-3)
        page.wait_for_timeout(600)
        page.screenshot(path=str(ARTIFACTS / "marimo.png"), full_page=True)
        assert page.console_errors == []
