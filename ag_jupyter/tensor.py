"""``Tensor``: one NumPy or CuPy array plus the autograd state PyTorch gives a tensor."""
from __future__ import annotations

import numpy

from . import backend, deferred_checks, dtypes
from .arrays import legacy_array
from .autograd import hooks, state, versions, views
from .autograd.engine import run_backward  # at the top: an import per backward() cost ~0.6 us
from .core import TENSOR_TYPES, _wrap, register_tensor
from .ops.dims import normalize_dim
from .ops.transfer import ToDevice, ToDtype
from .printing import tensor_repr
from .tensor_compare import TensorCompare
from .tensor_families import TensorFamilies
from .tensor_inplace import TensorInPlace
from .tensor_math import TensorMath
from .tensor_random import TensorRandom


class Tensor(TensorMath, TensorInPlace, TensorCompare, TensorRandom, TensorFamilies):
    """A multi-dimensional array that can record how it was computed.

    Make one with ``ag.tensor(...)`` or a creation function. The legacy constructor
    works as ``torch.Tensor``'s does: ``Tensor(data)`` always gives the default float
    dtype (``Tensor([[2, 2]])`` is float32, where ``ag.tensor`` infers int64), and
    ``Tensor(2, 3)`` is a 2x3 tensor (of zeros; PyTorch leaves it uninitialised).
    """

    # _view (a views.ViewOf) and _views (weak references to views taken of this tensor)
    # are set only by view ops, so the per-op constructor never touches them.
    __slots__ = ("_data", "_requires_grad", "_grad", "grad_fn", "_view", "_views", "__weakref__")
    __array_ufunc__ = None  # NumPy defers to our operators: ndarray * tensor is a tensor
    __hash__ = object.__hash__

    def __init__(self, *args):
        self._data = legacy_array(args)
        self._requires_grad = False
        self._grad = None
        self.grad_fn = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        TENSOR_TYPES.add(cls)

    # ----- what it is -------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        return Size(self._data.shape)

    def size(self, dim: int | None = None):
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[normalize_dim(dim, self._data.ndim)]

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel

    @property
    def dtype(self) -> dtypes.dtype:
        return dtypes.of_array(self._data)

    @property
    def device(self) -> backend.device:
        return backend.device_of(self._data)

    @property
    def is_cuda(self) -> bool:
        return backend.is_cuda_array(self._data)

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    # ----- autograd state ---------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        if self.grad_fn is not None:
            if not flag:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to "
                    "use a computed variable in a subgraph that doesn't require differentiation "
                    "use var_no_grad = var.detach()."
                )
            return
        if flag and self._data.dtype.kind != "f":
            raise RuntimeError(
                f"Only Tensors of floating point and complex dtype can require gradients "
                f"(this tensor is {self.dtype.name}; convert it with .float() first)"
            )
        if id(self) in views.gradless:  # a no_grad view: its base's requires_grad holds
            if flag:  # it now takes its own .grad
                del views.gradless[id(self)]
            return
        self._requires_grad = bool(flag)

    def requires_grad_(self, requires_grad: bool = True) -> "Tensor":
        self.requires_grad = requires_grad
        if requires_grad and state.listener is not None:
            state.listener.on_leaf(self)
        return self

    @property
    def grad(self):
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        """PyTorch refuses a gradient that could not be this tensor's: another kind, shape,
        dtype or device (a later backward would otherwise broadcast into it)."""
        if value is not None:
            if value.__class__ not in TENSOR_TYPES:
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(value).__name__}")
            if value._data.shape != self._data.shape:
                raise RuntimeError(f"assigned grad has data of a different size (grad shape "
                                   f"{list(value._data.shape)}, tensor shape {list(self._data.shape)})")
            if value._data.dtype != self._data.dtype:
                raise RuntimeError(f"assigned grad has data of a different type ({value.dtype.name} "
                                   f"for a {self.dtype.name} tensor)")
            if backend.device_of(value._data) != backend.device_of(self._data):
                raise RuntimeError(f"assigned grad has data located on a different device "
                                   f"({value.device} for a tensor on {self.device})")
        self._grad = value

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def data(self) -> "Tensor":
        """The same storage, detached and untracked by autograd (PyTorch's ``.data``); unlike
        ``detach()`` its in-place changes are not counted as this tensor's (as in PyTorch)."""
        if isinstance(self._data, numpy.generic):  # a 0-d result kept as a NumPy scalar: give it memory to share
            self._data = numpy.asarray(self._data)
        data = self._data
        detached = _wrap(versions.own_counter(data.view(), data), False, None)
        detached._view = None  # not an autograd view (as in PyTorch); set, so the update's check finds it at once
        return detached

    @data.setter
    def data(self, other: "Tensor") -> None:
        array = other._data if other.__class__ in TENSOR_TYPES else numpy.asarray(other)
        if versions.counts_for(array, self._data):
            return  # ``w.data -= v`` assigns back the very view it wrote through: w keeps its counter
        self._data = array

    @property
    def _base(self):
        """The tensor whose memory this view shares (None if it owns its memory), as in PyTorch."""
        record = getattr(self, "_view", None)
        return None if record is None else record.base

    def _is_view(self) -> bool:
        return getattr(self, "_view", None) is not None

    @property
    def _version(self) -> int:
        return versions.version(self._data)

    def detach(self) -> "Tensor":
        return _wrap(self._data, False, None)

    def detach_(self) -> "Tensor":
        self.grad_fn = None
        self._requires_grad = False
        return self

    def retain_grad(self) -> None:
        if self.grad_fn is None:
            if not self._requires_grad:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            return  # a leaf keeps its grad anyway
        hooks.retain(self)

    @property
    def retains_grad(self) -> bool:
        return hooks.retains(self)

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor
        replaces the gradient. Returns a handle whose ``remove()`` unregisters it."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        return hooks.register(self, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None:
        """Compute the gradient of this tensor with respect to the graph's leaves."""
        run_backward((self,), (gradient,), retain_graph, create_graph, inputs)

    # ----- conversions ------------------------------------------------------------
    def item(self):
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar"
            )
        if deferred_checks.pending:  # the GPU's queued index checks, before a number is read
            deferred_checks.raise_pending()
        if state.listener is not None:
            state.listener.on_read(self)
        return self._data.item()

    def tolist(self):
        if state.listener is not None:
            state.listener.on_read(self)
        return backend.move(self._data, backend.CPU).tolist()

    def numpy(self) -> numpy.ndarray:
        if self.is_cuda:
            raise TypeError(
                f"can't convert {self.device} device type tensor to numpy. Use Tensor.cpu() to "
                f"copy the tensor to host memory first."
            )
        if self._requires_grad:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
            )
        return numpy.asarray(self._data)

    def __array__(self, dtype=None, copy=None):
        array = self.numpy()
        return array if dtype is None else array.astype(dtype)

    def to(self, *args, **kwargs) -> "Tensor":
        """``to(device)``, ``to(dtype)``, ``to(device, dtype)`` or ``to(other_tensor)``."""
        target_device, target_dtype = None, kwargs.get("dtype")
        if "device" in kwargs:
            target_device = backend.as_device(kwargs["device"])
        for arg in args:
            if arg.__class__ in TENSOR_TYPES:
                target_device, target_dtype = arg.device, arg.dtype
            elif isinstance(arg, dtypes.dtype):
                target_dtype = arg
            elif arg is not None:
                target_device = backend.as_device(arg)
        result = self
        if target_device is not None and target_device != result.device:
            result = ToDevice.apply(result, target_device)
        if target_dtype is not None and dtypes.to_numpy(target_dtype) != result._data.dtype:
            target = dtypes.to_numpy(target_dtype)
            if target.kind == "f":
                result = ToDtype.apply(result, target)
            else:
                result = _wrap(result._data.astype(target), False, None)
        return result

    def cpu(self) -> "Tensor":
        return self.to("cpu")

    def cuda(self, device=None) -> "Tensor":
        return self.to("cuda" if device is None else f"cuda:{device}" if isinstance(device, int) else device)

    def float(self) -> "Tensor":
        return self.to(dtypes.float32)

    def double(self) -> "Tensor":
        return self.to(dtypes.float64)

    def half(self) -> "Tensor":
        return self.to(dtypes.float16)

    def long(self) -> "Tensor":
        return self.to(dtypes.int64)

    def int(self) -> "Tensor":
        return self.to(dtypes.int32)

    def bool(self) -> "Tensor":
        return self.to(dtypes.bool_)

    def byte(self) -> "Tensor":
        return self.to(dtypes.uint8)

    def char(self) -> "Tensor":
        return self.to(dtypes.int8)

    def short(self) -> "Tensor":
        return self.to(dtypes.int16)

    def type(self, dtype=None):
        if dtype is None:
            return f"ag.{self.dtype.tensor_type}"
        return self.to(dtype)

    def contiguous(self) -> "Tensor":
        flags = getattr(self._data, "flags", None)
        if flags is None or flags.c_contiguous:
            return self
        return self.clone()  # PyTorch copies a non-contiguous tensor (CloneBackward0)

    def is_contiguous(self) -> bool:
        flags = getattr(self._data, "flags", None)
        return flags is None or bool(flags.c_contiguous)

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._data.shape[0]))

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise RuntimeError(
                f"Boolean value of Tensor with more than one value is ambiguous (shape {list(self.shape)})"
            )
        return bool(self.item())

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __repr__(self) -> str:
        return tensor_repr(self)

    def __format__(self, format_spec: str) -> str:
        """``f"{loss:.4f}"`` formats a 0-d tensor's number, as PyTorch does; other tensors take
        only the empty spec (their printing)."""
        if self._data.ndim == 0:
            return self.item().__format__(format_spec)
        return object.__format__(self, format_spec)

    def __reduce__(self):
        # Pickling (and deepcopy) keeps the device, as PyTorch does; a graph is not kept.
        return (_rebuild, (self._data, self._requires_grad, self.grad))


def _rebuild(array, requires_grad, grad=None):
    t = _wrap(array, requires_grad, None)
    t._grad = grad
    return t


class Size(tuple):
    """A shape, printed as PyTorch prints it."""

    def __repr__(self) -> str:
        return f"ag.Size({list(self)})"

    def numel(self) -> int:
        count = 1
        for s in self:
            count *= s
        return count


register_tensor(Tensor)
