"""The ``ag_html`` exporter: nbconvert's lab HTML, with every ag_jupyter graph stepping.

A graph's data comes from the notebook's saved widget state (what ``--execute`` and
JupyterLab's "Save Widget State Automatically" write): the trace document and the view
traits of each GraphWidget. Each graph output becomes a block holding that data and its
static picture (``page.graph_markup``); the page carries the widget bundle once, in
its head, however many graphs it has. No CDN is needed for the graphs: when the
notebook has no other widgets, the widget manager and require.js are left out too.

A graph whose model is not in the saved state (a notebook saved without widget state)
stays a static picture, and the exporter says how to get it stepping.

    jupyter nbconvert --to ag_html --execute notebook.ipynb
"""
from __future__ import annotations

import base64
import copy
from pathlib import Path

from nbconvert.exporters import HTMLExporter
from nbconvert.preprocessors import Preprocessor
from traitlets import default

from ..widgets.page import graph_markup, head_assets, state_from_traits
from ..widgets.wire_values import unpacked

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
SVG = "image/svg+xml"
OUR_WIDGET = "ag_jupyter."  # the start of a GraphWidget's ``_anywidget_id``
TEMPLATES = Path(__file__).resolve().parent / "templates"


def _is_graph(model: dict | None) -> bool:
    state = (model or {}).get("state") or {}
    return str(state.get("_anywidget_id", "")).startswith(OUR_WIDGET) and isinstance(state.get("trace"), dict)


def _plain_state(model: dict) -> dict:
    """A saved GraphWidget's traits with its document as plain JSON: the widget sent its float
    values as binary parts (``widgets/wire_values.py``), which the state keeps as base64."""
    buffers = {}
    for saved in model.get("buffers") or ():
        path, data = saved.get("path") or (), saved.get("data") or ""
        if len(path) == 2 and path[0] == "trace":
            buffers[path[1]] = bytes.fromhex(data) if saved.get("encoding") == "hex" else base64.b64decode(data)
    state = model["state"]
    trace = unpacked(state["trace"], buffers)
    return dict(state, trace=trace)


class GraphOutputs(Preprocessor):
    """Turns each GraphWidget output into a steppable block (or its picture); runs after
    ``--execute``, so it sees the state the run saved."""

    def preprocess(self, nb, resources):
        saved = ((nb.metadata.get("widgets") or {}).get(WIDGET_STATE) or {}).get("state") or {}
        stepping = pictures = 0
        other_widgets = False
        for cell in nb.cells:
            for output in cell.get("outputs", []):
                data = output.get("data") or {}
                view = data.get(WIDGET_VIEW)
                if not view:
                    continue
                model = saved.get(view.get("model_id"))
                if _is_graph(model):
                    picture = data.get(SVG, "")
                    output["data"] = {"text/html": graph_markup(state_from_traits(_plain_state(model)), picture)}
                    stepping += 1
                elif model is None and SVG in data:  # ours or not, there is nothing to run it from
                    output["data"] = {key: value for key, value in data.items() if key != WIDGET_VIEW}
                    pictures += 1
                else:
                    other_widgets = True
        if not other_widgets:  # no CDN widget manager for a page that needs none
            nb.metadata.pop("widgets", None)
        resources.setdefault("ag_jupyter", {})
        resources["ag_jupyter"].update(graphs=stepping, pictures=pictures, other_widgets=other_widgets)
        if pictures:
            self.log.warning(
                "ag_html: %d graph(s) have no saved widget state and are exported as pictures. To make "
                "them step, export with --execute (jupyter nbconvert --to ag_html --execute NOTEBOOK), or "
                "in JupyterLab turn on Settings > Save Widget State Automatically, save, then export.",
                pictures)
        return nb, resources


class SteppableHTMLExporter(HTMLExporter):
    """HTML of a notebook whose ag_jupyter graphs step with no kernel and no network."""

    export_from_notebook = "HTML with steppable graphs (ag_jupyter)"

    @default("template_name")
    def _template_name_default(self):
        return "ag_html"

    @default("extra_template_basedirs")
    def _extra_template_basedirs_default(self):
        return [str(TEMPLATES)]

    def _init_preprocessors(self):
        super()._init_preprocessors()
        self.register_preprocessor(GraphOutputs, enabled=True)  # last: after --execute

    def from_notebook_node(self, nb, resources=None, **kw):
        nb = copy.deepcopy(nb)  # the preprocessor rewrites outputs; the caller's notebook stays as it was
        resources = dict(resources or {})
        resources["ag_jupyter"] = {"head": head_assets()}
        return super().from_notebook_node(nb, resources, **kw)
