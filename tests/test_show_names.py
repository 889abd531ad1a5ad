"""ag.show(obj, names=...) names nodes the same way for every kind of obj (marimo has no
magics, so this is how its learners name nodes), or says why it cannot."""
from __future__ import annotations

import pytest

pytest.importorskip("anywidget")

import ag_jupyter as ag  # noqa: E402


def labels(doc: dict) -> dict:
    return {n["label"]: n["id"] for n in doc["nodes"] if "label" in n}


def test_a_trace_is_named_like_a_tensor_is():
    with ag.trace() as tr:
        a = ag.tensor(2.0, requires_grad=True)
        b = ag.tensor(-3.0, requires_grad=True)
        e = a * b
        e.backward()
    unnamed = ag.show(tr).trace
    assert labels(unnamed) == {}, "no names given, none invented"
    w = ag.show(tr, names={"a": a, "b": b, "e": e, "_": e, "unrelated": ag.tensor(1.0)})
    assert labels(w.trace) == {"a": "t0", "b": "t1", "e": "t2"}
    with_tensor = ag.show(e, names={"a": a, "b": b, "e": e}).trace
    assert set(labels(with_tensor)) == set(labels(w.trace))


def test_a_trace_names_parameters_and_the_root_module_scope():
    class TwoLayer(ag.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc_1, self.fc_2 = ag.nn.Linear(3, 4), ag.nn.Linear(4, 1)

        def forward(self, x):
            return self.fc_2(self.fc_1(x).relu())

    model = TwoLayer()
    with ag.trace() as tr:
        loss = model(ag.randn(2, 3)).sum()
        loss.backward()
    doc = ag.show(tr, names={"model": model, "loss": loss}).trace
    assert {"fc_1.weight", "fc_1.bias", "fc_2.weight", "fc_2.bias", "loss"} == set(labels(doc))
    scopes = {n["scope"] for n in doc["nodes"] if n.get("scope")}
    assert scopes and all(s == "model" or s.startswith("model.") for s in scopes), scopes


def test_a_pytorch_trace_names_its_leaves_and_backward_roots(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    fc = torch.nn.Linear(2, 1)
    with ag.trace_torch() as tr:
        hidden = fc(x * 3)
        loss = hidden.sum()
        loss.backward()
    doc = ag.show(tr, names={"x": x, "fc": fc, "hidden": hidden, "loss": loss}).trace
    assert {"x", "weight", "bias", "loss"} == set(labels(doc))
    # hidden is an intermediate tensor: PyTorch leaves no way back to its node (naming.py)
    assert "hidden" not in labels(doc)


def test_a_document_cannot_be_named_and_says_why():
    with ag.trace() as tr:
        a = ag.tensor(2.0, requires_grad=True)
        (a * 3).backward()
    with pytest.raises(ValueError, match="cannot label a trace document.*holds node ids"):
        ag.show(tr.to_dict(), names={"a": a})
    assert ag.show(tr.to_dict()).total == len(tr.to_dict()["events"])
