"""What a screen reader and a keyboard get from a widget on a page: axe-core's WCAG 2.1
A/AA verdict on it, and its accessibility tree as Playwright reads it (aria_snapshot)."""
from __future__ import annotations

import pathlib

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_source() -> str:
    import axe_playwright_python

    return (pathlib.Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


def axe_violations(page, selector: str = ".ag-graph") -> list:
    """axe-core's WCAG 2.1 A/AA violations inside the first ``selector``: [(rule, [targets])]."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(content=axe_source())
    found = page.evaluate(
        """([selector, tags]) => axe.run(document.querySelector(selector),
             { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
           .then(r => r.violations.map(v => [v.id, v.nodes.map(n => n.target.join(' '))]))""",
        [selector, WCAG_TAGS])
    return [tuple(v) for v in found]


def graph_tree(widget) -> str:
    """The graph's part of the accessibility tree (the svg application and its nodes)."""
    return widget.locator("svg.ag-svg").aria_snapshot()


def announcement(widget) -> str:
    """What the polite live region says now, as the accessibility tree has it."""
    return widget.locator(".ag-announcer").aria_snapshot()
