"""``GraphWidget``: an anywidget whose synced state is a trace document plus view state.

The browser side (``js/``, bundled into ``ag_jupyter/static/``) reads only these
traits; Python reads and writes the same ones, so ``w.step = 5`` moves the view
and a click in the view changes ``w.step`` (``w.observe`` sees both).

Live mode (``ag.show(loss, live=True)``, ``%%autograd --live``): the document
holds the forward pass, and the backward pass is run for real one graph node at
a time when the learner steps past the last recorded event. The view sends
``{"type": "advance"}`` (``"all": true`` for ``▶|``); ``advance()`` runs one node of the real backward
(``ag.autograd.backward_stepper``), replaces ``trace`` with the grown document (sending the
front end only its change) and moves ``step`` to its end, so ``x.grad`` in the kernel is
what the screen shows.

>>> w = GraphWidget(trace={"title": "empty", "nodes": [], "edges": [], "events": []})
>>> w.goto(3).step   # clamped to the number of events
0
"""
from __future__ import annotations

import operator
import pathlib
import traceback

import anywidget
import traitlets

from ..tracing.gc_pause import collections_paused
from .checks import CheckMethods
from .comm_state import SentWithoutBufferSearch, document_to_json
from .contract import check_document_version, check_option, synced_traits
from .live import document_change
from .myst import write_myst
from .page import write_html
from .static_svg import static_svg

STATIC = pathlib.Path(__file__).resolve().parent.parent / "static"
SVG_MIME = "image/svg+xml"
# The JupyterLab / Notebook 7 extension (js/labextension) renders outputs of this type:
# the live widget, or the SVG beside it where the widget's model is gone.
GRAPH_MIME = "application/vnd.ag-jupyter.graph+json"


# The synced traits are declared once, in contract.json (see contract.py), which the
# front end reads too; the class below adds their validation and the Python controls.
_ContractTraits = type("_ContractTraits", (anywidget.AnyWidget,), synced_traits())
_ContractTraits.class_traits()["trace"].tag(to_json=document_to_json)  # sent as it is (comm_state.py)


