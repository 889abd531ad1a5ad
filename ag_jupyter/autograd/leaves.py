"""A new leaf tensor around an array: the last step of every tensor factory
(``creation.py``), and how the engine and the ops make a tensor of data (a gradient given
as a list, ``ag.add(0.5, 1.5)``) without importing the factories, a layer above them."""
from __future__ import annotations

from .. import backend
from ..arrays import get_default_device
from ..core import _wrap
from . import state


def leaf(array, device, requires_grad: bool = False):
    """``array`` moved to ``device`` (None: the default device) as a leaf tensor, which
    the listener hears of (``on_leaf``) as it hears of ``ag.tensor``'s."""
    target = get_default_device() if device is None else backend.as_device(device)
    t = _wrap(backend.move(array, target), False, None)
    if requires_grad:
        t.requires_grad = True  # the property says why integer tensors can't
    if state.listener is not None:
        state.listener.on_leaf(t)
    return t
