"""A small CNN's training step, read from the screen as a learner steps it: the conv
output's box and the inspector show sample 0's channels as heat maps (pixels read
back from the canvases), the conv and pool boxes carry their kernel, stride and
padding, and the step panel says in words where a convolution's and a max pool's
gradient goes. Screenshots in both themes land in test-artifacts/."""
import pytest
from conftest import ARTIFACTS
from view_page import counter, ignore_favicon, open_document

import ag_jupyter as ag
from ag_jupyter import nn
from ag_jupyter.widgets.labels import label_trace

pytestmark = pytest.mark.browser

# each channel canvas: how many distinct colours it shows (a smear or a blank shows one or two)
CANVAS_COLOURS = """canvas => {
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  const seen = new Set();
  for (let i = 0; i < data.length; i += 4) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
  return seen.size;
}"""


def small_cnn_step():
    ag.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 4, kernel_size=3, padding=1), nn.BatchNorm2d(4), nn.ReLU(),
                          nn.MaxPool2d(2), nn.Flatten(), nn.Linear(4 * 4 * 4, 3))
    images, labels = ag.randn(2, 1, 8, 8), ag.tensor([0, 2])
    with ag.trace() as tr:
        features = model[0](images)
        loss = nn.functional.cross_entropy(model[1:](features), labels)
        loss.backward()
    label_trace(tr, dict(model=model, images=images, labels=labels, features=features, loss=loss))
    return tr.to_dict()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_cnn_step_shows_channels_settings_and_words(page, site, theme):
    doc = small_cnn_step()
    open_document(page, site, doc, f"cnn_step_{theme}", step=0, theme=theme)
    ops = {n["op"]: n["id"] for n in doc["nodes"] if n["kind"] == "op"}
    features = next(n["id"] for n in doc["nodes"] if n.get("label") == "features")
    assert "conv 3×3 stride 1 padding 1" in page.text_content(f"g.ag-node[data-id={ops['ConvolutionBackward0']}]")
    assert "max pool 2×2 stride 2" in page.text_content(f"g.ag-node[data-id={ops['MaxPool2DWithIndicesBackward0']}]")

    said = {}
    total = len(doc["events"])
    for index, event in enumerate(doc["events"]):  # a learner pressing ▶| through the backward pass
        page.click("button[data-action=step]")
        assert counter(page) == f"{index + 1} / {total}"
        if event["type"] == "backward_step" and event["node"] in (ops["ConvolutionBackward0"],
                                                                  ops["MaxPool2DWithIndicesBackward0"]):
            said[event["node"]] = page.locator(".ag-steppanel .ag-layer-note").all_inner_texts()
            if event["node"] == ops["ConvolutionBackward0"]:
                page.wait_for_function("document.querySelectorAll('.ag-math .katex-html').length > 0")
                page.locator(".ag-steppanel").screenshot(path=str(ARTIFACTS / f"cnn-step-conv-panel-{theme}.png"))
    conv, pool = said[ops["ConvolutionBackward0"]], said[ops["MaxPool2DWithIndicesBackward0"]]
    assert conv[0] == ("convolution (kernel 3×3, stride 1, padding 1): the kernel visited 128 positions per "
                       "output channel (2 images × 8×8)."), conv
    assert "each × the weight it met there" in conv[2] and "each of the 4 channels" in conv[2], conv
    assert pool[0].startswith("max pool (kernel 2×2, stride 2): each of the 128 output gradients goes back to the one "
                              "input that was the largest of its 2×2 window (the arg-max)"), pool
    assert pool[1] == "so at most 128 of the 512 inputs receive a gradient.", pool

    thumb = page.locator(f"g.ag-node[data-id={features}] g.ag-thumb")
    assert thumb.get_attribute("data-channels") == "4 of 4"
    assert thumb.locator("rect").count() == 4 * 8 * 8  # four 8x8 channels, every pixel a cell
    page.click("button[data-action=fit]")  # the whole graph in view, as a learner would
    page.wait_for_timeout(800)  # the camera's move
    page.click(f"g.ag-node[data-id={features}]")
    inspector = page.locator(".ag-inspector")
    assert "sample 0: 4 channels" in inspector.inner_text()
    grids = inspector.locator(".ag-channels")
    assert grids.count() == 2, "the value's channels and the gradient's"
    for grid in (grids.nth(0), grids.nth(1)):
        canvases = grid.locator("canvas.ag-heatmap")
        assert canvases.count() == 4 and grid.locator(".ag-channel-name").all_inner_texts() == ["c0", "c1", "c2", "c3"]
        for k in range(4):
            assert canvases.nth(k).evaluate(CANVAS_COLOURS) > 8, f"channel {k} is not a heat map"
    page.screenshot(path=str(ARTIFACTS / f"cnn-step-{theme}.png"))
    assert ignore_favicon(page.console_errors) == []
