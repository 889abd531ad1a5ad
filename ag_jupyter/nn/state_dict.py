"""``Module.state_dict`` and ``Module.load_state_dict``.

Loading checks every key, shape and dtype before it copies anything, so a refused
load leaves the model exactly as it was. (PyTorch copies the entries that fit and
then raises; a learner is better served by all-or-nothing.)
"""
from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Mapping

import numpy

from ..autograd.grad_mode import no_grad
from ..tensor import TENSOR_TYPES


class IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict(strict=False)`` did not match."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def state_dict(module, destination=None, prefix: str = "", keep_vars: bool = False) -> OrderedDict:
    if destination is None:
        destination = OrderedDict()
    for name, param in module._parameters.items():
        if param is not None:
            destination[prefix + name] = param if keep_vars else param.detach()
    for name, buffer in module._buffers.items():
        if buffer is not None and name not in module._non_persistent_buffers:
            destination[prefix + name] = buffer if keep_vars else buffer.detach()
    for name, child in module._modules.items():
        if child is not None:
            child.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
    return destination


def load_state_dict(module, given, strict: bool = True) -> IncompatibleKeys:
    if not isinstance(given, Mapping):
        raise TypeError(f"Expected state_dict to be dict-like, got {type(given)}.")
    expected = module.state_dict(keep_vars=True)
    missing = [key for key in expected if key not in given]
    unexpected = [key for key in given if key not in expected]
    errors = []
    if strict:
        if missing:
            errors.append("Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
        if unexpected:
            errors.append("Unexpected key(s) in state_dict: "
                          + ", ".join(f'"{k}"' for k in unexpected) + ". ")
    for key, target in expected.items():
        if key in given and hasattr(target, "materialize") and hasattr(given[key], "shape"):
            target.materialize(tuple(given[key].shape))  # a lazy layer's weight takes the checkpoint's shape
        if key in given:
            problem = _mismatch(key, given[key], target)
            if problem:
                errors.append(problem)
    if errors:
        raise RuntimeError(f"Error(s) in loading state_dict for {type(module).__name__}:\n\t"
                           + "\n\t".join(errors))
    with no_grad():
        for key, target in expected.items():
            if key in given:
                target.copy_(given[key])
    return IncompatibleKeys(missing, unexpected)


def _mismatch(key: str, value, target) -> str | None:
    """Why ``value`` cannot be copied into ``target``, in PyTorch's words; None if it can."""
    if value.__class__ not in TENSOR_TYPES and not isinstance(value, numpy.ndarray):
        return (f'While copying the parameter named "{key}", expected ag.Tensor or Tensor-like '
                f"object from checkpoint but received {type(value)}")
    shape, want = tuple(value.shape), tuple(target.shape)
    if shape != want:
        return (f"size mismatch for {key}: copying a param with shape {list(shape)} from "
                f"checkpoint, the shape in current model is {list(want)}.")
    kind = value._data.dtype.kind if value.__class__ in TENSOR_TYPES else value.dtype.kind
    if kind == "f" and target._data.dtype.kind != "f":
        return (f"dtype mismatch for {key}: copying a floating-point param from checkpoint into "
                f"{target.dtype!r} in the current model would lose its fraction.")
    if kind not in "fiub":
        return f"dtype mismatch for {key}: the checkpoint holds values of NumPy dtype {value.dtype}."
    return None
