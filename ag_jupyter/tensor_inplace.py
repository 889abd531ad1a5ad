"""The in-place methods of ``Tensor`` (``add_``, ``+=``, ``x[i] = v``, ...) and how they
meet autograd: refused on a leaf that requires grad (unless under no_grad), recorded
on anything else, and checked by backward through version counters."""
from __future__ import annotations

import numpy

from . import backend, dtypes
from .autograd import state, versions, views
from .core import TENSOR_TYPES, _wrap
from .operands import INT_OR_FLOAT
from .ops.elementwise import Add, Clamp, Div, Mul, Sub
from .ops.indexing import Index, _is_basic, array_key, ints_first
from .ops.writes import Copy, Fill, FillFromTensor, SetIndex
from .promotion import category


def update_operator(op):
    """``x += y``, ``x -= y``, ``x *= y``, ``x /= y``: ``inplace(x, op, y)``, with the
    ufunc tried first under no_grad, from the operator itself."""
    ufunc = _writing_ufunc(op)

    def operator(self, other):
        if ufunc is None:
            return inplace(self, op, other)
        if state.grad_enabled and _records(self, other):
            return inplace(self, op, other)
        # nothing records (no_grad, or ``p.data += -lr * p.grad``): the ufunc writes in place, and
        # where it refuses (a dtype it cannot cast to) the op runs unrecorded, the ufunc not tried again
        if _ufunc_in_place(self, ufunc, other):
            return self
        return _through_op(self, op, (other,), None, None, False)

    return operator


def _records(tensor, other) -> bool:
    """Whether ``tensor op= other`` joins the graph (grad mode on): either side requires grad,
    or the tensor views one that does."""
    if tensor._requires_grad or (other.__class__ in TENSOR_TYPES and other._requires_grad):
        return True
    record = getattr(tensor, "_view", None)
    return record is not None and record.base._requires_grad


def _writing_ufunc(op):
    """``op.ufunc`` if it can write into an array (``out``), else None: ``Div``'s is a
    Python function that divides integers as floats, ``Clamp`` and the writes have none."""
    ufunc = getattr(op, "ufunc", None)
    return ufunc if isinstance(ufunc, numpy.ufunc) else None


class TensorInPlace:
    __slots__ = ()

    def add_(self, other, *, alpha=1):
        return inplace(self, Add, other if alpha == 1 else other * alpha)

    def sub_(self, other, *, alpha=1):
        return inplace(self, Sub, other if alpha == 1 else other * alpha)

    def mul_(self, other):
        return inplace(self, Mul, other)

    def div_(self, other):
        return inplace(self, Div, other)

    def clamp_(self, min=None, max=None):  # noqa: A002
        return inplace(self, Clamp, min, max)

    def copy_(self, src):
        return inplace(self, Copy, src)

    def fill_(self, value):
        if value.__class__ not in TENSOR_TYPES:
            return inplace(self, Fill, value)
        if value.ndim != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value.ndim} dimensions (shape {list(value.shape)}).")
        if state.grad_enabled and value._requires_grad:  # v's gradient is the sum of the filled entries'
            if self._data.dtype.kind != "f":  # PyTorch records it, then refuses the next op on it
                raise RuntimeError(f"fill_: a {self.dtype.name} tensor cannot carry the gradient of a value "
                                   f"that requires grad; fill it with value.detach() instead")
            return inplace(self, FillFromTensor, value)
        return inplace(self, Fill, value.item())

    def zero_(self):
        return self.fill_(0)

    # ``x -= y``: the optimizer's path (``p -= lr * p.grad`` under no_grad) tries the ufunc
    # from the operator itself, one call where ``sub_`` and ``inplace`` would make three
    __iadd__, __isub__ = update_operator(Add), update_operator(Sub)
    __imul__, __itruediv__ = update_operator(Mul), update_operator(Div)

    def __setitem__(self, key, value):
        key = array_key(key)  # once: the split, the memory check and SetIndex find it converted
        split = ints_first(key) if key.__class__ is tuple else None
        if split is not None:  # PyTorch's order: the ints select a view, the arrays index it
            Index.apply(self, split[0])[split[1]] = value
            return
        # PyTorch checks the written elements (a basic index) or the whole tensor (an
        # advanced one) against the value's memory.
        basic = _is_basic(key) and hasattr(self._data, "strides")
        written = self._data[key] if basic else self._data
        inplace(self, SetIndex, value, key, written=written)


def inplace(tensor, op, *args, written=None):
    """Run ``op`` and write its result into ``tensor``'s memory, as PyTorch's ``op_`` does.

    The result is computed first, so a failing op changes nothing. When the graph
    records, the op runs on a snapshot of the old value and ``tensor`` (or, for a view,
    its base) takes over the op's history, so backward sees the old value and later
    uses see the new one; ``views.rebase`` carries the change to every view.
    """
    # Only a recording op needs the view record (reading an unset slot costs an exception:
    # ~0.5 us on the optimizer's path, p -= lr * p.grad under no_grad).
    record = getattr(tensor, "_view", None) if state.grad_enabled else None
    recording = state.grad_enabled and (
        tensor._requires_grad or (record is not None and record.base._requires_grad)
        or any(a.__class__ in TENSOR_TYPES and a._requires_grad for a in args)
    )
    if not recording and written is None and len(args) == 1:
        ufunc = _writing_ufunc(op)
        if ufunc is not None and _ufunc_in_place(tensor, ufunc, args[0]):
            return tensor
    return _through_op(tensor, op, args, written, record, recording)


