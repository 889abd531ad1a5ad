"""A cell of real PyTorch code under %%autograd --html, opened offline: PyTorch's graph is
drawn with the cell's names, each module call in one outline named after the cell's
variable (model, fc1, fc2), and stepping to the end shows PyTorch's own gradients."""
from __future__ import annotations

import pytest
from conftest import ARTIFACTS
from offline import OfflinePage, badge, node_ids_by_label

pytestmark = pytest.mark.browser
torch = pytest.importorskip("torch")

CELL = """\
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
h = model(torch.randn(5, 3))
loss = (h ** 2).mean()
loss.backward()
"""


def test_a_pytorch_cell_page_draws_its_names_modules_and_gradients(chromium, ip, tmp_path):
    path = tmp_path / "torch_cell.html"
    result = ip.run_cell(f"%%autograd --html {path}\n{CELL}")
    assert result.success, result.error_in_exec
    view = OfflinePage(chromium, path)
    page = view.page
    widget = page.locator(".ag-graph")
    widget.locator("g.ag-node").first.wait_for(state="attached")
    widget.locator("button[data-action=last]").click()
    page.wait_for_timeout(300)
    labels = node_ids_by_label(widget)
    assert {"loss", "h", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"} <= set(labels)
    outlines = page.eval_on_selector_all(".ag-outline:not(.ag-hidden) .ag-outline-label",
                                         "els => els.map(e => e.textContent)")
    assert sorted(outlines) == ["fc1", "fc2", "model"]  # one box per module call: parameters inside
    assert badge(widget, labels["fc2.bias"]) == pytest.approx(float(ip.user_ns["model"].fc2.bias.grad), rel=1e-3)
    assert not view.requests and not view.errors
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "torch-cell-page.png"))
    view.close()
