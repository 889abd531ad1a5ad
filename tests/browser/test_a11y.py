"""A graph a screen reader and a keyboard can walk (issue 32): on the README example every
node is named with the numbers its box shows and takes focus, Tab reaches the graph at the
step's node, arrows follow its edges, Enter inspects, Escape leaves, each step is said in the
live region with its numbers, and axe-core finds no WCAG 2.1 A/AA violation before or after
stepping. Read through the accessibility tree (aria_snapshot), driven by keys only."""
from __future__ import annotations

import re
import sys

import pytest
from a11y_checks import announcement, axe_violations, graph_tree
from conftest import ARTIFACTS, ROOT
from view_page import ignore_favicon, open_view

pytestmark = pytest.mark.browser
sys.path.insert(0, str(ROOT / "tests"))
from export_fixtures import README_CELLS  # noqa: E402


def tab_into_graph(page, widget, limit=40):
    """Tab from the widget until a graph node has focus; the presses it took."""
    widget.focus()
    for presses in range(1, limit):
        page.keyboard.press("Tab")
        if page.evaluate("() => !!document.activeElement.closest('svg.ag-svg .ag-node')"):
            return presses
    raise AssertionError("Tab never reached the graph")


def step_counter(widget) -> str:
    return widget.locator(".ag-step-counter").text_content()


def focused_name(page) -> str:
    return page.locator(":focus").aria_snapshot()


def walk_readme(page, widget, theme, selector=".ag-graph"):
    """The README example, by keyboard: the checks every host shares."""
    assert axe_violations(page, selector) == []
    # step the forward pass by key (the widget has focus: arrows step); Home: step 0, paused
    widget.focus()
    page.keyboard.press("Home")
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    assert step_counter(widget).startswith("6 /")
    page.wait_for_function("() => document.querySelector('.ag-graph .ag-announcer').textContent.includes('step 6')")
    assert "step 6 of 22. forward: made a*b = 2 × (−3) = −6" in announcement(widget)
    tree = graph_tree(widget)
    graph_name = 'application "computation graph, 12 nodes, output e = 7.863; step 6 of 22, forward at a*b"'
    assert graph_name in tree, tree
    assert 'button "a, leaf, value 2, gradient not computed yet"' in tree
    assert 'button "multiply, a times b, gives a*b = −6"' in tree
    # Tab lands on the step's node; arrows walk the edges (not the pass)
    tab_into_graph(page, widget)
    assert focused_name(page) == '- button "a*b, intermediate, value −6, gradient not computed yet, current step"'
    page.keyboard.press("ArrowLeft")
    assert focused_name(page) == '- button "multiply, a times b, gives a*b = −6"'
    page.keyboard.press("ArrowLeft")
    assert re.match(r'- button "[ab], leaf, value', focused_name(page))
    assert step_counter(widget).startswith("6 /"), "arrows on a node walk the graph, they do not step"
    widget.screenshot(path=str(ARTIFACTS / f"a11y-focused-{theme}.png"))
    # Escape leaves the graph; arrows step again, to the end
    page.keyboard.press("Escape")
    assert page.evaluate("() => document.activeElement.classList.contains('ag-graph')")
    page.keyboard.press("End")
    for _ in range(3):  # back from the end to the README's a*b backward step, 19 of 22
        page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.querySelector('.ag-graph .ag-announcer').textContent.includes('step 19 ')")
    assert "step 19 of 22. backward: multiply a*b received 1; sends −3 to a, 2 to b" in announcement(widget)
    widget.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('.ag-graph .ag-announcer').textContent.includes('step 20 ')")
    assert "a.grad is now −3" in announcement(widget)
    assert 'button "a, leaf, value 2, gradient −3, current step"' in graph_tree(widget)
    # Enter on a node opens the inspector
    tab_into_graph(page, widget)
    page.keyboard.press("Enter")
    assert widget.locator(".ag-inspector").is_visible()
    widget.screenshot(path=str(ARTIFACTS / f"a11y-stepped-{theme}.png"))
    assert axe_violations(page, selector) == []


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_readme_graph_walks_by_keyboard_and_reads_aloud(page, site, theme):
    open_view(page, site, "e_labelled", step=0, theme=theme)
    walk_readme(page, page.locator(".ag-graph").first, theme)
    assert ignore_favicon(page.console_errors) == []


