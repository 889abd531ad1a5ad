"""``y * 0.5``, ``y + 1``, ``1 - y``, ``lr * p.grad``: the Tensor operators ``+ - * /`` with
their commonest case, a float tensor and a Python number, written out in the method itself.

These are most of the ops of a chain of small ops (W1, W3) and of an optimizer's update.
Through ``op.apply`` such an op is eight Python calls (the operator, ``apply``, ``forward``,
``remember``, two ``_link``\\s, ``record``, ``_wrap``), and each call is
2-3% of W1; here it is the operator and ``operand`` (and ``remember`` for ``*`` and ``/``).
The op itself stays defined in one place: the arithmetic is ``op.ufunc``, what backward
keeps is ``op.remember``, and anything else (another dtype, a bool, a NumPy scalar, an
error) goes to ``op.apply``. The node and tensor made here are the ones ``op.apply`` makes
(``Binary.forward`` and ``function.record``; while a listener is set the node is stamped
by ``record`` itself, the one place a trace hears of a node), and ``float_methods.py``
writes out the same fields: a field added to ``record`` or ``_wrap`` goes here and
there too, which ``tests/test_written_out_ops.py`` (every slot compared) insists on.
"""
from __future__ import annotations

from .. import core
from ..autograd import state, versions
from ..autograd.function import record
from ..autograd.node import next_sequence_number
from ..operands import INT_OR_FLOAT, operand

_new = object.__new__


def number_operator(name: str, op, reflected: bool = False):
    """The Tensor method ``name`` for the binary op ``op`` (``__mul__``; ``__rmul__`` with
    ``reflected``: the number comes first)."""
    ufunc, remember = op.ufunc, op.remember

    def operator(self, other):
        if other.__class__ not in INT_OR_FLOAT or self._data.dtype.kind != "f":
            return op.apply(other, self) if reflected else op.apply(self, other)
        x = self._data
        number = operand(other, x)
        try:
            data = ufunc(number, x) if reflected else ufunc(x, number)
        except Exception:  # op.apply raises it as PyTorch would, and tells a tracer
            return op.apply(other, self) if reflected else op.apply(self, other)
        out = _new(core.Tensor)
        out._data = data
        out._grad = None
        if state.grad_enabled:
            link = self.grad_fn
            if link is None and self._requires_grad:
                link = self
            if link is not None:
                node = _new(op)
                node.casts = node.shapes = None
                node.saved = ()
                if reflected:
                    inputs, links = (other, self), (None, link)
                else:
                    inputs, links = (self, other), (link, None)
                if remember is not None:
                    remember(node, inputs[0], inputs[1], data)
                out._requires_grad = True
                out.grad_fn = node
                if state.listener is not None:  # a trace hears of every node in one place
                    return record(node, links, inputs, out)
                node._next = links
                node._seq = next_sequence_number()
                node._versions = versions.clock
                return out
        out._requires_grad = False
        out.grad_fn = None
        return out

    operator.__name__ = operator.__qualname__ = name
    operator.__doc__ = f"``{op.__name__}.apply`` with a Python number {'first' if reflected else 'second'}."
    return operator