class GraphWidget(CheckMethods, SentWithoutBufferSearch, _ContractTraits):
    """The graph of a trace document, animated forward and stepped backward.

    Its synced traits (``trace``, ``step``, ``playing``, ``speed``, ``direction``,
    ``selected``, ``collapsed``, ``hide_constants``, ``pass_index``, ``max_nodes``,
    ``live``, ``source``, ``animate``) are declared in ``contract.json``."""

    _esm = STATIC / "widget.js"
    _css = STATIC / "widget.css"

    def __init__(self, trace: dict | None = None, **kwargs):
        super().__init__(**({"trace": trace} if trace is not None else {}), **kwargs)
        self._live = None  # a LiveBackward (live.py) in live mode
        self._svg_cache: tuple | None = None  # (document, direction, svg): kept until trace changes
        self.on_msg(self._on_message)

    # ----- validation ---------------------------------------------------------------
    @property
    def total(self) -> int:
        """How many events the document has (``step`` runs from 0 to this)."""
        events = self.trace.get("events")
        return len(events) if isinstance(events, list) else 0

    @traitlets.validate("trace")
    def _check_trace(self, proposal):
        doc = proposal["value"]
        try:
            check_document_version(doc)
        except ValueError as error:
            raise traitlets.TraitError(str(error)) from None
        for key in ("nodes", "edges", "events"):
            if key in doc and not isinstance(doc[key], list):
                raise traitlets.TraitError(f"trace[{key!r}] must be a list, got {type(doc[key]).__name__}")
        return doc

    @traitlets.validate("step")
    def _clamp_step(self, proposal):
        return min(max(0, proposal["value"]), self.total)

    @traitlets.validate("direction", "speed", "max_nodes")
    def _check_option(self, proposal):
        try:
            return check_option(proposal["trait"].name, proposal["value"])
        except ValueError as error:
            raise traitlets.TraitError(str(error)) from None

    @traitlets.validate("pass_index")
    def _check_pass(self, proposal):
        value, passes = proposal["value"], self.trace.get("passes") or []
        if value < -1 or (passes and value >= len(passes)):
            raise traitlets.TraitError(f"pass_index must be -1 (all) or 0..{max(len(passes) - 1, 0)}, got {value}")
        return value

    @traitlets.observe("trace")
    def _trace_changed(self, change) -> None:
        self._svg_cache = None
        self.step = min(self.step, self.total)
        if self.pass_index >= len(self.trace.get("passes") or []) and self.pass_index != -1:
            self.pass_index = -1

    @traitlets.observe("animate")
    def _animate_changed(self, change) -> None:
        if not change["new"]:  # no animation: the final graph, now
            self.playing = False
            self.step = self.total

    # ----- Python control -------------------------------------------------------------
    def goto(self, n) -> GraphWidget:
        """Show the state after ``n`` events (clamped to ``0..total``)."""
        if isinstance(n, bool):
            raise TypeError(f"goto() takes an event number (an int), got {n!r}")
        try:
            n = operator.index(n)
        except TypeError:
            raise TypeError(f"goto() takes an event number (an int), got {n!r} "
                            f"({type(n).__name__})") from None
        self.step = n  # the validator clamps
        return self

    def next(self) -> GraphWidget:
        """One event forward; in live mode, past the last event, one more node of the real backward."""
        if self.step < self.total:
            self.step += 1
        elif self.live:
            self.advance()
        return self

    def back(self) -> GraphWidget:
        """One event back (the kernel's gradients do not go back: see ``advance``)."""
        self.step -= 1
        return self

    def play(self) -> GraphWidget:
        """Start playing (the view advances ``step`` at ``speed`` and pauses where a backward
        pass begins, so the backward waits for the learner); from the end, start over."""
        if self.step >= self.total and not self.live:
            self.step = 0
        self.playing = True
        return self

    def pause(self) -> GraphWidget:
        self.playing = False
        return self

    # ----- live mode --------------------------------------------------------------------
    def connect_live(self, live) -> None:
        """Drive ``live`` (a ``LiveBackward``): the view starts at the end of the forward pass."""
        self._live = live
        with self.hold_sync():
            self.trace = live.document()
            self.live = True
            self.playing = False
            self.step = self.total

    @property
    def backward_done(self) -> bool:
        """Live mode: whether the real backward pass has run to the end (True when not live)."""
        return self._live is None or self._live.done

    def advance(self) -> bool:
        """Live mode: run the real backward one more graph node and show its events.

        Returns False when there is nothing more to run. Going back (``back``,
        ``goto``) replays recorded events only: the kernel's ``.grad`` values stay
        those of the furthest step taken.
        """
        if self._live is None or self._live.done:
            return False
        try:
            self._live.advance()
        finally:  # also when the backward raised: show what it recorded (backward_end completed=false)
            self._show_grown_document()
        return True

    def advance_all(self) -> GraphWidget:
        """Live mode: run the rest of the real backward pass and show its end (``▶|``)."""
        if self._live is None or self._live.done:
            return self
        try:
            while not self._live.done:
                self._live.advance()
        finally:
            self._show_grown_document()
        return self

    def _show_grown_document(self) -> None:
        """Live mode: show the document the real backward has grown, at its end. ``trace``
        takes the whole document in Python (validators and observers run; a view opened
        later, or a page reloaded, reads it), and the front end is sent only the change
        (``{"type": "trace_change", ...}``, see ``live.document_change``): O(change) bytes
        a step, where syncing ``trace`` sent every node's summary again."""
        grown = self._live.document()
        change = document_change(self.trace, grown)
        with self.hold_sync():
            self.trace = grown
            self._states_to_send.discard("trace")  # ipywidgets' held sync: the change goes instead
            if change:
                self.send({"type": "trace_change", **change})  # now, so it arrives before the step
            self.step = self.total

    def _on_message(self, widget, content, buffers) -> None:
        if isinstance(content, dict) and content.get("type") == "advance":
            try:
                self.advance_all() if content.get("all") else self.advance()
            except Exception:  # noqa: BLE001 - a comm handler has no caller to raise to
                traceback.print_exc()  # ipykernel shows it in the output of the cell being run
        elif isinstance(content, dict) and content.get("type") == "check":
            self._answer_check(content)  # checks.py: nudge, one step downhill

    # ----- display ------------------------------------------------------------------------
    def static_svg(self) -> str:
        """The final graph as SVG text (cached until the document or direction changes)."""
        cache = self._svg_cache
        if cache is None or cache[0] is not self.trace or cache[1] != self.direction:
            with collections_paused():  # tens of thousands of new tuples and no cycle among them
                cache = self._svg_cache = (self.trace, self.direction, static_svg(self.trace, self.direction))
        return cache[2]

    def _repr_mimebundle_(self, **kwargs):
        """The widget view plus a static SVG of the final graph (and text): a saved
        notebook shows the picture where the widget cannot run (JupyterLab and
        Notebook 7 through ``GRAPH_MIME``'s renderer; nbconvert and GitHub pick the SVG)."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        # anywidget >= 0.9 returns (data, metadata); ipywidgets' own returns data only
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        include, exclude = kwargs.get("include"), kwargs.get("exclude")
        if (not include or SVG_MIME in include) and not (exclude and SVG_MIME in exclude):
            try:
                data[SVG_MIME] = self.static_svg()
            except Exception:  # noqa: BLE001 - a broken picture must not hide the live view
                traceback.print_exc()
            else:
                data[GRAPH_MIME] = {"version": 1, "fallback": SVG_MIME}
        return data, metadata

    def write_html(self, path, title: str | None = None) -> pathlib.Path:
        """Write this graph as one self-contained HTML page that steps with no kernel
        (``widgets/page.py``): bundle, styles, fonts and the trace inline, no network
        request. A live widget writes the steps recorded so far. ``title`` names the page
        (default: after the graph's output, ``Computation graph of loss``). The file is
        readable by others (0644 under the usual umask), as a web server needs. Returns the path.
        """
        return write_html(self, path, title)

    def to_myst(self, path) -> pathlib.Path:
        """Write this graph for a MyST / Jupyter Book 2 page (``widgets/myst.py``): ``path``
        (a ``.md`` file holding the ``{anywidget}`` directive) and the module, styles and
        model beside it. The page steps with no kernel. Returns the Markdown file's path."""
        return write_myst(self, path)

    def __repr__(self) -> str:
        title = self.trace.get("title", "")
        nodes = len(self.trace.get("nodes") or ())
        mode = ", live" if self.live else ""
        return f"<GraphWidget {title!r}: {nodes} nodes, step {self.step}/{self.total}{mode}>"