def test_in_jupyterlab_the_readme_cell_walks_by_keyboard_and_reads_aloud(lab, page):
    from lab_harness import open_notebook, run_all_cells, write_notebook

    root, base, token = lab
    write_notebook(root / "a11y_readme.ipynb", README_CELLS[:2])
    open_notebook(page, base, token, "a11y_readme.ipynb")
    run_all_cells(page, timeout_ms=180_000)
    widget = page.locator(".ag-graph").first
    widget.locator("g.ag-node").first.wait_for(timeout=60_000)
    walk_readme(page, widget, "jupyterlab")
    # JupyterLab Dark: still no violation, and the focus ring shows (then back to light,
    # which the session's other Lab tests expect)
    for theme in ("JupyterLab Dark", "JupyterLab Light"):
        page.locator(".lm-MenuBar-itemLabel", has_text="Settings").click()
        page.locator(".lm-Menu-itemLabel", has_text="Theme").first.hover()
        page.locator(".lm-Menu-itemLabel").get_by_text(theme, exact=True).click()
        light = "true" if theme.endswith("Light") else "false"
        page.wait_for_function(f"() => document.body.dataset.jpThemeLight === '{light}'", timeout=30_000)
        page.wait_for_timeout(500)  # the theme's stylesheet applies
        if light == "false":
            assert axe_violations(page) == []
            tab_into_graph(page, widget)
            assert focused_name(page).startswith('- button "')
            widget.screenshot(path=str(ARTIFACTS / "a11y-focused-jupyterlab-dark.png"))
    assert [e for e in page.console_errors if "favicon" not in e] == []


def test_in_notebook7_the_readme_cell_walks_by_keyboard_and_reads_aloud(browser_ready, page, tmp_path):
    from lab_harness import run_all_cells, write_notebook
    from server_harness import notebook7

    write_notebook(tmp_path / "a11y_readme.ipynb", README_CELLS[:2])
    with notebook7(tmp_path, ARTIFACTS / "notebook7-a11y.log") as (base, token):
        page.goto(f"{base}/notebooks/a11y_readme.ipynb?token={token}", timeout=120_000)
        page.wait_for_function(
            """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                       const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
                       return !!(k && k.status === 'idle'); }""", timeout=120_000)
        run_all_cells(page, timeout_ms=180_000)  # done, so the notebook moves the focus no more
        widget = page.locator(".ag-graph").first
        widget.locator("g.ag-node").first.wait_for(timeout=120_000)
        walk_readme(page, widget, "notebook7")


def test_a_page_in_an_820px_course_column_fits_waits_to_be_seen_and_walks(chromium, tmp_path):
    """The README graph's page in an iframe of a course page's 820-px column, below the fold."""
    from example_graphs import readme_example
    from offline import OfflinePage

    import ag_jupyter as ag

    tr, names = readme_example()
    ag.show(tr, names=names, animate=True).write_html(tmp_path / "graph.html")
    (tmp_path / "course.html").write_text(
        '<!doctype html><html lang="en"><title>Week 3</title><body><main><h1>Week 3</h1>'
        '<div style="height: 1800px">reading first</div>'
        '<iframe src="graph.html" title="the chain rule, step by step" width="820" height="760"></iframe>'
        "</main></body></html>")
    view = OfflinePage(chromium, tmp_path / "course.html", viewport=(1200, 900))
    page = view.page
    frame = page.frame_locator("iframe")
    widget = frame.locator(".ag-graph")
    widget.locator("g.ag-node").first.wait_for(state="attached")
    play = widget.locator("button[data-action=play]")
    # the whole graph fits its 820-px frame on load (playing then follows the step, readable)
    inside = widget.evaluate("""el => { const view = el.querySelector('.ag-svg').getBoundingClientRect();
        return [...el.querySelectorAll('g.ag-node')].every(n => { const r = n.getBoundingClientRect();
          return r.left >= view.left - 1 && r.right <= view.right + 1 && r.top >= view.top - 1
            && r.bottom <= view.bottom + 1; }); }""")
    assert inside
    # below the fold it has not started: step 0, not playing
    assert play.get_attribute("aria-pressed") == "false"
    assert widget.locator(".ag-step-counter").text_content() == "0 / 22"
    page.locator("iframe").scroll_into_view_if_needed()
    widget.locator("button[data-action=play][aria-pressed=true]").wait_for()
    widget.locator("button[data-action=first]").click()  # stops it; every node is drawn at the end
    widget.locator("button[data-action=last]").click()
    inner = page.frames[1]
    assert axe_violations(inner) == []
    tree = graph_tree(widget)
    assert 'button "a, leaf, value 2, gradient −3"' in tree and 'button "e, output, value 7.863, gradient 1"' in tree
    widget.screenshot(path=str(ARTIFACTS / "a11y-page-820.png"))
    assert view.errors == [] and view.requests == []
    view.close()


def test_less_motion_asked_for_stops_the_pulse_and_the_fades(page, site):
    page.emulate_media(reduced_motion="reduce")
    open_view(page, site, "e_labelled", step=19, animate=True)
    widget = page.locator(".ag-graph").first
    motion = widget.evaluate("""el => {
        const edge = el.querySelector('.ag-edge.ag-active'), node = el.querySelector('g.ag-node');
        return [getComputedStyle(edge).animationName, getComputedStyle(node).transitionDuration]; }""")
    assert motion == ["none", "0s"]
    # and the key says in words what the current step's orange border means
    assert "current step" in widget.locator(".ag-legend").inner_text()
