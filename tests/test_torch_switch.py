"""One line runs a PyTorch cell on the engine: ``%%autograd --engine`` and ``ag.as_torch()``.

The same tutorial-style cell (written here, in the style of "Learning PyTorch with
Examples") runs once on PyTorch and once under the switch and must print the same
numbers; a name the engine lacks stops the cell before any line runs; PyTorch's
modules and the notebook's names are as they were afterwards."""
from __future__ import annotations

import importlib
import re
import sys

import pytest

import ag_jupyter as ag
from ag_jupyter.torch_switch import EngineModule

torch = pytest.importorskip("torch")
pytest.importorskip("anywidget")
from IPython.core.error import UsageError  # noqa: E402
from IPython.utils.capture import capture_output  # noqa: E402
from test_magics import run  # noqa: E402

# A cubic network fitted to sin(x) with SGD and momentum; the weights start from a
# formula rather than a random draw, so PyTorch and the engine start equal.
TUTORIAL_CELL = """\
import math
import torch
from torch import nn
import torch.nn.functional as F
import torch.optim as optim

x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
features = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))

model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1), nn.Flatten(0, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (0.3 + 0.1 * i))

loss_fn = nn.MSELoss()
optimizer = optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
for step in range(40):
    pred = model(features / 10)
    loss = loss_fn(pred, y) + 0.01 * F.relu(pred).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 10 == 9:
        print(step, loss.item())
print(model[0].weight.grad.sum().item(), torch.float32, isinstance(loss, torch.Tensor))
"""


# A small CNN trained from a DataLoader with Adam, in the style of "Learning the Basics"
# training loop; the images are a formula and the loader does not shuffle, so both start equal.
CNN_CELL = """\
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

images = torch.linspace(-1, 1, 16 * 64).reshape(16, 1, 8, 8).sin()
labels = torch.tensor([i % 3 for i in range(16)])
loader = DataLoader(TensorDataset(images, labels), batch_size=4, shuffle=False)

net = nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                    nn.Flatten(), nn.Linear(2 * 4 * 4, 3))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.4, 0.4, p.numel()).reshape(p.shape).cos() * (i + 1) * 0.1)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for epoch in range(2):
    total = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(net(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, total)
"""


def numbers(text: str) -> list:
    return [float(n) for n in re.findall(r"-?\d+\.\d+(?:e-?\d+)?", text)]


def torch_modules() -> dict:
    return {name: module for name, module in sys.modules.items() if name == "torch" or name.startswith("torch.")}


def test_a_tutorial_cell_prints_pytorchs_numbers_on_the_engine(ip):
    with capture_output() as on_torch:
        run(ip, TUTORIAL_CELL)
    assert isinstance(ip.user_ns["model"], torch.nn.Module)
    before = torch_modules()
    with capture_output() as on_engine:
        widget = run(ip, "%%autograd --engine --no-animate\n" + TUTORIAL_CELL).result
    assert isinstance(ip.user_ns["model"], ag.nn.Module) and isinstance(ip.user_ns["loss"], ag.Tensor)
    expected, got = numbers(on_torch.stdout), numbers(on_engine.stdout)
    assert len(got) == len(expected) == 5 and got == pytest.approx(expected, rel=1e-5, abs=1e-6)
    assert "ag.float32 True" in on_engine.stdout and "torch.float32 True" in on_torch.stdout
    assert widget.trace["source"] == "ag_jupyter" and widget.total > 0
    # PyTorch is back, entry for entry, and so are the notebook's names
    assert torch_modules() == before and ip.user_ns["torch"] is torch
    assert ip.user_ns["nn"] is torch.nn and ip.user_ns["F"] is torch.nn.functional


def test_a_cnn_cell_with_a_dataloader_prints_pytorchs_numbers_on_the_engine(ip):
    with capture_output() as on_torch:
        run(ip, CNN_CELL)
    with capture_output() as on_engine:
        run(ip, "%%autograd --engine --no-animate\n" + CNN_CELL)
    assert isinstance(ip.user_ns["net"], ag.nn.Module)
    expected, got = numbers(on_torch.stdout), numbers(on_engine.stdout)
    assert len(got) == len(expected) == 2 and got == pytest.approx(expected, rel=1e-5)


def test_a_missing_name_stops_the_cell_before_any_line_runs(ip):
    cell = ("import torch\nfrom torch import nn\nfrom torch.utils.nothing_here import Thing\n"
            "print('ran')\nfirst = torch.ones(2)\nconv = nn.Conv3d(1, 1, 3)\ny = torch.fft.fft(first)\n")
    ip.user_ns.pop("first", None)
    with capture_output() as captured:
        result = run(ip, "%%autograd --engine\n" + cell, UsageError)
    message = str(result.error_in_exec)
    assert "line 3: torch.utils" in message and "line 6: nn.Conv3d (torch.nn.Conv3d)" in message
    assert "line 7: torch.fft" in message and "Nothing in the cell ran" in message
    assert "not in ag_jupyter's engine" in message and "without --engine" in message
    assert "ran" not in captured.stdout and "first" not in ip.user_ns
    assert not isinstance(sys.modules.get("torch"), EngineModule)


def test_a_name_missing_at_run_time_says_the_same(ip):
    before = torch_modules()
    result = run(ip, "%%autograd --engine\nimport torch\nname = 'fft'\nw = getattr(torch, name)\n",
                 AttributeError)
    assert str(result.error_in_exec).startswith("torch.fft is not in ag_jupyter's engine, so this cell cannot run")
    assert torch_modules() == before


