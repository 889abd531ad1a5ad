"""``gradcheck``: compare backward with central finite differences, as PyTorch does."""
from __future__ import annotations

import warnings

import numpy

from ..core import TENSOR_TYPES, _wrap
from . import grad_mode
from .grad import grad


class GradcheckError(RuntimeError):
    pass


def _outputs(func, inputs) -> list:
    out = func(*inputs)
    return [out] if out.__class__ in TENSOR_TYPES else [o for o in out if o.__class__ in TENSOR_TYPES]


def numerical_jacobians(func, inputs, eps: float) -> list:
    """One (output elements x input elements) matrix per (output, differentiable input)."""
    with grad_mode.no_grad():
        sizes = [o._data.size for o in _outputs(func, inputs)]
        result = []
        for tensor in inputs:
            if tensor.__class__ not in TENSOR_TYPES or not tensor.requires_grad:
                continue
            flat = tensor._data.reshape(-1)
            columns = [numpy.zeros((n, flat.size)) for n in sizes]
            for j in range(flat.size):
                original = flat[j].item()
                flat[j] = original + eps
                plus = [numpy.asarray(o._data, dtype=numpy.float64).reshape(-1) for o in _outputs(func, inputs)]
                flat[j] = original - eps
                minus = [numpy.asarray(o._data, dtype=numpy.float64).reshape(-1) for o in _outputs(func, inputs)]
                flat[j] = original
                for k in range(len(sizes)):
                    columns[k][:, j] = (plus[k] - minus[k]) / (2 * eps)
            result.append(columns)
        return result


def analytical_jacobians(func, inputs) -> list:
    differentiable = [t for t in inputs if t.__class__ in TENSOR_TYPES and t.requires_grad]
    outputs = _outputs(func, inputs)
    result = [[numpy.zeros((o._data.size, t._data.size)) for o in outputs] for t in differentiable]
    for k, out in enumerate(outputs):
        for row in range(out._data.size):
            seed = numpy.zeros(out._data.size, dtype=out._data.dtype)
            seed[row] = 1
            grads = grad([out], differentiable, [_wrap(seed.reshape(out._data.shape), False, None)],
                         retain_graph=True, allow_unused=True)
            for i, g in enumerate(grads):
                if g is not None:
                    result[i][k][row, :] = numpy.asarray(g._data, dtype=numpy.float64).reshape(-1)
    return result


def gradcheck(func, inputs, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True) -> bool:
    """True when backward matches finite differences. Use float64 inputs, as in PyTorch.

    >>> import ag_jupyter as ag
    >>> x = ag.randn(3, dtype=ag.float64, requires_grad=True)
    >>> ag.autograd.gradcheck(lambda t: (t * t).sum(), (x,))
    True
    """
    inputs = (inputs,) if inputs.__class__ in TENSOR_TYPES else tuple(inputs)
    for t in inputs:
        if t.__class__ in TENSOR_TYPES and t.requires_grad and t._data.dtype != numpy.float64:
            warnings.warn(f"gradcheck: an input is {t._data.dtype}, not float64; the check may fail "
                          f"from rounding alone", stacklevel=2)
    numerical = numerical_jacobians(func, inputs, eps)
    analytical = analytical_jacobians(func, inputs)
    for i, (num_list, ana_list) in enumerate(zip(numerical, analytical)):
        for k, (num, ana) in enumerate(zip(num_list, ana_list)):
            if not numpy.allclose(ana, num, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(
                    f"Jacobian mismatch for output {k} with respect to input {i},\n"
                    f"numerical:{num}\nanalytical:{ana}\n"
                )
    return True
