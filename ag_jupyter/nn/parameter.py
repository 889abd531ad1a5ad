"""``Parameter``: a tensor that a ``Module`` registers as one of its weights."""
from __future__ import annotations

from ..backend import array_module
from ..core import _wrap
from ..creation import empty
from ..tensor import TENSOR_TYPES, Tensor


class Parameter(Tensor):
    """A leaf tensor that requires grad by default and registers itself on assignment.

    Assigning one to a ``Module`` attribute (``self.w = nn.Parameter(...)``) adds it
    to ``parameters()``. It shares the memory of the tensor it wraps, as PyTorch's does.

    >>> import ag_jupyter as ag
    >>> ag.nn.Parameter(ag.ones(2))
    Parameter containing:
    tensor([1., 1.], requires_grad=True)
    """

    __slots__ = ()

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True):
        if data is None:
            data = empty(0)
        elif data.__class__ not in TENSOR_TYPES:
            raise TypeError(f"Parameter expects a tensor, got {type(data).__name__} "
                            f"(wrap it first: nn.Parameter(ag.tensor(...)))")
        array = data._data
        xp = array_module(array)
        # A reduction can leave a NumPy scalar; a weight must be an array it can update in place.
        self._data = array if isinstance(array, xp.ndarray) else xp.asarray(array)
        self._requires_grad = False
        self._grad = None
        self.grad_fn = None
        self.requires_grad = requires_grad  # the property refuses integer dtypes

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __reduce__(self):
        # copy.deepcopy(model) and pickle keep a Parameter a Parameter, on its device.
        return (_rebuild_parameter, (self._data, self._requires_grad))


def _rebuild_parameter(array, requires_grad: bool) -> Parameter:
    return Parameter(_wrap(array, False, None), requires_grad)
