"""What every engine module needs of the tensor, with no import of its own.

``TENSOR_TYPES`` (``Tensor`` and its subclasses: a set lookup on the class is the
cheapest exact tensor test on the per-op path) and ``_wrap``, the per-op constructor.
They live here, not in ``tensor.py``, so that the ops and the autograd engine, which
``tensor.py`` imports for the tensor's methods, can import them at the top: no module
of the engine imports another in a circle.
"""
from __future__ import annotations

TENSOR_TYPES: set = set()
Tensor = None  # the class itself, set by tensor.py once it is defined (register_tensor)
_new = object.__new__


def register_tensor(cls) -> None:
    """Called by tensor.py with the ``Tensor`` class; its subclasses register themselves."""
    global Tensor
    Tensor = cls
    TENSOR_TYPES.add(cls)


def _wrap(data, requires_grad: bool, grad_fn):
    """Make a tensor around ``data`` without copying or checking: the per-op constructor
    (written out, for speed, in ops/number_operators.py and ops/float_methods.py)."""
    t = _new(Tensor)
    t._data = data
    t._requires_grad = requires_grad
    t._grad = None
    t.grad_fn = grad_fn
    return t
