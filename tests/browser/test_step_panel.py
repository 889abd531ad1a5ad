"""The step panel, read from the screen: every number it shows is the trace's, every
name is the learner's or an expression (never a letter or an id of its own), and
where gradient arrives along several paths the totals it shows end at the engine's
``.grad``. Each graph is made by the engine here, stepped with the widget's own
button in Chromium, and read back from the rendered KaTeX."""
import json
import re

import numpy as np
import pytest
from conftest import ARTIFACTS, ROOT
from example_graphs import readme_example
from view_page import counter, ignore_favicon, open_view

import ag_jupyter as ag
from ag_jupyter.widgets.labels import label_trace

pytestmark = pytest.mark.browser
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")
# the screen writes 4.876×10⁻⁴ (KaTeX: 4.876×10 with a raised −4): read it back as 4.876e-4
POWER = re.compile(r"(-?\d+(?:\.\d+)?)\s*×\s*10\s*([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+|-?\d+)")
SUPERSCRIPTS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
INTERNAL_ID = re.compile(r"\b(?:t|op)\d+\b")


def shared_input():
    with ag.trace() as tr:
        x = ag.tensor(1.5, requires_grad=True)
        y = x * x + ag.sin(x) * 3 + x
        y.backward()
    return tr, dict(x=x, y=y)


def broadcast_bias_matmul():
    with ag.trace() as tr:
        X = ag.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        W = ag.tensor([[0.5, -1.0], [0.25, 2.0], [1.0, 0.0]], requires_grad=True)
        bias = ag.tensor([0.1, -0.2], requires_grad=True)
        Y = X @ W + bias
        loss = (Y * Y).sum()
        loss.backward()
    return tr, dict(X=X, W=W, bias=bias, Y=Y, loss=loss)


def mlp():
    ag.manual_seed(0)
    model = ag.nn.Sequential(ag.nn.Linear(3, 2), ag.nn.ReLU(), ag.nn.Linear(2, 1))
    with ag.trace() as tr:
        inputs = ag.randn(4, 3)
        loss = model(inputs).pow(2).mean()
        loss.backward()
    return tr, dict(model=model, inputs=inputs, loss=loss)


def torch_graph():
    torch = pytest.importorskip("torch")
    p = torch.tensor([0.5, -1.0], requires_grad=True)
    q = torch.tensor(2.0, requires_grad=True)
    with ag.trace_torch(params={"p": p, "q": q}) as tr:
        out = ((p * q).tanh() + p).sum()
        out.backward()
    return tr, dict(p=p, q=q)


GRAPHS = [readme_example, shared_input, broadcast_bias_matmul, mlp, torch_graph]


def plain(text: str) -> str:
    return text.replace("\u2212", "-").replace("\xa0", " ")


def numbers(text: str) -> list:
    text = POWER.sub(lambda m: f"{m.group(1)}e{m.group(2).translate(SUPERSCRIPTS)}", plain(text))
    return [float(n) for n in NUMBER.findall(text)]


def values(summary) -> list:
    return [float(v) for v in summary["values"]]


def close(shown: list, expected: list) -> bool:
    # the panel rounds to 4 significant digits; KaTeX lays a matrix out column by column,
    # so its text lists the same numbers in another order
    return len(shown) == len(expected) and np.allclose(sorted(shown), sorted(expected), rtol=1e-3, atol=1e-6)


def engine_grads(doc, names) -> dict:
    """{node id: the engine's .grad} for the named leaves that have one."""
    by_label = {n.get("label"): n["id"] for n in doc["nodes"] if n["kind"] == "tensor"}
    grads = {}
    for name, value in names.items():
        tensors = dict(value.named_parameters()) if isinstance(value, ag.nn.Module) else {name: value}
        for label, t in tensors.items():
            if getattr(t, "grad", None) is not None and label in by_label:
                grads[by_label[label]] = np.asarray(t.grad.detach().numpy() if hasattr(t.grad, "detach") else t.grad,
                                                    dtype=float).ravel()
    return grads


