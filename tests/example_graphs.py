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
    ("05_training", 16, "_"),
    ("06_your_pytorch_model", 5, "ag.show(recorded)"),
]


# Each tutorial's exercise: the change its text asks for (both strings appear in the text
# above the cell, OLD in the cell), what the starting point shows before the change, and
# what the text says the change gives.
TUTORIAL_EXERCISES = {
    "01_computational_graphs": {
        "replace": ["e = a * b + ag.log(d) * c", "e = a * b * b + ag.sin(d) * c"],
        "before": "assert (a.grad.item(), b.grad.item()) == (-3.0, 2.0)",
        "check": """
assert (a.grad.item(), b.grad.item()) == (9.0, -12.0), (a.grad, b.grad)
assert abs(c.grad.item() - math.sin(4)) < 1e-6 and abs(d.grad.item() - 10 * math.cos(4)) < 1e-5
assert quiz.predict and sum(e["type"] == "accumulate" for e in quiz.trace["events"]) == 4  # a question per leaf
assert quiz.predictions == {}  # the score cell's starting value
""",
    },
    "02_matrices_and_the_gradient_signal": {
        "replace": ["ag.zeros(2, requires_grad=True)", "ag.zeros(1, requires_grad=True)"],
        "before": "assert bias.grad.tolist() == [1.0, 2.0]",
        "check": "assert tuple(bias.grad.shape) == (1,) and bias.grad.tolist() == [3.0], bias.grad",
    },
    "03_the_chain_rule_and_turning_it_off": {
        "replace": ["return grad * 3 * x ** 2", "return grad * x ** 2"],
        "before": "assert passed is True",
        "check": "assert passed is False, passed",
    },
    "04_dynamic_networks": {
        "replace": ["norm() < 10", "norm() < 1000"],
        "before": "assert doublings == 5 and v.grad.tolist() == [32.0, 32.0]",
        "check": """
assert doublings == 11 and v.grad.tolist() == [2048.0, 2048.0], v.grad
assert sum(n.get("op") == "MulBackward0" for n in _.trace["nodes"]) == 11
""",
    },
    "05_training": {
        "replace": ["lr=0.01", "lr=0.5"],
        "before": "assert quick[-1] < 0.3, quick",
        "check": "assert quick[-1] > 0.8, quick",
    },
    "06_your_pytorch_model": {
        "replace": ["torch.nn.Tanh()", "torch.nn.ReLU()"],
        "before": "assert torch is None or 'TanhBackward0' in {n.get('op') for n in my_view.trace['nodes']}",
        "check": """
if torch is not None:
    ops = [n.get("op") for n in my_view.trace["nodes"]]
    assert "ReluBackward0" in ops and "TanhBackward0" not in ops and ops.count("AddmmBackward0") == 2, ops
""",
    },
    "07_convolutions_and_a_training_loop": {
        "replace": ["F.max_pool2d(grid, 2)", "F.avg_pool2d(grid, 2)"],
        "before": "assert grid.grad.sum().item() == 4.0 and (grid.grad == 1).sum().item() == 4, grid.grad",
        "check": "assert (grid.grad == 0.25).all().item() and pooled.flatten().tolist() == [2.75] * 4, grid.grad",
    },
}

# The exercises that draw a graph: (notebook, the exercise cell's index, the widget's expression).
EXERCISE_WIDGETS = [
    ("01_computational_graphs", 17, "quiz"),
    ("02_matrices_and_the_gradient_signal", 15, "_"),
    ("04_dynamic_networks", 15, "_"),
    ("06_your_pytorch_model", 7, "my_view"),
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
