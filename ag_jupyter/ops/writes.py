"""The writes: ``x[i] = v`` (``SetIndex``), ``copy_`` and ``fill_``, each one node as
PyTorch draws it (``CopySlices`` and views are in ``autograd/views.py``)."""
from __future__ import annotations

from ..autograd.algebra import sum_to
from ..autograd.function import Op
from ..backend import array_module, device_of, move
from ..core import TENSOR_TYPES
from .indexing import array_key, check_gpu_bounds, without_empty_ellipsis


class SetIndex(Op):
    """``base[key] = value`` as a new array: what an in-place item assignment records."""

    __slots__ = ("key", "value_shape", "kept")
    arity = 2
    node_name = "CopySlices"
    symbol = "[·]="
    formula = (r"\frac{\partial u}{\partial \mathrm{base}} = [\text{not written}],\quad "
               r"\frac{\partial u}{\partial v} = 1 \text{ at the written entries}")

    def forward(self, base, value, key):
        self.key = without_empty_ellipsis(array_key(key), base._data.ndim)
        check_gpu_bounds(base._data, self.key)
        out = base._data.copy()
        written = value._data if value.__class__ in TENSOR_TYPES else value
        self.value_shape = getattr(written, "shape", ())
        out[self.key] = _without_leading_ones(written)
        kept = array_module(out).ones(out.shape, dtype=bool)
        kept[self.key] = False
        self.kept = kept
        return out

    @classmethod
    def explain(cls, args, error: Exception) -> Exception | None:
        """NumPy's "could not broadcast" as PyTorch's expand message, naming both shapes."""
        base, value, key = args
        if not isinstance(error, ValueError) or not hasattr(value, "shape"):
            return None
        try:
            slot = list(base._data[array_key(key)].shape)
        except (IndexError, TypeError, ValueError):
            return None
        shape = list(_without_leading_ones(value._data if value.__class__ in TENSOR_TYPES else value).shape)
        if len(shape) > len(slot):
            name = f"ag.{value.dtype.tensor_type}" if value.__class__ in TENSOR_TYPES else "array"
            return RuntimeError(f"expand({name}{{{shape}}}, size={slot}): the number of sizes provided "
                                f"({len(slot)}) must be greater or equal to the number of dimensions in "
                                f"the tensor ({len(shape)})")
        lead = len(slot) - len(shape)
        for dim, size in enumerate(shape):
            if size != 1 and size != slot[lead + dim]:
                return RuntimeError(f"The expanded size of the tensor ({slot[lead + dim]}) must match the "
                                    f"existing size ({size}) at non-singleton dimension {lead + dim}.  "
                                    f"Target sizes: {slot}.  Tensor sizes: {shape}")
        return None

    def backward(self, F, grad):
        follow_base, follow_value = self._next
        grad_base = grad_value = None
        if follow_base is not None:
            grad_base = grad * F.constant(self.kept)
        if follow_value is not None:
            grad_value = sum_to(F, grad[self.key], self.value_shape)
        return grad_base, grad_value


def _without_leading_ones(array):
    """A written value without its leading dimensions of size 1, which PyTorch drops before it
    broadcasts the value to the slot (``x[0] = v`` with v of shape (1, 3), or (1,) into one element)."""
    shape = getattr(array, "shape", ())
    lead = next((dim for dim, size in enumerate(shape) if size != 1), len(shape))
    return array.reshape(shape[lead:]) if lead else array


class Copy(Op):
    """``dst.copy_(src)``: the destination's old values get no gradient."""

    __slots__ = ("src_shape", "dst_dtype")
    arity = 2
    node_name = "CopyBackwards"
    symbol = "copy"
    formula = r"\frac{\partial u}{\partial \mathrm{src}} = 1,\quad \frac{\partial u}{\partial \mathrm{dst}} = 0"

    def forward(self, dst, src):
        source = src._data if src.__class__ in TENSOR_TYPES else src
        xp = array_module(dst._data)
        self.src_shape = getattr(source, "shape", ())
        source = move(source, device_of(dst._data)) if hasattr(source, "shape") else source
        return xp.broadcast_to(xp.asarray(source, dtype=dst._data.dtype), dst._data.shape).copy()

    def backward(self, F, grad):
        follow_dst, follow_src = self._next
        return (F.zeros_like(grad) if follow_dst is not None else None,
                sum_to(F, grad, self.src_shape) if follow_src is not None else None)


class FillFromTensor(Copy):
    """``a.fill_(b)`` with a 0-d tensor ``b``: ``b`` gets the sum of the gradient, as in PyTorch."""

    __slots__ = ()
    node_name = "FillBackward3"
    symbol = "fill"
    formula = r"\frac{\partial u}{\partial a} = 0,\quad \frac{\partial u_i}{\partial b} = 1"


class Fill(Op):
    """``zero_()`` / ``fill_(v)`` on a tensor in a graph: the old values get no gradient."""

    __slots__ = ()
    node_name = "FillBackward0"
    symbol = "fill"
    formula = r"\frac{\partial u}{\partial a} = 0"

    def forward(self, a, value):
        return array_module(a._data).full_like(a._data, value)

    def backward(self, F, grad):
        return (F.zeros_like(grad),)
