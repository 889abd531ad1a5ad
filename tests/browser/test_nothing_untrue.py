"""Nothing untrue on screen, in the built widget (js/bench/view.html): a repeat outline
only where code ran again (the recorder's bytecode offset tells one line's two products
from a loop), and no derivative with respect to a Python number in the step panel."""
import pytest
from view_page import ignore_favicon, open_document

import ag_jupyter as ag
from ag_jupyter.widgets.labels import label_trace

pytestmark = pytest.mark.browser


def traced(cell: str):
    """The cell run as a learner runs it (its own code object, as a notebook cell is)."""
    names: dict = {"ag": ag}
    with ag.trace() as tr:
        exec(compile(cell, "<cell>", "exec"), names)  # noqa: S102 - the learner's cell
    names.pop("ag")
    label_trace(tr, {k: v for k, v in names.items() if isinstance(v, ag.Tensor)})
    return tr.to_dict()


def repeat_labels(page):
    return page.eval_on_selector_all(".ag-outline-repeat .ag-outline-label", "els => els.map(e => e.textContent)")


@pytest.mark.parametrize("line", ["y = 2 * x + 3", "y = x * x + 3 * x"])
def test_two_ops_of_one_line_are_no_repeat(page, site, line):
    doc = traced(f"x = ag.tensor(2.0, requires_grad=True)\n{line}\ny.backward()\n")
    open_document(page, site, doc, "one_line", step=len(doc["events"]))
    assert repeat_labels(page) == []
    assert ignore_favicon(page.console_errors) == []


def test_a_loop_is_a_repeat(page, site):
    doc = traced("x = ag.tensor(2.0, requires_grad=True)\ny = x\nfor _ in range(3):\n    y = y * 2\ny.backward()\n")
    open_document(page, site, doc, "real_loop", step=len(doc["events"]))
    assert [label.split()[0] for label in repeat_labels(page)] == ["×3"]


def test_a_python_number_gets_no_derivative_in_the_step_panel(page, site):
    doc = traced("x = ag.tensor(2.0, requires_grad=True)\nz = 2 * x - 1\nz.backward()\n")
    open_document(page, site, doc, "constants", step=0)
    formulas = []
    for _ in doc["events"]:
        page.click("button[data-action=step]")
        # clicks in quick succession show the products as plain text, typeset once they pause (steppanel.js)
        page.wait_for_function("() => !document.querySelector('.ag-steppanel .ag-plain.ag-product')")
        formulas += page.eval_on_selector_all(
            ".ag-steppanel annotation[encoding='application/x-tex']", "els => els.map(e => e.textContent)")
    assert any("\\partial {\\text{x}}" in f for f in formulas), formulas
    assert not [f for f in formulas if "\\partial {2}" in f or "\\partial {1}" in f], formulas
