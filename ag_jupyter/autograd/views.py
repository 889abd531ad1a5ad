"""Views: tensors that share memory with a base, and how an in-place op reaches across them.

PyTorch's model, kept here (``torch/csrc/autograd/variable.cpp``, ``CopySlices`` in
``functions/tensor.cpp``):

- A view remembers its *base* (the tensor that owns the memory; a view of a view
  points at the same base) and how to take it again from the base: here the chain of
  view ops with their arguments. It shares the base's memory, so it also shares the
  version counter (``versions.py`` keys counters by the owning array).
- An in-place op on a view writes into the base's memory, so the base's history
  changes: the base's ``grad_fn`` becomes ``CopySlices``, which sends the gradient at
  the view's positions through the op's backward and the rest straight through.
- After any recorded in-place op on the base or one of its views, every live view of
  that base gets a new ``grad_fn``: the view taken again from the base's new history
  (PyTorch does this lazily when ``grad_fn`` is read; here it happens at the in-place
  op, so reading ``grad_fn`` stays a plain attribute on the per-op path).

Only view ops pay for this (one record and one weak reference per view); code that
never writes in place runs as before.
"""
from __future__ import annotations

import weakref

import numpy

from ..backend import array_module
from ..core import TENSOR_TYPES, _wrap
from . import hooks, state, versions
from .algebra import ARRAYS as _ARRAY_ALGEBRA
from .function import Op, _links, record
from .node import Node, next_sequence_number

_new = object.__new__
_ref = weakref.ref


class ViewOf:
    """What a view remembers: its base, the view ops that take it from there, and
    whether grad mode was on when it was taken (PyTorch refuses to record an in-place
    op on a view made under no_grad of a base that requires grad)."""

    __slots__ = ("base", "chain", "grad_mode")


# A view made under no_grad of a base that requires grad requires grad too, yet has no
# history and, in PyTorch, no gradient accumulator: what backward sends it goes nowhere
# until ``requires_grad_(True)`` asks for its own ``.grad``. Such views, by id (the engine
# looks a leaf up here: a dict, where reading an unset ``_view`` slot costs ~0.2 us a leaf).
gradless: dict = {}


def _make_gradless(view) -> None:
    key = id(view)

    def forget(ref):
        if gradless.get(key) is ref:
            del gradless[key]
    gradless[key] = _ref(view, forget)


class ViewOp(Op):
    """A primitive whose output may share memory with its first input (slicing, view,
    transpose, ...): basic indexing and reshape do when the memory allows, and then the
    output is tracked as a view of its input's base."""

    __slots__ = ()

    @classmethod
    def apply(cls, *args):
        source = args[0]
        if source.__class__ not in TENSOR_TYPES:
            return Op.apply.__func__(cls, *args)
        x = source._data
        if isinstance(x, numpy.generic):
            # A NumPy scalar (what some reductions give) cannot be viewed: give the tensor
            # a 0-d array holding the same value, so the view shares its memory.
            x = source._data = numpy.asarray(x)
        owner = x.base
        out = Op.apply.__func__(cls, *args)
        if out._data is x:  # e.g. transpose of a 0-d tensor: still a new view, as in PyTorch
            out._data = x.view()
        data_owner = out._data.base
        # NumPy and CuPy point a view's .base at the array that owns the memory.
        if data_owner is not None and (data_owner is (x if owner is None else owner)
                                       or array_module(x).may_share_memory(x, out._data)):
            _track(source, out, (cls, args[1:]))
            if not out._requires_grad and out._view.base._requires_grad:  # made under no_grad
                out._requires_grad = True
                _make_gradless(out)
        return out


def _track(source, out, link: tuple) -> None:
    record = getattr(source, "_view", None)
    view = _new(ViewOf)
    if record is None:
        view.base, view.chain = source, (link,)
    else:
        view.base, view.chain = record.base, record.chain + (link,)
    view.grad_mode = state.grad_enabled
    out._view = view
    base = view.base
    known = getattr(base, "_views", None)
    if known is None:
        base._views = [_ref(out)]
        return
    known.append(_ref(out))
    if len(known) > 32 and len(known) & (len(known) - 1) == 0:  # at powers of two: amortised
        known[:] = [r for r in known if r() is not None]


def live_views(base) -> list:
    return [v for v in (r() for r in getattr(base, "_views", ())) if v is not None]


def replay(base, chain):
    """Take the view again from ``base``, recording as the current grad mode says."""
    out = base
    for cls, params in chain:
        out = Op.apply.__func__(cls, out, *params)
    return out


def check_can_record(tensor, record) -> None:
    """PyTorch's refusals for an in-place op that would be recorded on ``tensor``."""
    # In PyTorch's order: a no_grad view is refused as one before it is refused as a leaf
    # (it is a leaf too: it requires grad and has no history).
    if record is not None and not record.grad_mode and record.base._requires_grad:
        raise RuntimeError(
            "A view was created in no_grad mode and is being modified inplace with grad mode "
            "enabled. Given that this use case is ambiguous and error-prone, it is forbidden. "
            "You can clarify your code by moving both the view and the inplace either both inside "
            "the no_grad block (if you don't want the inplace to be tracked) or both outside (if "
            "you want the inplace to be tracked)."
        )
    if tensor.grad_fn is None and tensor._requires_grad:  # a leaf (a view made one included)
        raise RuntimeError(
            "a leaf Variable that requires grad is being used in an in-place operation. "
            "Wrap the update in `with ag.no_grad():` or operate on a copy (x.detach())."
        )
    if record is not None and record.base.grad_fn is None and record.base._requires_grad:
        raise RuntimeError(
            "a view of a leaf Variable that requires grad is being used in an in-place operation. "
            "Wrap the update in `with ag.no_grad():`, or write into a clone() of the leaf."
        )


