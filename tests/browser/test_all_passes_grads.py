"""In "all passes", an earlier pass's tensors show the gradient their own backward left,
not the struck-through None the key calls "not on the path" (issue 32)."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import ARTIFACTS
from view_page import open_view

ROOT = Path(__file__).resolve().parents[2]


def test_earlier_passes_keep_their_gradients_in_all_passes(page, site):
    doc = json.loads((ROOT / "js" / "test" / "fixtures" / "dynamic_passes.json").read_text())
    open_view(page, site, "dynamic_passes", step=len(doc["events"]))
    page.select_option("select.ag-pass", "-1")
    made_in_pass_0 = {e["node"] for e in doc["events"] if e["type"] == "create" and e.get("pass", 0) == 0}
    sent = {g["node"] for e in doc["events"] if e["type"] == "backward_step" and e.get("pass", 0) == 0
            for g in e["grad_inputs"] if g.get("node") and g.get("grad")}
    computed = {n["id"] for n in doc["nodes"] if n["kind"] == "tensor" and not n.get("is_leaf")}
    ids = sorted(made_in_pass_0 & sent & computed)
    drawn = [i for i in ids if page.locator(f".ag-grad-badge[data-id={i}]").count()]
    assert len(drawn) >= 2, "pass 0's computed tensors are on screen"
    for node_id in drawn:
        shown = page.text_content(f".ag-grad-badge[data-id={node_id}]")
        assert shown and shown.strip() != "None", f"{node_id} shows {shown!r}"
    page.screenshot(path=str(ARTIFACTS / "all-passes-grads.png"))
