"""A ``%%autograd`` cell that ends a training step with ``opt.step()`` and ``opt.zero_grad()``
(issue 33 item 4): the widget's document steps each parameter's update, named as the
widget names the parameter, with the numbers the kernel's parameters hold after."""
from __future__ import annotations

import numpy
import pytest

pytest.importorskip("anywidget")
from test_magics import run  # noqa: E402

CELL = """\
model = ag.nn.Linear(3, 2)
opt = ag.optim.{optimizer}
inputs, target = ag.randn(4, 3), ag.randn(4, 2)
loss = ((model(inputs) - target) ** 2).mean()
loss.backward(); opt.step()
opt.zero_grad()
"""


@pytest.mark.parametrize("optimizer", ["SGD(model.parameters(), lr=0.1, momentum=0.9)",
                                       "Adam(model.parameters(), lr=0.01)"])
def test_a_training_cell_steps_each_update_with_the_kernels_numbers(ip, optimizer):
    ip.run_cell("import ag_jupyter as ag; ag.manual_seed(0)")
    widget = run(ip, "%%autograd\n" + CELL.format(optimizer=optimizer)).result
    doc = widget.trace
    names = {n["id"]: n.get("label") for n in doc["nodes"]}
    updates = [e for e in doc["events"] if e["type"] == "update"]
    model = ip.user_ns["model"]
    assert [names[e["node"]] for e in updates] == ["weight", "bias"]  # as named_parameters() names them
    for event, param in zip(updates, (model.weight, model.bias)):
        new = numpy.array(event["values"]["new"]["values"]).reshape(event["values"]["new"]["shape"])
        numpy.testing.assert_array_equal(new, param.detach().numpy())
    kinds = [e["type"] for e in doc["events"]]
    assert kinds[kinds.index("backward_end") + 1:] == ["update", "update", "grads_cleared"]
    assert model.weight.grad is None