def rebase(tensor, record, node) -> None:
    """``tensor`` was written in place by the op recorded as ``node``: give it (or, for a
    view, its base) the new history, then take every live view of that base again."""
    if record is None:
        base = tensor
        hooks.move_retainer(base, node)
        base.grad_fn = node
    else:
        base = record.base
        copy = CopySlices.wrap(base, record.chain, node)
        hooks.move_retainer(base, copy)
        base.grad_fn = copy
    base._requires_grad = True
    for view in live_views(base):
        if view._view.grad_mode:
            node = AsStrided.make(base, view)
            hooks.move_retainer(view, node)
            view.grad_fn = node
            view._requires_grad = True
        else:  # made under no_grad: PyTorch refuses to differentiate through it from now on
            view.grad_fn = _refused_view()
            view._requires_grad = True  # so ops record the link, and backward reaches the refusal


_NO_GRAD_VIEW_WRITTEN = (
    "A view was created in no_grad mode and its base or another view of its base has been "
    "modified inplace with grad mode enabled. Given that this use case is ambiguous and "
    "error-prone, it is forbidden. You can clarify your code by moving both the view and the "
    "inplace either both inside the no_grad block (if you don't want the inplace to be tracked) "
    "or both outside (if you want the inplace to be tracked)."
)


class RefusedView(Node):
    """The history of a no_grad view whose base was then written in place with grad on.
    PyTorch raises as soon as that view's grad_fn is read; here the per-op path does not
    look, so the refusal comes when backward reaches this node (or at ``backward()`` on it)."""

    __slots__ = ()
    node_name = "AsStridedBackward0"
    symbol = "view"
    formula = r"\text{refused: a no\_grad view whose base changed in place}"

    def backward(self, F, grad):
        raise RuntimeError(_NO_GRAD_VIEW_WRITTEN)


def _refused_view():
    node = _new(RefusedView)
    node.saved = ()
    node._next = ()
    node._versions = versions.clock
    node._seq = next_sequence_number()
    return node


class AsStrided(Node):
    """A view's history after its base changed in place: one node from the base's new
    history, whatever chain of view ops made it, as PyTorch shows it (AsStridedBackward0).
    Backward puts the gradient back at the view's positions in the base's shape."""

    __slots__ = ("steps",)
    node_name = "AsStridedBackward0"
    symbol = "view"
    formula = r"\frac{\partial u}{\partial \mathrm{base}} = \text{the gradient at the view's positions, 0 elsewhere}"

    @classmethod
    def make(cls, base, view):
        node = _new(cls)
        node.saved = ()
        node.steps = _steps(base._data, view._view.chain)[0]
        record(node, (base.grad_fn,), (base,), view)
        return node

    def backward(self, F, grad):
        return (_scatter(self.steps, grad, F),)


def _steps(data, chain):
    """One untracked node per view op of ``chain`` taken on ``data`` (their backward scatters
    back to the base), and the view's array."""
    steps = []
    for cls, params in chain:
        step = _new(cls)
        step.saved = ()
        data = step.forward(_wrap(data, False, None), *params)
        steps.append(step)
    return steps, data


class CopySlices(Node):
    """The base's history after an in-place op on one of its views.

    Backward: the gradient at the view's positions goes through the op's backward
    (``op``); everywhere else it passes to the base's old history unchanged. The op's
    other inputs get what the op's backward gives them.
    """

    __slots__ = ("chain", "op")
    node_name = "CopySlices"
    symbol = "[·]="
    formula = (r"\frac{\partial u}{\partial \mathrm{base}} = "
               r"\text{the op's gradient inside the view, 1 outside}")

    @classmethod
    def wrap(cls, base, chain, op):
        copy = _new(cls)
        copy.chain, copy.op = chain, op
        base_link = _links((base,))
        copy.saved = op.saved  # the engine checks their versions and frees them as the op's
        record(copy, (base_link[0] if base_link else None,) + tuple(op._next[1:]), (base,),
               _wrap(base._data, True, copy))
        copy._versions = op._versions  # the op's stamp: its saved values were saved then
        return copy

    def backward(self, F, grad):
        steps, raw = _steps(grad._data if grad.__class__ in TENSOR_TYPES else grad, self.chain)
        view_grad = replay(grad, self.chain) if F.records else raw
        op = self.op
        if op._versions != versions.clock:
            versions.check(op)
        grads = op.backward(F, view_grad)
        inside = _scatter(steps, array_module(raw).ones(raw.shape, dtype=raw.dtype), _ARRAY_ALGEBRA) != 0
        written = grads[0]
        if written is None:
            written = F.constant(array_module(raw).zeros(raw.shape, dtype=raw.dtype))
        return (F.where(F.constant(inside), _scatter(steps, written, F), grad),) + tuple(grads[1:])


def _scatter(steps, value, F):
    """Put a value of the view's shape back at the view's positions in the base's shape."""
    for step in reversed(steps):
        value = step.backward(F, value)[0]
    return value
