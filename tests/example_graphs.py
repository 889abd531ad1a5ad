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


def tutorial_widget(shell, notebook, cell: int, widget: str = "_", change: tuple = ()):
    """The widget a tutorial's code cell ``cell`` (an index among all its cells) makes,
    run as a learner runs it: every code cell up to it, in order, in IPython ``shell``
    (magics included). ``widget``: the expression that names it after the cell.
    ``change``: (old, new), replaced in that cell as an exercise asks the learner to."""
    import json

    cells = json.loads(notebook.read_text())["cells"]
    for at, cell_source in enumerate(cells[:cell + 1]):
        if cell_source["cell_type"] != "code":
            continue
        source = "".join(cell_source["source"])
        if change and at == cell:
            source = source.replace(*change)
        result = shell.run_cell(source, store_history=True)
        result.raise_error()
    return shell.ev(widget)


# Each tutorial's main widget: (notebook, the index of the cell that makes it, the
# expression that names it after that cell).
TUTORIAL_WIDGETS = [
    ("01_computational_graphs", 3, "_"),
    ("02_matrices_and_the_gradient_signal", 5, "_"),
    ("03_the_chain_rule_and_turning_it_off", 6, "quiz"),
    ("04_dynamic_networks", 3, "passes_view"),
    ("05_training", 13, "_"),
    ("06_your_pytorch_model", 5, "ag.show(recorded)"),
]


# A network that runs its middle layer 0 to 3 times at random, three passes in one cell
# (tutorial 4 had this before issue 34 made it two passes, collapsed): the browser tests
# of module outlines, repeats and following the step use its 1, 0 and 2 middle calls.
THREE_PASSES_SETUP = """\
import random

import ag_jupyter as ag
from ag_jupyter import nn
%load_ext ag_jupyter

random.seed(1)
ag.manual_seed(0)


class DynamicNet(nn.Module):
    def __init__(self, d_in, hidden, d_out):
        super().__init__()
        self.input_linear = nn.Linear(d_in, hidden)
        self.middle_linear = nn.Linear(hidden, hidden)
        self.output_linear = nn.Linear(hidden, d_out)

    def forward(self, x):
        h = self.input_linear(x).clamp(min=0)
        for _ in range(random.randint(0, 3)):
            h = self.middle_linear(h).clamp(min=0)
        return self.output_linear(h)


model = DynamicNet(4, 5, 2)
x = ag.randn(3, 4)
"""
THREE_PASSES_CELL = """\
%%autograd
for attempt in range(3):
    model.zero_grad()
    loss = model(x).pow(2).mean()
    loss.backward()
"""


def three_passes_widget(shell):
    """The widget of THREE_PASSES_CELL, run after its setup in IPython ``shell``."""
    for source in (THREE_PASSES_SETUP, THREE_PASSES_CELL):
        shell.run_cell(source, store_history=True).raise_error()
    return shell.ev("_")
