"""A written page (widget.write_html, %%autograd --html) opened from file:// with every
http(s) request refused: it draws, steps with buttons, keys and scrubber, shows the step
panel, inspector and code strip, selects passes, collapses, exports, follows the reader's
light/dark preference, and its gradients at the end equal the engine's."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ARTIFACTS
from example_graphs import README_CELL
from offline import OfflinePage, background_luminance, badge, node_ids_by_label

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def readme_page(browser_ready, ip, tmp_path_factory):
    """The README example through %%autograd --html, as a learner writes it; and the engine's grads."""
    shell = ip
    path = tmp_path_factory.mktemp("pages") / "readme.html"
    result = shell.run_cell(f"%%autograd --html {path}\n{README_CELL}")
    assert result.success, result.error_in_exec
    grads = {name: float(shell.user_ns[name].grad.item()) for name in "abcd"}
    return path, grads


def test_the_readme_page_steps_offline_to_the_engines_gradients(chromium, readme_page):
    path, grads = readme_page
    size = path.stat().st_size
    assert size <= 2_000_000
    print(f"\nREADME example page: {size / 1e6:.2f} MB")
    view = OfflinePage(chromium, path)
    page = view.page
    widget = page.locator(".ag-graph")
    widget.locator("g.ag-node").first.wait_for(state="attached")
    counter = widget.locator(".ag-step-counter")
    total = int(counter.text_content().split("/")[1])

    widget.locator("button[data-action=first]").click()
    assert counter.text_content() == f"0 / {total}"
    for k in (1, 2, 3):
        widget.locator("button[data-action=step]").click()
        assert counter.text_content() == f"{k} / {total}"
    widget.locator("button[data-action=back]").click()
    assert counter.text_content() == f"2 / {total}"
    widget.click(position={"x": 5, "y": 5})  # focus, then the keys
    page.keyboard.press("ArrowRight")
    assert counter.text_content() == f"3 / {total}"
    page.keyboard.press("End")
    assert counter.text_content() == f"{total} / {total}"
    scrubber = widget.locator("input.ag-scrubber")
    scrubber.focus()
    page.keyboard.press("Home")
    assert counter.text_content() == f"0 / {total}"
    page.keyboard.press("ArrowRight")
    assert counter.text_content() == f"1 / {total}"

    ids = node_ids_by_label(widget)
    assert set("abcde") <= set(ids), ids
    widget.locator("button[data-action=last]").click()
    for _ in range(total):  # back to the first backward step: the step panel shows the chain rule
        if widget.locator(".ag-product").count():
            break
        widget.locator("button[data-action=back]").click()
    widget.locator(".ag-math .katex").first.wait_for()  # quick clicks: typeset once they pause (steppanel.js)
    assert widget.locator(".ag-product").count() > 0 and widget.locator(".ag-math .katex").count() > 0
    assert "e = a * b + ag.log(d) * c" in widget.locator(".ag-codestrip").text_content()
    widget.locator(f"g.ag-node[data-id={ids['a']}]").click()
    assert "shape" in widget.locator(".ag-inspector").text_content()

    widget.locator("button[data-action=last]").click()
    shown = {name: badge(widget, ids[name]) for name in "abcd"}
    assert shown == pytest.approx(grads, rel=1e-3), (shown, grads)
    with page.expect_download() as svg:
        widget.locator("button[data-action=export-svg]").click()
    assert Path(svg.value.path()).read_text().startswith("<svg")
    with page.expect_download() as png:
        widget.locator("button[data-action=export-png]").click()
    assert Path(png.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page.wait_for_timeout(600)
    page.screenshot(path=str(ARTIFACTS / "page-light.png"))
    assert view.requests == [] and view.errors == []
    assert background_luminance(page, ".ag-graph") > 0.8
    view.close()


def test_the_page_follows_a_dark_preference(chromium, readme_page):
    path, grads = readme_page
    view = OfflinePage(chromium, path, color_scheme="dark")
    widget = view.page.locator(".ag-graph")
    widget.locator("g.ag-node").first.wait_for(state="attached")
    widget.locator("button[data-action=last]").click()
    assert background_luminance(view.page, ".ag-graph") < 0.25
    assert background_luminance(view.page, "body") < 0.25
    view.page.wait_for_timeout(600)  # let the step transition finish before the picture
    view.page.screenshot(path=str(ARTIFACTS / "page-dark.png"))
    assert view.requests == [] and view.errors == []
    view.close()


def test_pass_selector_and_collapse_work_on_a_page(chromium, tmp_path):
    import ag_jupyter as ag

    fixtures = ROOT / "js" / "test" / "fixtures"
    passes = json.loads((fixtures / "dynamic_passes.json").read_text())
    ag.show(passes, animate=False).write_html(tmp_path / "passes.html")
    view = OfflinePage(chromium, tmp_path / "passes.html")
    widget = view.page.locator(".ag-graph")
    widget.locator("g.ag-node").first.wait_for(state="attached")
    widget.locator("select.ag-pass").select_option("0")
    first = passes["passes"][0]
    assert widget.locator(".ag-step-counter").text_content() == f"{first['last_event'] + 1} / {len(passes['events'])}"
    unused = [n.get_attribute("data-id") for n in widget.locator("g.ag-node.ag-pass-unused").all()]
    assert unused == first["params_unused"]
    view.close()

    scopes = json.loads((fixtures / "mlp_scopes.json").read_text())
    ag.show(scopes, animate=False).write_html(tmp_path / "mlp.html")
    view = OfflinePage(chromium, tmp_path / "mlp.html")
    widget = view.page.locator(".ag-graph")
    widget.locator("g.ag-node").first.wait_for(state="attached")
    before = widget.locator("g.ag-node").count()
    inner = next(n["id"] for n in scopes["nodes"] if n.get("scope") == "MLP.fc1" and n["kind"] == "op")
    widget.locator(f"g.ag-node[data-id={inner}]").click()
    widget.locator("button[data-action=collapse]").click()
    assert widget.locator("g.ag-node[data-kind=scope]").count() == 1
    assert widget.locator("g.ag-node").count() < before
    assert view.requests == [] and view.errors == []
    view.close()


def big_trace(ag, nodes: int = 1000):
    """A real trace of at least ``nodes`` nodes (a long chain with a shared weight)."""
    with ag.trace() as tr:
        w = ag.tensor(0.9, requires_grad=True)
        h = ag.tensor(1.0, requires_grad=True)
        while tr.node_count < nodes:
            h = (h * w).tanh() + h
        h.backward()
    return tr


def test_a_1000_node_page_draws_offline(chromium, tmp_path):
    # how fast it is written and drawn is measured in benchmarks/bench_page.py, not asserted here
    import ag_jupyter as ag

    widget_py = ag.show(big_trace(ag), animate=False)
    path = widget_py.write_html(tmp_path / "big.html")
    assert len(widget_py.trace["nodes"]) >= 1000
    view = OfflinePage(chromium, path)
    view.page.locator(".ag-graph g.ag-node").first.wait_for(state="visible")
    assert view.page.evaluate("performance.getEntriesByName('ag-page-mounted').length") == 1
    assert view.page.locator(".ag-graph g.ag-node").count() > 100
    assert view.requests == [] and view.errors == []
    view.close()
