"""``GraphWidget``: an anywidget whose synced state is a trace document plus view state."""
from __future__ import annotations

import pathlib

import anywidget
import traitlets

STATIC = pathlib.Path(__file__).resolve().parent.parent / "static"


class GraphWidget(anywidget.AnyWidget):
    _esm = STATIC / "widget.js"
    _css = STATIC / "widget.css"

    trace = traitlets.Dict().tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)
