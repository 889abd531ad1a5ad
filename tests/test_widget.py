"""GraphWidget: the synced state, Python control, and the MIME bundle with its static fallback."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("anywidget")
import traitlets  # noqa: E402

from ag_jupyter.widgets import GraphWidget  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
XSS = "<img src=x onerror=alert(1)>"
CONTRACT = {"trace": {}, "step": 0, "playing": False, "speed": 4.0, "direction": "LR", "selected": "",
            "collapsed": [], "hide_constants": False, "pass_index": -1, "max_nodes": 0, "live": False,
            "source": "", "animate": True}


@pytest.fixture
def doc() -> dict:
    return json.loads((FIXTURES / "e_graph.json").read_text())


def test_the_model_contract_traits_sync_with_their_defaults():
    w = GraphWidget()
    synced = set(w.keys)
    for name, default in CONTRACT.items():
        assert name in synced, name
        assert getattr(w, name) == default, name
    assert w.get_state("direction") == {"direction": "LR"}


def test_goto_clamps_and_rejects_what_is_not_an_event_number(doc):
    w = GraphWidget(trace=doc)
    total = len(doc["events"])
    assert w.total == total == 22
    assert w.goto(5).step == 5
    assert w.goto(10_000).step == total and w.goto(-3).step == 0
    import numpy

    assert w.goto(numpy.int64(7)).step == 7
    for bad in ("3", 2.5, None, True):
        with pytest.raises(TypeError, match="event number"):
            w.goto(bad)
    w.step = 999  # plain assignment is clamped too (the view may overshoot)
    assert w.step == total


def test_next_back_play_pause(doc):
    w = GraphWidget(trace=doc)
    assert w.next().next().step == 2 and w.back().step == 1 and w.back().back().step == 0
    w.play()
    assert w.playing
    w.pause()
    assert not w.playing
    w.goto(w.total).play()  # play from the end starts over
    assert w.step == 0 and w.playing
    w.goto(w.total).next()
    assert w.step == w.total  # not live: nothing past the end


def test_observe_fires_for_python_and_front_end_changes(doc):
    w = GraphWidget(trace=doc)
    seen = []
    w.observe(lambda change: seen.append((change["name"], change["new"])), names=["step", "playing"])
    w.goto(3)
    w.play()
    # what the browser sends when the learner drags the scrubber
    w.set_state({"step": 4})
    assert seen == [("step", 3), ("playing", True), ("step", 4)]


def test_validation_of_view_traits(doc):
    w = GraphWidget(trace=doc)
    w.direction = "tb"
    assert w.direction == "TB"
    for name, bad in (("direction", "XY"), ("speed", 0.0), ("speed", float("nan")), ("max_nodes", -1),
                      ("pass_index", -2), ("pass_index", 5)):
        with pytest.raises(traitlets.TraitError):
            setattr(w, name, bad)
    with pytest.raises(traitlets.TraitError, match="must be a list"):
        w.trace = {"nodes": {}}


def test_a_shorter_trace_clamps_step_and_resets_the_pass(doc):
    w = GraphWidget(trace=doc, step=20)
    assert w.step == 20  # constructor keywords are validated together
    w.trace = {"title": "small", "nodes": [], "edges": [], "events": [], "passes": []}
    assert w.step == 0 and w.pass_index == -1


def test_animate_false_shows_the_final_state(doc):
    w = GraphWidget(trace=doc)
    w.play()
    w.animate = False
    assert w.step == w.total and not w.playing


def test_mimebundle_has_the_widget_view_and_a_static_svg_of_the_final_graph(doc):
    doc["nodes"][0]["label"] = XSS
    w = GraphWidget(trace=doc)
    data, metadata = w._repr_mimebundle_()
    assert data[WIDGET_MIME]["model_id"] == w.model_id
    assert data["text/plain"] == "<GraphWidget 'e = a*b + log(d)*c': 12 nodes, step 0/22>"
    svg = data["image/svg+xml"]
    root = ET.fromstring(svg)  # well-formed XML
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert f"{XSS} = 2" in texts and "<img" not in svg
    assert data["application/vnd.ag-jupyter.graph+json"] == {"version": 1, "fallback": "image/svg+xml"}
    assert "grad = -3" in texts  # the final gradients, whatever step is on screen
    assert isinstance(metadata, dict)


def test_mimebundle_respects_include_and_exclude_and_caches_the_svg(doc):
    w = GraphWidget(trace=doc)
    data, _ = w._repr_mimebundle_(exclude=["image/svg+xml"])
    assert "image/svg+xml" not in data and WIDGET_MIME in data
    first = w.static_svg()
    assert w.static_svg() is first  # cached
    w.direction = "TB"
    assert w.static_svg() != first


def test_ipython_formats_the_widget_with_all_three_types(doc):
    from IPython.testing import globalipapp

    globalipapp.start_ipython()  # once per process (a second call returns None)
    data, _ = globalipapp.get_ipython().display_formatter.format(GraphWidget(trace=doc))
    assert {WIDGET_MIME, "image/svg+xml", "text/plain"} <= set(data)


def test_a_document_the_svg_cannot_draw_still_gives_the_widget_view(capsys):
    w = GraphWidget(trace={"nodes": [{"label": "no id"}]})
    data, _ = w._repr_mimebundle_()
    assert WIDGET_MIME in data and "image/svg+xml" not in data
    assert "KeyError" in capsys.readouterr().err


def test_a_closed_widget_has_no_bundle(doc):
    w = GraphWidget(trace=doc)
    w.close()
    assert w._repr_mimebundle_ is None  # ipywidgets' convention: nothing left to show
