"""A backward root the cell did not name is called what it is (its expression), never a
``loss`` the cell does not have (issue 32: "loss = 22.4" over a loop with no loss)."""
from __future__ import annotations

import pytest

pytest.importorskip("anywidget")
from test_magics import run  # noqa: E402

LOOP_WITHOUT_LOSS = """\
w = ag.tensor([1.0, 2.0], requires_grad=True)
for step in range(2):
    y = w * 3
    y.sum().backward()
"""


def shown_name(node: dict) -> str:
    """The name a box shows (js/src/model/format.js tensorName)."""
    return node.get("label") or node.get("expr") or ""


def roots(trace: dict) -> list:
    by_id = {n["id"]: n for n in trace["nodes"]}
    return [by_id[r] for e in trace["events"] if e["type"] == "backward_begin" for r in e["roots"]]


def test_an_unnamed_root_is_named_by_its_expression_not_loss(ip):
    ip.run_cell("import ag_jupyter as ag")
    trace = run(ip, "%%autograd\n" + LOOP_WITHOUT_LOSS).result.trace
    # the last pass's y carries the cell's name; the first pass's y is an expression
    assert [shown_name(r) for r in roots(trace)] == ["sum(w*3)", "sum(y)"]
    assert not any(shown_name(n) == "loss" for n in trace["nodes"] if n["kind"] == "tensor")


def test_a_root_the_cell_calls_loss_is_still_loss(ip):
    ip.run_cell("import ag_jupyter as ag")
    cell = LOOP_WITHOUT_LOSS.replace("y.sum().backward()", "loss = y.sum()\n    loss.backward()")
    trace = run(ip, "%%autograd\n" + cell).result.trace
    assert [shown_name(r) for r in roots(trace)][-1] == "loss"