@pytest.mark.parametrize("make", GRAPHS, ids=[g.__name__ for g in GRAPHS])
def test_every_number_on_the_step_panel_is_the_traces(page, site, make):
    tr, names = make()
    if not hasattr(tr, "records"):  # ag.trace: name the nodes as %%autograd does
        label_trace(tr, names)
    doc = tr.to_dict()
    path = ARTIFACTS / "docs" / f"{make.__name__}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    open_view(page, site, str(path.relative_to(ROOT)), step=0)
    total = len(doc["events"])
    last_step = max(i for i, e in enumerate(doc["events"]) if e["type"] == "backward_step")
    last_shown: dict = {}  # node id -> what the panel last said it holds
    roots = {r for e in doc["events"] if e["type"] == "backward_begin" for r in e["roots"]}
    root_ops = {e["src"] for e in doc["edges"] if e["dst"] in roots}  # ∂L/∂L = 1 is no factor there
    notes = set()
    for index, event in enumerate(doc["events"]):
        page.click("button[data-action=step]")
        assert counter(page) == f"{index + 1} / {total}"
        if event["type"] != "backward_step":
            continue
        page.wait_for_function("document.querySelectorAll('.ag-math .katex-html').length > 0")
        panel = page.locator(".ag-steppanel")
        visible = panel.inner_text()
        assert not INTERNAL_ID.search(visible), visible
        products = panel.locator(".ag-product").all()
        totals = panel.locator(".ag-total").all()
        sent = [g for g in event["grad_inputs"] if g["node"] or g["grad"]]  # not Python constants
        assert len(products) == len(sent), visible
        total_lines = iter(totals)
        notes.update(n.inner_text() for n in panel.locator(".ag-shape-note").all())
        for line, g in zip(products, sent):
            text = plain(line.locator(".katex-html").inner_text())
            if g["grad"] is None:
                assert "not needed" in text
                continue
            sides = text.split("=")
            assert close(numbers(sides[-1]), values(g["grad"])), (text, g)
            if "local" in g and len(g["grad"]["values"]) == 1 and event["node"] in root_ops:
                assert close(numbers(sides[-1]), [g["local"]]) and "·" not in text, (text, g)
            elif "local" in g and len(g["grad"]["values"]) == 1:
                assert close(numbers(sides[-2]), values(event["grad_output"]) + [g["local"]]), (text, g)
            held = g["grad"]
            if "this path" in text:
                said = plain(next(total_lines).locator(".katex-html").inner_text())
                contributes, so_far = said.split(";")
                assert close(numbers(contributes), values(g["grad"])), said
                held = g.get("total") or g["grad"]
                assert close(numbers(so_far.split("=")[-1]), values(held)), (said, g)
            last_shown[g["node"]] = values(held)
        if index == last_step:
            page.locator(".ag-graph").screenshot(path=str(ARTIFACTS / f"step-panel-{make.__name__}.png"))
    if make is broadcast_bias_matmul:  # the sum a broadcast undoes is said, in the learner's names
        assert "bias was broadcast over 2 rows: its gradient sums them" in notes, notes
    labels = page.eval_on_selector_all("g.ag-node .ag-label", "els => els.map(e => e.textContent)")
    assert not [label for label in labels if INTERNAL_ID.search(label)], labels
    # the last thing the panel said of each leaf is the engine's .grad
    expected = engine_grads(doc, names)
    assert expected, "the graph has leaves with gradients"
    for node_id, grad in expected.items():
        assert close(last_shown[node_id], list(grad)), (node_id, last_shown[node_id], grad)
        badge = page.text_content(f".ag-grad-badge[data-id={node_id}]")
        if grad.size == 1:
            assert close(numbers(badge), list(grad)), badge
    assert ignore_favicon(page.console_errors) == []
