"""The optimizer's update stepped after backward (issue 33 item 4), read from the screen:
stepping a training step into its update pass, the step panel writes each parameter's
rule with the optimizer's own numbers, its new value is the parameter the kernel holds
after ``opt.step()``, the parameter's box shows it, and ``zero_grad()`` leaves the grads
None. Driven with the widget's step button in Chromium, in both themes."""
import re

import pytest
from conftest import ARTIFACTS
from view_page import counter, open_document

import ag_jupyter as ag
from ag_jupyter.widgets.labels import label_trace

pytestmark = pytest.mark.browser
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def training_step(make_optimizer):
    w, b = ag.nn.Parameter(ag.tensor(0.5)), ag.nn.Parameter(ag.tensor(-1.0))
    opt = make_optimizer([w, b])
    with ag.trace() as tr:
        for _ in range(2):
            loss = (w * 2.0 + b - 3.0) ** 2
            loss.backward()
            opt.step()
            if _ == 0:
                after_first = (w.item(), b.item())
            opt.zero_grad()
    label_trace(tr, {"w": w, "b": b, "loss": loss})
    return tr.to_dict(), after_first


def numbers(text: str) -> list:
    return [float(n) for n in NUMBER.findall(text.replace("\u2212", "-").replace("−", "-"))]


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("name, make", [("sgd_momentum", lambda p: ag.optim.SGD(p, lr=0.1, momentum=0.9)),
                                        ("adam", lambda p: ag.optim.Adam(p, lr=0.1))])
def test_stepping_into_the_update_shows_the_optimizers_numbers(page, site, name, make, theme):
    doc, (w_after, b_after) = training_step(make)
    open_document(page, site, doc, f"update_{name}", theme=theme)
    events = doc["events"]
    first_update = next(i for i, e in enumerate(events) if e["type"] == "update")
    for _ in range(first_update + 1):
        page.click("button[data-action=step]")
    assert counter(page) == f"{first_update + 1} / {len(events)}"
    panel = page.locator(".ag-steppanel")
    caption = panel.locator(".ag-caption").inner_text()
    assert caption.startswith(f"update ({'SGD' if name.startswith('sgd') else 'Adam'}.step): w 0.5 → "), caption
    lines = [line.inner_text() for line in panel.locator(".ag-update").all()]
    assert lines[0].startswith("w: "), lines
    shown = numbers(lines[0].split("=")[-1])
    assert shown == [pytest.approx(w_after, rel=1e-3)], (lines, w_after)  # the kernel's w after opt.step()
    if name == "adam":
        assert any(line.startswith("m = 0.9 × m + (1 - 0.9) × g".replace("-", "−")) for line in lines), lines
        assert any("m̂ = m / (1 − 0.9^1) = m / 0.1" in line for line in lines), lines
    else:
        assert any(line.startswith("buf = 0.9 × buf + g = -12") for line in lines), lines
    # the parameter's box now holds the new value
    w_box = page.locator(".ag-node[data-kind=tensor]", has=page.locator(".ag-label", has_text=re.compile("^w$")))
    assert numbers(w_box.locator(".ag-title .ag-value").text_content()) == [pytest.approx(w_after, rel=1e-3)]
    page.screenshot(path=str(ARTIFACTS / f"update_{name}_{theme}.png"))
    page.click("button[data-action=step]")  # b's update
    b_lines = [line.inner_text() for line in panel.locator(".ag-update").all()]
    assert numbers(b_lines[0].split("=")[-1]) == [pytest.approx(b_after, rel=1e-3)], b_lines
    page.click("button[data-action=step]")  # zero_grad()
    assert [line.inner_text() for line in panel.locator(".ag-update").all()] == \
        ["zero_grad(): w.grad, b.grad set to None"]
    assert "grad is None" in w_box.text_content()
