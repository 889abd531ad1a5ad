"""The optimizer's update as a trace records it: the pass after backward.

``opt.step()`` reports each parameter's update through ``on_update`` with the optimizer's
own numbers (``optim/optimizer.py``'s ``report_update``): the old value, the gradient the
rule used, what it multiplied by the learning rate (``direction``), its state (momentum
buffer; Adam's moments, step and bias corrections) and the new value. ``opt.zero_grad()``
reports the gradients it forgets through ``on_grads_cleared``. Both become events after
the pass's ``backward_end``. The arrays are summarized at once: the optimizer changes its
buffers in place on the next step.
"""
from __future__ import annotations

import numpy

from ..autograd.listener import Listener
from .source_lines import user_line
from .summary import summarize, to_json


def _number(value):
    """A setting as JSON: a number or a flag (lists of numbers, as Adam's betas, kept)."""
    if isinstance(value, (list, tuple)):
        return [_number(v) for v in value]
    if isinstance(value, numpy.generic):
        value = value.item()
    if isinstance(value, bool) or value is None:
        return value
    return float(value) if isinstance(value, float) else value


class UpdateRecording(Listener):
    """Mixed into the ``Recorder``: the update events (it has ``tensor_id`` and ``add_event``)."""

    def on_update(self, param, update: dict) -> None:
        values, settings = {}, {}
        for key, value in update.items():
            if key == "optimizer":
                continue
            if hasattr(value, "shape"):  # an array, or the NumPy scalar of a 0-d parameter's gradient
                values[key] = to_json(summarize(value, self.exact))
            elif value is not None:
                settings[key] = _number(value)
        event = {"type": "update", "node": self.tensor_id(param), "optimizer": update["optimizer"],
                 "values": values, "settings": settings}
        line = user_line(1)
        if line is not None:
            event["line"] = line
        self.add_event(event)

    def on_grads_cleared(self, params, set_to_none: bool) -> None:
        nodes = [self.tensor_id(p) for p in params]
        event = {"type": "grads_cleared", "nodes": nodes, "set_to_none": bool(set_to_none)}
        line = user_line(1)
        if line is not None:
            event["line"] = line
        self.add_event(event)
