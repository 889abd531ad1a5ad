"""Each tutorial's main widget, drawn left to right and top to bottom: stepped to the end
one press at a time, no gradient label ever covers a node box, and at the end no two node
boxes overlap and no module's name covers a node (measured from the rendered DOM's
bounding boxes). Screenshots of each, in
the light and the dark theme, go to test-artifacts/tutorials/."""
from pathlib import Path

import pytest
from conftest import ARTIFACTS
from example_graphs import TUTORIAL_WIDGETS, tutorial_widget
from geometry import boxes_overlap, labels_over_boxes, outline_labels_over_boxes
from view_page import counter, ignore_favicon, open_document

pytestmark = pytest.mark.browser
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
SHOTS = ARTIFACTS / "tutorials"


@pytest.fixture(scope="module")
def tutorial_views(ip):
    """{notebook: (document, view traits)} for each tutorial's main widget."""
    out = {}
    for name, cell, expr in TUTORIAL_WIDGETS:
        if name.startswith("06") and not _has_torch():
            continue
        widget = tutorial_widget(ip, NOTEBOOKS / f"{name}.ipynb", cell, expr)
        view = {k: getattr(widget, k) for k in ("max_nodes", "collapsed", "hide_constants", "pass_index")}
        out[name] = (widget.trace, view)
    return out


def _has_torch():
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.parametrize("direction", ["LR", "TB"])
@pytest.mark.parametrize("name", [name for name, _, _ in TUTORIAL_WIDGETS])
def test_no_overlaps_stepping_a_tutorial_to_the_end(page, site, tutorial_views, name, direction):
    if name not in tutorial_views:
        pytest.skip("PyTorch is not installed")
    doc, view = tutorial_views[name]
    open_document(page, site, doc, f"{name}_{direction}", step=0, direction=direction, **view)
    total = int(counter(page).split(" / ")[1])
    covered = []
    for _ in range(total):
        page.click("button[data-action=step]")
        hit = labels_over_boxes(page)
        if hit:
            covered.append((counter(page), hit))
    assert counter(page) == f"{total} / {total}"
    assert covered == []
    assert boxes_overlap(page) == []
    assert outline_labels_over_boxes(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    if direction == "LR":  # as a learner first sees it, at the end of the backward pass
        open_document(page, site, doc, f"{name}_{direction}", step=total, direction=direction, **view)
        page.locator(".ag-graph").screenshot(path=str(SHOTS / f"{name}-light.png"))
        open_document(page, site, doc, f"{name}_{direction}", step=total, theme="dark", direction=direction, **view)
        page.locator(".ag-graph").screenshot(path=str(SHOTS / f"{name}-dark.png"))
    assert ignore_favicon(page.console_errors) == []
