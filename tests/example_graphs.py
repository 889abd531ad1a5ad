"""The graphs several tests share, built by the engine as a learner's cell builds them."""
import ag_jupyter as ag

# The README's example, as a learner types it in a cell (under %%autograd, or run here).
README_FORWARD = """\
a = ag.tensor(2.0, requires_grad=True)
b = ag.tensor(-3.0, requires_grad=True)
c = ag.tensor(10.0, requires_grad=True)
d = ag.tensor(4.0, requires_grad=True)
e = a * b + ag.log(d) * c
"""
README_CELL = README_FORWARD + "e.backward()\n"


def readme_example():
    """The README's ``e = a*b + log(d)*c`` (a=2, b=-3, c=10, d=4) traced with its backward:
    ``(trace, {name: tensor})``."""
    names: dict = {}
    with ag.trace() as tr:
        exec(README_CELL, {"ag": ag}, names)  # noqa: S102 - the cell, as a learner runs it
    return tr, names


def tutorial_widget(shell, notebook, cell: int, widget: str = "_"):
    """The widget a tutorial's code cell ``cell`` (an index among all its cells) makes,
    run as a learner runs it: every code cell up to it, in order, in IPython ``shell``
    (magics included). ``widget``: the expression that names it after the cell."""
    import json

    cells = json.loads(notebook.read_text())["cells"]
    for cell_source in [c for c in cells[:cell + 1] if c["cell_type"] == "code"]:
        result = shell.run_cell("".join(cell_source["source"]), store_history=True)
        result.raise_error()
    return shell.ev(widget)


# Each tutorial's main widget: (notebook, the index of the cell that makes it, the
# expression that names it after that cell).
TUTORIAL_WIDGETS = [
    ("01_computational_graphs", 2, "_"),
    ("02_matrices_and_the_gradient_signal", 2, "_"),
    ("03_the_chain_rule_and_turning_it_off", 6, "_"),
    ("04_dynamic_networks", 3, "_"),
    ("05_training", 4, "_"),
    ("06_your_pytorch_model", 3, "ag.show(recorded)"),
]
