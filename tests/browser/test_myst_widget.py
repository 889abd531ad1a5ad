"""w.to_myst()'s files drawn as a MyST page draws an {anywidget} node: the directive's ES
module imported, its stylesheet linked inside a shadow root, render({model, el}) called
with a model that only answers get() from the JSON body. The graph steps with no kernel,
KaTeX's fonts load although their @font-face rules arrive inside the shadow root, and the
graph is walked and named as in a notebook."""
from __future__ import annotations

import json

import pytest
from a11y_checks import graph_tree
from conftest import ARTIFACTS, ROOT
from example_graphs import readme_example
from view_page import ignore_favicon

import ag_jupyter as ag

pytestmark = pytest.mark.browser

HOST = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MyST page</title></head>
<body><main><h1>The chain rule</h1><div id="host"></div></main>
<script type="module">
  const model = await (await fetch("graph.json")).json();
  const host = document.getElementById("host");
  const shadow = host.attachShadow({ mode: "open" });
  const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: "graph.css" });
  const el = document.createElement("div");
  shadow.append(link, el);
  await new Promise((done) => link.addEventListener("load", done, { once: true }));
  const widget = (await import("./graph.mjs")).default;
  widget.render({ model: { get: (key) => model[key] }, el });
  window.shadowReady = true;
</script></body></html>"""


def test_the_myst_module_steps_in_a_shadow_root_with_katex_fonts(page, site):
    folder = ARTIFACTS / "myst"
    folder.mkdir(parents=True, exist_ok=True)
    tr, names = readme_example()
    ag.show(tr, names=names, animate=False).to_myst(folder / "graph.md")
    (folder / "index.html").write_text(HOST)
    page.goto(site.replace("js/bench/view.html", f"{folder.relative_to(ROOT)}/index.html"))
    page.wait_for_function("window.shadowReady === true", timeout=30_000)
    widget = page.locator("#host .ag-graph")  # Playwright's locators pierce open shadow roots
    widget.locator("g.ag-node").first.wait_for(state="attached")
    counter = widget.locator(".ag-step-counter")
    assert counter.text_content() == "22 / 22"
    widget.focus()
    page.keyboard.press("Home")
    for _ in range(19):  # to the a*b backward step: KaTeX typesets its product
        page.keyboard.press("ArrowRight")
    assert counter.text_content() == "19 / 22"
    widget.locator(".ag-math .katex").first.wait_for()
    page.evaluate("document.fonts.ready")
    fonts = page.evaluate("() => [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)")
    assert any("KaTeX_Main" in family for family in fonts), fonts
    assert 'button "multiply, a times b, gives a*b = −6, current step"' in graph_tree(widget)
    widget.screenshot(path=str(ARTIFACTS / "myst-shadow-root.png"))
    assert ignore_favicon(page.console_errors) == []
    assert json.loads((folder / "graph.json").read_text())["view"]["step"] == 22