def test_modules_imported_by_an_earlier_cell_mean_the_engines_during_the_cell(ip):
    run(ip, "import torch\nimport torch.nn.functional as F")
    widget = run(ip, "%%autograd --engine\na = torch.tensor([1.0, -2.0], requires_grad=True)\n"
                     "b = F.relu(a * 3).sum()\nb.backward()\n").result
    assert isinstance(ip.user_ns["a"], ag.Tensor) and ip.user_ns["a"].grad.tolist() == [3.0, 0.0]
    assert {"a", "b"} <= {n.get("label") for n in widget.trace["nodes"]}
    assert ip.user_ns["torch"] is torch and ip.user_ns["F"] is torch.nn.functional


def test_pytorch_objects_from_an_earlier_cell_are_named_before_the_cell_runs(ip):
    run(ip, "import torch\nold = torch.ones(2, requires_grad=True)\nclass Old(torch.nn.Module):\n    pass\n")
    result = run(ip, "%%autograd --engine\nnew = old * 2\nm = Old()\n", UsageError)
    message = str(result.error_in_exec)
    assert "line 1: old holds PyTorch's own tensor" in message
    assert "line 2: Old holds PyTorch's own nn.Module class" in message and "new" not in ip.user_ns


def test_engine_and_live_step_the_pasted_cell(ip):
    cell = ("import torch\nw = torch.tensor([0.5, -1.0], requires_grad=True)\n"
            "loss = (w * w).sum()\nloss.backward()\n")
    widget = run(ip, "%%autograd --engine --live\n" + cell).result
    w = ip.user_ns["w"]
    assert widget.live and w.grad is None
    while widget.advance():
        pass
    assert w.grad.tolist() == [1.0, -2.0]


def test_as_torch_context_gives_the_engine_and_puts_pytorch_back():
    before = torch_modules()
    with ag.as_torch():
        import torch as engine
        import torch.nn.functional as functional
        from torch import nn, optim
        x = engine.tensor([1.0, 2.0], requires_grad=True)
        functional.relu(nn.Linear(2, 1)(x)).sum().backward()
        assert isinstance(x, ag.Tensor) and x.grad is not None and optim.SGD is ag.optim.SGD
        assert engine.float32 is ag.float32 and engine.no_grad is ag.no_grad and engine.Tensor is ag.Tensor
        assert not hasattr(engine, "fft")
        star: dict = {}
        exec("from torch import *", star)  # noqa: S102 - the statement under test
        assert star["tensor"] is ag.tensor and star["no_grad"] is ag.no_grad
        with pytest.raises(ModuleNotFoundError, match=r"^torch\.fft is not in ag_jupyter's engine"):
            importlib.import_module("torch.fft")
    assert torch_modules() == before and sys.modules["torch"] is torch


def test_as_torch_puts_pytorch_back_when_the_block_raises():
    before = torch_modules()
    with pytest.raises(ZeroDivisionError), ag.as_torch():
        importlib.import_module("torch")
        1 / 0  # noqa: B018
    assert torch_modules() == before


def test_autograd_engine_runs_the_following_cells_on_the_engine_until_off(ip):
    before = torch_modules()
    with capture_output() as said:
        run(ip, "%autograd_engine on")
    assert "runs on ag_jupyter's engine" in said.stdout
    try:
        run(ip, "import torch\nfrom torch import nn\nlayer = nn.Linear(2, 1)\nout = layer(torch.ones(1, 2)).sum()\n")
        assert isinstance(ip.user_ns["out"], ag.Tensor)
        assert torch_modules() == before  # between cells, PyTorch is in sys.modules
        with capture_output():
            rejected = ip.run_cell("print('ran')\nspectrum_of_ones = torch.fft.fft(torch.ones(2))\n")
        assert "torch.fft is not in ag_jupyter's engine" in str(rejected.error_before_exec)
        assert "spectrum_of_ones" not in ip.user_ns  # a name no other test binds in the shared shell
        widget = run(ip, "%%autograd\nimport torch\nq = torch.ones(2, requires_grad=True)\nr = (q * 2).sum()\n").result
        assert widget.trace["source"] == "ag_jupyter" and isinstance(ip.user_ns["q"], ag.Tensor)
    finally:
        with capture_output():
            run(ip, "%autograd_engine off")
    run(ip, "import torch\nback = torch.ones(2)\n")
    assert isinstance(ip.user_ns["back"], torch.Tensor) and torch_modules() == before
    assert ip.user_ns["torch"] is torch


def test_autograd_engine_takes_on_or_off(ip):
    result = run(ip, "%autograd_engine maybe", UsageError)
    assert "on or off" in str(result.error_in_exec)


def test_a_tensor_method_the_engine_lacks_stops_the_cell_before_it_runs(ip):
    name = next(n for n in ("geqrf", "ormqr", "igammac", "q_scale") if not hasattr(ag.Tensor, n))
    cell = (f"import torch\nran_first = 1\nx = torch.ones(3)\ny = x.exp().{name}()\n"
            "class Mine:\n    def mode(self):\n        return 1\nm = Mine().mode()\nk = [1].index(1)\n"
            "import numpy as np\nlogs = np.log10(3.0)\n")
    ip.user_ns.pop("ran_first", None)
    result = run(ip, "%%autograd --engine\n" + cell, UsageError)
    message = str(result.error_in_exec)
    assert f"line 4: .{name} (torch.Tensor.{name}) is not in ag_jupyter's engine" in message
    assert "mode" not in message and "index" not in message and "log10" not in message
    assert "ran_first" not in ip.user_ns


def test_the_method_check_spares_names_of_pytorchs_other_classes(ip):
    # grad_fn.name() is a graph node's method, not the Tensor's name attribute
    run(ip, "%%autograd --engine\nimport torch\nw = torch.ones(2, requires_grad=True)\n"
            "node = (w * 2).sum().grad_fn.name()\n")
    assert ip.user_ns["node"] == "SumBackward0"
