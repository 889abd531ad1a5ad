"""``ag.show(obj)``: a ``GraphWidget`` for a trace, a document, or a tensor's graph.

>>> import ag_jupyter as ag
>>> x = ag.tensor(2.0, requires_grad=True)
>>> y = (x * 3).exp()
>>> w = ag.show(y, names={"x": x, "y": y}, animate=False)
>>> sorted(n["label"] for n in w.trace["nodes"] if "label" in n), w.step == len(w.trace["events"])
(['x', 'y'], True)
"""
from __future__ import annotations

import sys
from collections.abc import Mapping

from ..tensor import TENSOR_TYPES
from ..tracing import from_torch, trace, trace_graph, trace_torch
from .contract import OPTIONS as VIEW_OPTIONS
from .graph_widget import GraphWidget
from .labels import label_root, label_trace, torch_params
from .live import LiveBackward
from .naming import name_torch_trace, name_trace


def _is_torch_tensor(obj) -> bool:
    torch = sys.modules.get("torch")  # never import torch just to ask
    return torch is not None and isinstance(obj, torch.Tensor)


def build_widget(document: dict, live: LiveBackward | None = None, **view_options) -> GraphWidget:
    """A widget on ``document``: animated from the start (``animate=True``, the default:
    the view plays the forward and pauses where the backward begins, for the learner to
    step), at the final state (``animate=False``), or live from the end of the forward pass."""
    unknown = sorted(set(view_options) - set(VIEW_OPTIONS))
    if unknown:
        raise TypeError(f"unknown view option(s) {', '.join(map(repr, unknown))}; "
                        f"the options are {', '.join(VIEW_OPTIONS)}")
    if live is not None and view_options.get("predict"):
        # the kernel appends the live steps itself: they would run past a question unasked
        raise ValueError("predict=True asks about a recorded backward pass; it cannot be combined with live=True")
    widget = GraphWidget(trace=document, **view_options)
    if live is not None:
        widget.connect_live(live)
    elif widget.animate:
        widget.step, widget.playing = 0, True  # the graph builds itself; the backward waits
    else:
        widget.step = widget.total
    return widget


def show(obj, live: bool = False, *, names: Mapping | None = None, title: str | None = None,
         **view_options) -> GraphWidget:
    """Show the graph of ``obj`` in a ``GraphWidget``.

    ``obj``: an ``ag.trace``, a trace document (dict), an ag_jupyter tensor (the
    graph behind it, walked without running backward) or a PyTorch tensor
    (``ag.from_torch``). ``live=True`` (ag_jupyter tensors only): the widget
    starts at the end of the forward pass and each step past the end runs one
    node of the real ``backward_stepper(obj)``, so ``.grad`` in the kernel always
    matches the screen. ``names`` (e.g. ``locals()``, or ``globals()`` in marimo)
    labels tensors after variables, as ``%%autograd`` does, for a tensor and for
    an ``ag.trace`` (which it labels in place); see ``naming.py`` for what an
    ``ag.trace_torch`` or a document can be named. ``view_options`` set the widget's traits
    (``direction="TB"``, ``speed=2``, ``animate=False``, ``max_nodes=200``...).
    """
    session = None
    if obj.__class__ in TENSOR_TYPES:
        tr = trace_graph(obj, title=title or _name_of(obj, names) or "ag.show")
        if names is not None:
            label_trace(tr, names)
        if live:
            if not obj.requires_grad:
                raise ValueError("live=True steps the backward pass of a tensor that requires grad; "
                                 "this one does not")
            session = LiveBackward(tr, obj)
        document = tr.to_dict()
    else:
        if live:
            raise ValueError(f"live=True needs an ag_jupyter tensor to run backward from, got "
                             f"{type(obj).__module__}.{type(obj).__name__} (PyTorch's backward cannot "
                             f"pause between nodes; a finished trace has nothing left to run)")
        document = _document_of(obj, names, title)
    return build_widget(document, session, **view_options)


def _name_of(obj, names: Mapping | None) -> str | None:
    """The variable holding ``obj`` (a default title), if ``names`` has one."""
    for name, value in (names or {}).items():
        if value is obj and isinstance(name, str) and not name.startswith("_"):
            return name
    return None


def _document_of(obj, names: Mapping | None, title: str | None) -> dict:
    if isinstance(obj, (trace, trace_torch)):
        if names is not None:
            (name_trace if isinstance(obj, trace) else name_torch_trace)(obj, names)
        document = obj.to_dict()
    elif isinstance(obj, Mapping):
        if not isinstance(obj.get("nodes"), list) or not isinstance(obj.get("events"), list):
            raise ValueError("a trace document needs 'nodes' and 'events' lists (see trace.schema.json)")
        if names is not None:
            raise ValueError("names= cannot label a trace document (a dict): it holds node ids, not "
                             "tensors. Pass the ag.trace itself (ag.show(tr, names=...)), or set a "
                             "node's 'label' in the document")
        document = dict(obj)
    elif _is_torch_tensor(obj):
        document = from_torch(obj, params=torch_params(names or {}), title=title or _name_of(obj, names))
        if names is not None:
            label_root(document, obj, names)
        return document
    else:
        raise TypeError(f"show() takes an ag.trace or ag.trace_torch, a trace document, or an "
                        f"ag_jupyter or PyTorch tensor, got {type(obj).__name__}")
    if title is not None:
        document["title"] = title
    return document
