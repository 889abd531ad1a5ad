"""A notebook's HTML export keeps its graphs: nbconvert's plain `--to html` shows each
graph's static picture; `--to ag_html` (ours, an nbconvert.exporters entry point) makes
them step, with the bundle carried once per page. (Opened offline in Chromium by
tests/browser/test_export_offline.py.)"""
from __future__ import annotations

import copy
import json
import re
import sys

import pytest
import tomllib

pytest.importorskip("nbconvert")
pytest.importorskip("anywidget")
from example_graphs import readme_example  # noqa: E402
from export_fixtures import README_CELLS, README_GRADS, ROOT, executed  # noqa: E402

from ag_jupyter.export import SteppableHTMLExporter  # noqa: E402

# nbconvert re-serialises its page (attributes may change order), so match loosely
DATA = re.compile(r'<script[^>]*\bclass="ag-graph-data"[^>]*>(.*?)</script>', re.S)


def svg_images(body: str) -> list:
    """The SVG pictures nbconvert's lab template embeds as <img src="data:image/svg+xml;base64,...">."""
    import base64

    encoded = [base64.b64decode(m).decode() for m in re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', body)]
    return encoded + re.findall(r"<svg\b.*?</svg>", re.sub(r"<script\b.*?</script>", "", body, flags=re.S), re.S)


@pytest.fixture(scope="module")
def with_state():
    return executed(README_CELLS, with_widget_state=True)


@pytest.fixture(scope="module")
def without_state(with_state):
    notebook = copy.deepcopy(with_state)
    notebook.metadata.pop("widgets", None)  # as JupyterLab saves by default
    return notebook


def test_plain_html_export_shows_each_graphs_picture(without_state):
    from nbconvert import HTMLExporter

    body, _ = HTMLExporter().from_notebook_node(without_state)
    pictures = svg_images(body)
    assert len(pictures) == 2, "one static picture per graph"
    assert "application/vnd.jupyter.widget-view+json" not in body
    for picture, labels in zip(pictures, ("abcde", "x")):
        for label in labels:
            assert f">{label}" in picture, (label, picture[:300])


def test_steppable_export_carries_the_bundle_once_and_every_graph(with_state):
    before = json.dumps(with_state, sort_keys=True)
    body, resources = SteppableHTMLExporter().from_notebook_node(with_state)
    assert json.dumps(with_state, sort_keys=True) == before, "the caller's notebook is not changed"
    states = [json.loads(block) for block in DATA.findall(body)]
    assert len(states) == 2 and resources["ag_jupyter"]["graphs"] == 2
    assert {n.get("label") for n in states[0]["trace"]["nodes"]} >= set("abcde")
    saved = with_state.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"].values()
    assert any(model.get("buffers") for model in saved)  # the values went as binary parts, kept as base64
    assert not any("summaries" in state["trace"] or isinstance(n.get("value"), int)  # ... and the page's
                   for state in states for n in state["trace"]["nodes"])  # documents hold them as numbers again
    grads = {n["label"]: n["grad"]["values"][0] for n in states[0]["trace"]["nodes"] if n.get("label") in README_GRADS}
    _, names = readme_example()  # the same cell on this process's engine: the same float32 bits
    assert grads == {label: names[label].grad.item() for label in README_GRADS}
    assert body.count("ag-page-mounted") == 1, "the page bundle once per page"
    assert body.count('class="ag-static"') == 2, "each graph's picture stays until it draws"
    assert "unpkg.com" not in body and "require.min.js" not in body and "html-manager" not in body
    assert "_esm" not in body  # the saved state's copy of the bundle is not carried per graph


def test_a_notebook_without_widget_state_exports_pictures_and_says_how_to_step(without_state, caplog):
    exporter = SteppableHTMLExporter()
    with caplog.at_level("WARNING"):
        body, resources = exporter.from_notebook_node(without_state)
    assert resources["ag_jupyter"]["pictures"] == 2 and not DATA.findall(body)
    assert len(svg_images(body)) == 2
    assert "ag-page-mounted" not in body, "no bundle where nothing steps"
    assert any("--execute" in r.getMessage() for r in caplog.records)


def test_export_with_execute_steps_a_notebook_saved_without_state(without_state):
    unexecuted = copy.deepcopy(without_state)
    for cell in unexecuted.cells:
        cell.outputs = []
    exporter = SteppableHTMLExporter(config={"ExecutePreprocessor": {"enabled": True}})
    body, resources = exporter.from_notebook_node(unexecuted, resources={"metadata": {"path": str(ROOT)}})
    counts = {k: v for k, v in resources["ag_jupyter"].items() if k != "head"}
    assert len(DATA.findall(body)) == 2, counts


def test_the_exporter_is_an_nbconvert_entry_point():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    target = project["project"]["entry-points"]["nbconvert.exporters"]["ag_html"]
    assert target == "ag_jupyter.export:SteppableHTMLExporter"
    assert SteppableHTMLExporter.export_from_notebook  # the classic Notebook's menu label (Lab uses the name)
    from importlib.metadata import distribution, entry_points

    installed = distribution("ag_jupyter")
    direct = json.loads(installed.read_text("direct_url.json") or "{}")
    if direct.get("url") != ROOT.as_uri():
        pytest.skip(f"ag_jupyter is installed from {direct.get('url')}, not this checkout: its entry points "
                    f"are that checkout's (CI installs this one with pip install -e)")
    from nbconvert.exporters import get_exporter

    assert "ag_html" in [e.name for e in entry_points(group="nbconvert.exporters")]
    assert get_exporter("ag_html") is SteppableHTMLExporter
    assert sys.modules["ag_jupyter.export"]
