"""``y.exp()``, ``y.tanh()``, ``y.log()``: the Tensor methods of the elementwise ops that are
one ufunc (``Unary``, ``UnaryOnOutput``), with their commonest case, a float tensor,
written out in the method itself, as ``number_operators.py`` does for ``+ - * /``.

Through ``op.apply`` such an op is six Python calls (the method, ``apply``, ``forward``,
``_link``, ``record``, ``_wrap``); here it is the method alone. The op stays defined in
one place: the arithmetic is ``op.ufunc``, backward keeps the input (``Unary``) or the
output (``UnaryOnOutput``) as their ``forward`` does, and anything else (an integer or
bool tensor, an error) goes to ``op.apply``. The node and tensor fields are those of
``function.record`` (which stamps the node itself while a listener is set) and
``core._wrap``, as in ``number_operators.py``;
``tests/test_written_out_ops.py`` compares every slot with what ``op.apply`` makes.
"""
from __future__ import annotations

from .. import core
from ..autograd import state, versions
from ..autograd.function import record
from ..autograd.node import next_sequence_number
from .unary import Unary, UnaryOnOutput

_new = object.__new__


def float_method(name: str, op):
    """The Tensor method ``name`` for ``op``, an op whose forward is its ufunc."""
    if op.forward is not Unary.forward and op.forward is not UnaryOnOutput.forward:
        raise TypeError(f"{op.__name__}.forward does more than its ufunc: {name} must call {op.__name__}.apply")
    ufunc, keeps_output = op.ufunc, op.saves_output

    def method(self):
        x = self._data
        if x.dtype.kind != "f":
            return op.apply(self)
        try:
            data = ufunc(x)
        except Exception:  # op.apply raises it as PyTorch would, and tells a tracer
            return op.apply(self)
        out = _new(core.Tensor)
        out._data = data
        out._grad = None
        if state.grad_enabled:
            link = self.grad_fn
            if link is None and self._requires_grad:
                link = self
            if link is not None:
                node = _new(op)
                if keeps_output:
                    node.saved = ()
                    node.out = data
                else:
                    node.saved = (self,)
                out._requires_grad = True
                out.grad_fn = node
                if state.listener is not None:  # a trace hears of every node in one place
                    return record(node, (link,), (self,), out)
                node._next = (link,)
                node._seq = next_sequence_number()
                node._versions = versions.clock
                return out
        out._requires_grad = False
        out.grad_fn = None
        return out

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"``{op.__name__}.apply(self)``, with a float tensor written out."
    return method
