"""``%%autograd`` draws any cell: over real PyTorch code it records PyTorch's graph with the
cell's names; a cell that makes no graph says what it saw instead of an empty box."""
from __future__ import annotations

import numpy
import pytest

pytest.importorskip("anywidget")
torch = pytest.importorskip("torch")
from IPython.core.error import UsageError  # noqa: E402
from test_magics import labels, run  # noqa: E402

from ag_jupyter.tracing import trace_torch  # noqa: E402
from ag_jupyter.widgets import GraphWidget  # noqa: E402
from ag_jupyter.widgets.cell_contents import NoGraph  # noqa: E402

TORCH_MODEL_CELL = """\
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.fc2 = nn.Linear(4, 1)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))

torch.manual_seed(0)
model = Net()
other = Net()
x = torch.randn(5, 3)
out = model(x) - other(x)
loss = (out ** 2).mean()
"""


def scopes(widget) -> set:
    return {n["scope"] for n in widget.trace["nodes"] if "scope" in n}


def assert_torch_left_alone():
    """No mode, no global module hook left behind by the cell."""
    assert not torch._C._is_torch_function_mode_enabled()
    hooks = torch.nn.modules.module
    assert not hooks._global_forward_hooks and not hooks._global_forward_pre_hooks


def test_a_pytorch_cell_is_drawn_with_its_names_scopes_and_pytorchs_gradients(ip):
    widget = run(ip, "%%autograd\n" + TORCH_MODEL_CELL + "loss.backward()\n").result
    assert isinstance(widget, GraphWidget) and widget.trace["source"] == "torch"
    named = labels(widget)
    assert {"loss", "out", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"} <= set(named)
    # the two models of one class keep their own scopes, named after their variables
    assert {"model.fc1", "model.fc2", "other.fc1", "other.fc2", "model", "other"} <= scopes(widget)
    # each model's parameters are named by their dotted names; their gradients are PyTorch's own
    drawn = sorted(n["grad"]["values"] for n in widget.trace["nodes"] if n.get("label") == "fc1.weight")
    held = sorted(ip.user_ns[m].fc1.weight.grad.flatten().tolist() for m in ("model", "other"))
    numpy.testing.assert_allclose(drawn, held, rtol=1e-6)
    assert named["loss"]["line"]["code"] == "loss = (out ** 2).mean()"
    # parameters sit in the module that uses them, as the engine draws them
    assert sorted(n["scope"] for n in widget.trace["nodes"] if n.get("label") == "fc1.weight") == \
        ["model.fc1", "other.fc1"]
    steps = [e for e in widget.trace["events"] if e["type"] == "backward_step"]
    assert steps and widget.trace["events"][-1]["type"] == "backward_end"
    assert_torch_left_alone()


def test_a_pytorch_cell_without_backward_is_drawn_too(ip):
    widget = run(ip, "%%autograd\nimport torch\na = torch.tensor([1.0, 2.0], requires_grad=True)\n"
                     "b = a * 3\nc = b.exp().sum()\n").result
    named = labels(widget)
    assert set(named) == {"a", "b", "c"}
    ops = [n["op"] for n in widget.trace["nodes"] if n["kind"] == "op"]
    assert ops == ["MulBackward0", "ExpBackward0", "SumBackward0"]
    assert not any(e["type"].startswith("backward") for e in widget.trace["events"])
    assert named["c"]["value"]["values"] == [pytest.approx(float(torch.exp(torch.tensor([3.0, 6.0])).sum()))]


def test_backward_option_on_a_pytorch_tensor(ip):
    widget = run(ip, "%%autograd --backward c\nimport torch\na = torch.tensor(2.0, requires_grad=True)\n"
                     "c = (a * a).sin()\n").result
    named = labels(widget)
    assert named["a"]["grad"]["values"] == [pytest.approx(float(4 * torch.cos(torch.tensor(4.0))))]
    assert ip.user_ns["a"].grad is not None


def test_output_and_page_of_a_pytorch_cell(ip, tmp_path):
    page = tmp_path / "cell.html"
    run(ip, f"%%autograd -o tr --html {page}\nimport torch\nw = torch.ones(2, requires_grad=True)\n"
            "(w * 2).sum().backward()\n")
    assert isinstance(ip.user_ns["tr"], trace_torch)
    assert page.exists() and "MulBackward0" in page.read_text()


def test_a_pytorch_cell_that_raises_shows_its_graph_with_the_error(ip):
    result = run(ip, "%%autograd\nimport torch\nw = torch.ones(2, requires_grad=True)\ny = w * 2\n"
                     "y.backward()\n", expect_error=RuntimeError)
    assert result.result is None  # IPython keeps no result for a failed cell; the widget was displayed
    assert_torch_left_alone()


def test_live_is_refused_for_pytorch_code_with_what_to_do(ip):
    result = run(ip, "%%autograd --live\nimport torch\na = torch.tensor(2.0, requires_grad=True)\n"
                     "c = (a * a).sin()\nc.backward()\n", expect_error=UsageError)
    assert "cannot pause between nodes" in str(result.error_in_exec) and "add --engine" in str(result.error_in_exec)
    assert_torch_left_alone()


def test_an_engine_cell_stays_the_engines_with_torch_imported(ip):
    ip.run_cell("import torch")
    widget = run(ip, "%%autograd\na = ag.tensor(2.0, requires_grad=True)\nb = (a * a).exp()\n").result
    assert widget.trace["source"] == "ag_jupyter" and set(labels(widget)) == {"a", "b"}


@pytest.mark.parametrize("cell, seen", [
    ("x = 1\ny = 2.5\n", "only plain numbers (x, y)"),
    ("import torch\nt = torch.ones(3)\nu = t * 2\n", "only tensors that do not require grad (t, u)"),
    ("import torch\nwith torch.no_grad():\n    v = torch.ones(3, requires_grad=True) * 2\n",
     "only tensors that do not require grad (v)"),
    ("q = ag.ones(2) * 3\n", "only tensors that do not require grad (q)"),
    ("s = 'text'\n", "no tensor and no number in its variables"),
    ("print(2)\n", "no tensor and no number in its variables"),
])
def test_a_cell_with_no_graph_says_what_it_saw(ip, cell, seen):
    note = run(ip, "%%autograd\n" + cell).result
    assert isinstance(note, NoGraph) and seen in note.message and "no graph to draw" in note.message
    assert seen.split("(")[0] in note._repr_html_()
    assert_torch_left_alone()


def test_html_of_a_cell_with_no_graph_is_a_usage_error(ip, tmp_path):
    result = run(ip, f"%%autograd --html {tmp_path / 'p.html'}\nn = 3\n", expect_error=UsageError)
    assert "no page written" in str(result.error_in_exec) and "plain numbers" in str(result.error_in_exec)
    assert not (tmp_path / "p.html").exists()
