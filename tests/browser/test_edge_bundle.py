"""A model collapsed into one box beside its many parameters: their edges share a trunk
into the box (model/edgebundle.js). Each parameter keeps an edge of its own, drawn to the
trunk, that lights as backward reaches it, so the learner sees which tensors feed the box;
and the edges far from the view are out of the document, where 300 lines fanning over the
whole column into the box were all in view and painted every frame."""
import pytest
from conftest import ARTIFACTS
from view_page import ignore_favicon, open_document

import ag_jupyter as ag
from ag_jupyter import nn

pytestmark = pytest.mark.browser

BLOCKS = 150  # 300 parameters and the head's two: a graph culled (300 boxes or more)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(2, 2)

    def forward(self, h):
        return self.linear(h).tanh()


class Deep(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(BLOCKS)])
        self.head = nn.Linear(2, 1)

    def forward(self, h):
        for block in self.blocks:
            h = block(h)
        return self.head(h)


def training_step():
    ag.manual_seed(0)
    model = Deep()
    optimizer = ag.optim.SGD(model.parameters(), lr=0.1)
    with ag.trace() as tr:
        optimizer.zero_grad()
        loss = model(ag.randn(3, 2)).pow(2).mean()
        loss.backward()
        optimizer.step()
    return tr.to_dict(), len(list(model.parameters()))


EDGES_INTO = """dst => [...document.querySelectorAll('path.ag-edge')]
  .filter((e) => e.dataset.key.endsWith('>' + dst))
  .map((e) => { const b = e.getBBox(); return {key: e.dataset.key, x0: b.x, x1: b.x + b.width, height: b.height,
                                                lit: e.classList.contains('ag-lit')}; })"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_parameters_into_a_collapsed_model_share_a_trunk(page, site, theme):
    doc, params = training_step()
    last_backward = max(i for i, e in enumerate(doc["events"]) if e["type"] == "backward_step") + 1
    open_document(page, site, doc, "edge_bundle", step=last_backward, theme=theme, collapsed=["Deep"])
    trunk = page.locator("path.ag-trunk")
    assert trunk.count() == 1
    box_id = trunk.get_attribute("data-dst")
    box = page.locator(f"g.ag-node[data-id='{box_id}']")
    assert box.get_attribute("data-kind") == "scope"
    trunk_box = trunk.evaluate("e => { const b = e.getBBox(); "
                               "return {x0: b.x, x1: b.x + b.width, y0: b.y, y1: b.y + b.height}; }")
    node_box = box.evaluate("g => { const r = g.querySelector('rect.ag-shape').getBBox(); "
                            "const m = g.transform.baseVal.consolidate().matrix; return {x0: r.x + m.e, y: m.f}; }")
    # the trunk runs down the column and on into the box's side
    assert trunk_box["x1"] == pytest.approx(node_box["x0"], abs=2)
    assert trunk_box["y0"] <= node_box["y"] <= trunk_box["y1"]
    stubs = page.evaluate(EDGES_INTO, box_id)
    # most of the fan is out of the document: only the edges near the view are drawn
    assert 0 < len(stubs) < params / 2, (len(stubs), params)
    for stub in stubs:  # each a short straight edge from its parameter into the trunk
        assert stub["height"] < 1 and stub["x1"] == pytest.approx(trunk_box["x0"], abs=1), stub
    # after backward every parameter on screen got its gradient: its edge and the trunk are lit
    assert all(stub["lit"] for stub in stubs), stubs
    assert "ag-lit" in trunk.get_attribute("class").split()
    page.locator(".ag-graph").screenshot(path=str(ARTIFACTS / f"edge-bundle-{theme}.png"))
    # before backward nothing is lit
    page.click("button[data-action=first]")
    assert "ag-lit" not in (trunk.get_attribute("class") or "").split()
    assert ignore_favicon(page.console_errors) == []
