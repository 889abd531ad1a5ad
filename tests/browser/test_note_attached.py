"""A node's note ("grad is None") sits on its own box, not in the gap where it reads as
the note of the box above (issue 32, tutorial 4's pass 1: the dynamic net's unused
layer). Measured as a learner sees it: the drawn boxes' geometry."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ARTIFACTS
from view_page import open_view

ROOT = Path(__file__).resolve().parents[2]

BOXES = """() => [...document.querySelectorAll("g.ag-node[data-kind=tensor], g.ag-node[data-kind=op]")]
  .map(g => { const r = g.querySelector(".ag-shape").getBoundingClientRect();
              const tab = g.querySelector(".ag-note-tab");
              const n = tab && tab.getAttribute("display") !== "none" ? tab.getBoundingClientRect() : null;
              return { id: g.dataset.id, note: g.querySelector(".ag-note")?.textContent || "",
                       box: [r.left, r.top, r.right, r.bottom],
                       tab: n && [n.left, n.top, n.right, n.bottom] }; })"""


def gap(a, b) -> float:
    """The distance between two rectangles [left, top, right, bottom] (0 if they touch or overlap)."""
    dx = max(a[0] - b[2], b[0] - a[2], 0)
    dy = max(a[1] - b[3], b[1] - a[3], 0)
    return (dx * dx + dy * dy) ** 0.5


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_grad_is_none_is_attached_to_its_own_box(page, site, theme):
    doc = json.loads((ROOT / "js" / "test" / "fixtures" / "dynamic_passes.json").read_text())
    open_view(page, site, "dynamic_passes", step=len(doc["events"]), theme=theme)
    page.select_option("select.ag-pass", "0")
    boxes = page.evaluate(BOXES)
    noted = [b for b in boxes if b["note"] == "grad is None"]
    assert {b["id"] for b in noted} == set(doc["passes"][0]["params_unused"])
    for mine in noted:
        tab = mine["tab"]
        assert tab is not None and tab[2] > tab[0], f"{mine['id']}'s note is not drawn"
        box = mine["box"]
        # astride its own box's top border, within its width
        assert tab[1] < box[1] < tab[3] and tab[3] - box[1] >= 4, f"{mine['id']}'s note is not on its box's border"
        assert box[0] <= tab[0] and tab[2] <= box[2], f"{mine['id']}'s note overhangs its box"
        near = [b["id"] for b in boxes if b["id"] != mine["id"] and gap(tab, b["box"]) <= 2]
        assert not near, f"{mine['id']}'s note {tab} touches {near}'s box"
    page.screenshot(path=str(ARTIFACTS / f"note-attached-{theme}.png"))
