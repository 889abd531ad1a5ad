"""ag.show(): a widget for a trace, a document, an ag_jupyter tensor or a PyTorch tensor."""
from __future__ import annotations

import sys

import pytest

pytest.importorskip("anywidget")
from trace_checks import events, ops

import ag_jupyter as ag  # noqa: E402


def e_graph():
    a = ag.tensor(2.0, requires_grad=True)
    b = ag.tensor(-3.0, requires_grad=True)
    c = ag.tensor(10.0, requires_grad=True)
    d = ag.tensor(4.0, requires_grad=True)
    return a, b, c, d, a * b + ag.log(d) * c


def labels(doc: dict) -> dict:
    return {n["label"]: n for n in doc["nodes"] if "label" in n}


def test_import_ag_jupyter_does_not_import_jupyter():
    import os
    import subprocess
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[1])
    code = ("import sys, ag_jupyter; bad = [m for m in ('IPython', 'anywidget', 'ipywidgets') "
            "if m in sys.modules]; assert not bad, bad; assert callable(ag_jupyter.show)")
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root, env=env)


def test_show_a_tensor_walks_its_graph_without_running_backward():
    a, b, c, d, e = e_graph()
    w = ag.show(e, names={"a": a, "b": b, "c": c, "d": d, "e": e})
    doc = w.trace
    assert [n["op"] for n in ops(doc)] == ["MulBackward0", "LogBackward0", "MulBackward0", "AddBackward0"]
    assert not events(doc, "backward_begin") and a.grad is None
    assert set(labels(doc)) == {"a", "b", "c", "d", "e"}
    assert labels(doc)["e"]["shape"] == []  # the root's value is known
    assert w.step == 0 and w.playing and w.animate  # the graph builds itself


def test_show_a_leaf_and_view_options():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    w = ag.show(x, animate=False, direction="TB", speed=2, max_nodes=50, title="just x")
    assert [n["kind"] for n in w.trace["nodes"]] == ["tensor"]
    assert w.step == w.total == 1 and not w.playing
    assert (w.direction, w.speed, w.max_nodes, w.trace["title"]) == ("TB", 2.0, 50, "just x")
    with pytest.raises(TypeError, match="unknown view option"):
        ag.show(x, colour="red")


def test_show_a_trace_and_a_document():
    with ag.trace(title="traced") as tr:
        e_graph()[-1].backward()
    w = ag.show(tr)
    assert w.trace["title"] == "traced" and events(w.trace, "backward_end")
    again = ag.show(w.trace, title="copy")
    assert again.trace["title"] == "copy" and w.trace["title"] == "traced"  # the caller's dict is untouched
    with pytest.raises(ValueError, match="'nodes' and 'events'"):
        ag.show({"nodes": []})
    with pytest.raises(TypeError, match="show\\(\\) takes"):
        ag.show(42)
    with pytest.raises(ValueError, match="live=True needs an ag_jupyter tensor"):
        ag.show(tr, live=True)


def test_module_parameters_get_their_dotted_names():
    class TwoLayer(ag.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc_1 = ag.nn.Linear(3, 4)
            self.fc_2 = ag.nn.Linear(4, 1)

        def forward(self, x):
            return self.fc_2(self.fc_1(x).relu())

    model = TwoLayer()
    layer = model.fc_1
    out = model(ag.randn(2, 3)).sum()
    w = ag.show(out, names={"layer": layer, "model": model, "out": out})
    assert {"fc_1.weight", "fc_1.bias", "fc_2.weight", "fc_2.bias", "out"} == set(labels(w.trace))


def test_show_a_pytorch_tensor(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    fc = torch.nn.Linear(2, 1)
    y = fc(x * 3).sum()
    w = ag.show(y, names={"x": x, "fc": fc, "y": y})
    doc = w.trace
    assert doc["source"] == "torch"
    assert {"x", "weight", "bias", "y"} == set(labels(doc))
    with pytest.raises(ValueError, match="PyTorch's backward cannot"):
        ag.show(y, live=True)


def test_show_takes_a_recorded_pytorch_backward():
    torch = pytest.importorskip("torch")
    import ag_jupyter as ag

    w = torch.ones(3, requires_grad=True)
    loss = (w * 2).sum()
    with ag.trace_torch(params={"w": w}) as recorded:
        loss.backward()
    widget = ag.show(recorded)
    steps = [e for e in widget.trace["events"] if e["type"] == "backward_step"]
    assert widget.trace["source"] == "torch" and len(steps) == 2


def test_predict_is_a_view_option_and_refused_live():
    a = ag.tensor(2.0, requires_grad=True)
    e = a * 3
    widget = ag.show(e, predict=True)
    assert widget.predict and widget.predictions == {}
    with pytest.raises(ValueError, match="cannot be combined with live"):
        ag.show(a * 3, live=True, predict=True)
