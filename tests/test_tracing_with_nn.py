"""The tracer with the real nn.Module: scopes, parameter labels, and passes of a dynamic net."""
import ag_jupyter as ag
from ag_jupyter import nn


class TwoLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc_1 = nn.Linear(3, 4)
        self.fc_2 = nn.Linear(4, 2)
        self.unused = nn.Linear(2, 2)

    def forward(self, x, use_second=True):
        h = self.fc_1(x).relu()
        return self.fc_2(h) if use_second else h


def test_scopes_and_unused_parameters_in_passes():
    ag.manual_seed(0)
    model = TwoLayer()
    x = ag.randn(5, 3)
    with ag.trace() as tr:
        model(x).sum().backward()
        model.zero_grad()
        model(x, use_second=False).sum().backward()
    doc = tr.to_dict()
    scopes = {n.get("scope") for n in doc["nodes"] if n["kind"] == "op"}
    assert {"TwoLayer.fc_1", "TwoLayer.fc_2"} <= scopes
    assert any(n.get("param") == "fc_1.weight" for n in doc["nodes"])
    assert len(doc["passes"]) == 2
    first, second = doc["passes"]
    param = {n["param"]: n["id"] for n in doc["nodes"] if n.get("param")}
    unused = {param[f"unused.{p}"] for p in ("weight", "bias")}
    fc_2 = {param[f"fc_2.{p}"] for p in ("weight", "bias")}
    # the first pass leaves out the unused layer; the second also fc_2, which then has no .grad
    assert set(first["params_unused"]) == unused and set(first["params_used"]) == set(param.values()) - unused
    assert set(second["params_unused"]) == unused | fc_2
    assert fc_2 <= set(second["grad_none"]) and not fc_2 & set(second["params_with_grad"])
    ops = [n["op"] for n in doc["nodes"] if n["kind"] == "op"]
    assert "AddmmBackward0" in ops and "ReluBackward0" in ops
    steps = [e for e in doc["events"] if e["type"] == "backward_step"]
    assert steps and all("node" in e for e in steps)
