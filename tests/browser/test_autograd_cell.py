"""The product, in a real JupyterLab: a %%autograd cell builds e = a*b + log(d)*c, and the
learner steps through the whole backward pass with the widget's buttons."""
import re

import pytest
from conftest import ARTIFACTS
from example_graphs import README_CELL
from lab_harness import open_notebook, run_all_cells, write_notebook

pytestmark = pytest.mark.browser

XSS = "<img src=x onerror=alert(1)>"
CELLS = [
    "%load_ext ag_jupyter\nimport ag_jupyter as ag",
    "%%autograd\n" + README_CELL,
    "with ag.trace() as tr:\n"
    "    z = ag.tensor(1.0, requires_grad=True) * 2\n"
    "doc = tr.to_dict()\n"
    f"doc['nodes'][0]['label'] = {XSS!r}\n"
    "ag.show(doc)",
]


def _counter(widget):
    done, total = widget.locator(".ag-step-counter").inner_text().split("/")
    return int(done), int(total)


def _node_id(widget, label):
    for node in widget.locator("g.ag-node[data-kind=tensor]").all():
        if node.locator(".ag-label").text_content().split()[0] == label:
            return node.get_attribute("data-id")
    raise AssertionError(f"no tensor labelled {label}")


def test_stepping_the_backward_pass_of_the_tutorial_graph(lab, page):
    root, base, token = lab
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    write_notebook(root / "egraph.ipynb", CELLS)
    open_notebook(page, base, token, "egraph.ipynb")
    run_all_cells(page)
    page.wait_for_selector(".ag-graph g.ag-node", timeout=60_000)
    widget = page.locator(".ag-graph").first

    # every node is drawn, tensors labelled with the cell's variable names
    labels = [n.text_content() for n in widget.locator("g.ag-node .ag-label").all()]
    for name in "abcde":
        assert any(text.split()[0] == name for text in labels if text.strip()), (name, labels)
    assert widget.locator("g.ag-node[data-kind=op]").count() == 4

    widget.locator("button[data-action=first]").click()
    assert _counter(widget)[0] == 0
    ids = {name: _node_id(widget, name) for name in "abcd"}
    current_ops, badges_seen = [], []
    done, total = _counter(widget)
    while done < total:
        widget.locator("button[data-action=step]").click()
        page.wait_for_function(
            "([sel, n]) => document.querySelector(sel).innerText.startsWith(n + ' ')",
            arg=[".ag-graph .ag-step-counter", str(done + 1)])
        done, total = _counter(widget)
        current = widget.locator("g.ag-node.ag-current")
        if current.count() and current.first.get_attribute("data-kind") == "op" and \
                widget.locator("g.ag-node.ag-current .ag-label").count():
            text = current.first.locator(".ag-label").text_content().strip()
            if not current_ops or current_ops[-1] != (done, text):
                current_ops.append((done, text))
        badge = widget.locator(f".ag-grad-badge[data-id={ids['a']}]")
        badges_seen.append(badge.text_content() if badge.count() else "")
        if done == total - 3:
            widget.screenshot(path=str(ARTIFACTS / "widget-mid-backward.png"))

    # the backward steps, in the engine's order: add, then log(d)*c, log, then a*b
    backward_ops = [text for _, text in current_ops][-4:]
    assert backward_ops[0] == "+" and "log" in backward_ops, current_ops
    assert backward_ops.index("log") > 0
    # the leaves' badges, at the end: de/da = b = -3, de/db = a = 2, de/dc = log 4, de/dd = c/d
    final = {name: widget.locator(f".ag-grad-badge[data-id={ids[name]}]").text_content() for name in "abcd"}
    assert final["a"] == "-3" and final["b"] == "2", final
    assert re.match(r"1\.38", final["c"]) and final["d"] == "2.5", final
    assert "" in badges_seen[:2] or badges_seen[0] != "-3"  # the badge filled in during backward
    page.screenshot(path=str(ARTIFACTS / "autograd-cell.png"), full_page=True)

    # a label is text, never HTML
    xss = page.locator(".ag-graph").nth(1)
    assert any(n.text_content().startswith(XSS) for n in xss.locator("g.ag-node .ag-label").all())
    assert page.locator(".ag-graph img").count() == 0
    assert dialogs == [] and page.console_errors == []