def _through_op(tensor, op, args, written, record, recording):
    """``inplace`` past the ufunc's short path: ``op.apply``, then its result written in."""
    for arg in args:
        if arg.__class__ in TENSOR_TYPES:
            _refuse_partial_overlap(tensor._data if written is None else written, arg._data)
    if recording:
        views.check_can_record(tensor, record)
        _check_writable(tensor._data)
        snapshot = _wrap(tensor._data.copy(), tensor._requires_grad, tensor.grad_fn)
        result = op.apply(snapshot, *args)
    else:
        previous = state.grad_enabled
        state.grad_enabled = False
        try:
            result = op.apply(tensor, *args)
        finally:
            state.grad_enabled = previous
    _write(tensor, result._data)
    if recording and result.grad_fn is not None:
        views.rebase(tensor, record, result.grad_fn)
    return tensor


def _refuse_partial_overlap(target, source) -> None:
    """PyTorch refuses to write from memory that overlaps the destination unless it is the
    very same elements (``y.add_(y)`` is fine, ``y[1:].add_(y[:-1])`` is not): the answer
    would depend on the order the elements are written in."""
    if getattr(source, "base", True) is None and getattr(target, "base", True) is None:
        return  # two arrays that each own their memory (p -= lr * p.grad) cannot overlap
    if source is target or getattr(source, "strides", None) is None or \
            getattr(target, "strides", None) is None or source.size == 0 or target.size == 0:
        return
    xp = backend.array_module(target)
    if xp is not backend.array_module(source) or not xp.may_share_memory(target, source):
        return
    if _start(source) == _start(target) and source.shape == target.shape and source.strides == target.strides:
        return
    raise RuntimeError(
        "unsupported operation: some elements of the input tensor and the written-to tensor refer "
        "to a single memory location. Please clone() the tensor before performing the operation."
    )


def _start(array) -> int:
    interface = getattr(array, "__array_interface__", None) or array.__cuda_array_interface__
    return interface["data"][0]


def _check_writable(target) -> None:
    # A NumPy scalar is read-only too, but _write replaces it rather than writing into it.
    if isinstance(target, backend.array_module(target).ndarray) and \
            not getattr(target.flags, "writeable", True):  # CuPy's flags have no "writeable"
        raise RuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location (it was made by expand()). Please clone() the tensor first."
        )


def _ufunc_in_place(tensor, ufunc, value) -> bool:
    """The optimizer's path (``p -= lr * p.grad`` when nothing records): let the ufunc
    write into the tensor's memory, with no temporary copy. NumPy checks shapes and
    casting before it writes, so a refused update changes nothing; anything unusual takes
    the general path, and so does a tensor that is a view, or the view of one (which may
    overlap), except ``w.data``'s view of all of ``w`` (``w.data -= lr * w.grad``)."""
    target = tensor._data
    # A read-only target (a broadcast view) or a NumPy scalar makes the ufunc raise before
    # it writes anything: no need to read .flags, which builds a new object each time.
    data_view = getattr(target, "base", True) is not None
    if data_view and not versions.is_data_view(target) \
            or target.dtype.kind != "f":  # ``w.data``'s view is all of w's memory, laid out as w's
        return False
    if value.__class__ in TENSOR_TYPES:
        value = value._data
        if value.dtype != target.dtype or getattr(value, "base", True) is not None:
            return False
    elif value.__class__ not in INT_OR_FLOAT:
        return False
    try:
        ufunc(target, value, target)  # out, positionally: ufuncs read keywords slower
    except (ValueError, TypeError):
        return False  # the general path raises PyTorch's message for the same input
    versions.bump(target, own=data_view)
    return True


def _write(tensor, values) -> None:
    target = tensor._data
    if values.shape != target.shape:
        raise RuntimeError(
            f"output with shape {list(target.shape)} doesn't match the broadcast shape {list(values.shape)}"
        )
    if values.dtype != target.dtype:
        # PyTorch casts an in-place result down within its category, never across one
        if category(values.dtype) > category(target.dtype):
            raise RuntimeError(
                f"result type {dtypes.of_array(values).name} can't be cast to the desired output "
                f"type {dtypes.of_array(target).name} (an in-place op cannot change a tensor's dtype)"
            )
        values = values.astype(target.dtype)
    if not isinstance(target, backend.array_module(target).ndarray):
        tensor._data = backend.array_module(values).asarray(values).copy()  # a NumPy scalar: immutable
    else:
        _check_writable(target)
        target[...] = values
    versions.bump(tensor._data)
