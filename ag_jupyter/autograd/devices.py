"""An op whose tensors live on two devices, looked at only once its backend has failed.

PyTorch treats a 0-d CPU tensor next to GPU tensors as a number; CuPy refuses NumPy
arrays outright. So when an op fails and its tensors span devices, either every CPU
tensor is 0-d and the op runs again with them moved to the GPU (the move is
differentiable, so their gradients still come home), or PyTorch's own refusal replaces
the backend's message. Nothing here runs on an op that succeeds.
"""
from __future__ import annotations

from .. import backend
from ..core import TENSOR_TYPES


def _tensors_in(args):
    for arg in args:
        if arg.__class__ in TENSOR_TYPES:
            yield arg
        elif isinstance(arg, (list, tuple)):  # cat and stack take a sequence
            yield from _tensors_in(arg)


def spread(args) -> tuple[backend.device, backend.device] | None:
    """The GPU and the other device among ``args``' tensors, or None if they share one.
    0-d CPU tensors count as numbers here, as PyTorch counts them."""
    if backend._cupy is None:
        return None
    gpu = other = None
    for tensor in _tensors_in(args):
        where = backend.device_of(tensor._data)
        if where.type == "cuda":
            gpu = gpu or where
            if where != gpu:
                other = where
        elif tensor._data.ndim:
            other = other or where
    return (gpu, other) if gpu is not None and other is not None else None


def numbers_to_gpu(args):
    """For ``args`` whose tensors do not ``spread``: each 0-d CPU tensor moved to the GPU
    the other tensors are on (inside lists too), or None when there is none to move."""
    if backend._cupy is None:
        return None
    tensors = list(_tensors_in(args))
    gpu = next((backend.device_of(t._data) for t in tensors if backend.is_cuda_array(t._data)), None)
    if gpu is None or all(backend.is_cuda_array(t._data) for t in tensors):
        return None

    def moved(arg):
        if arg.__class__ in TENSOR_TYPES:
            return arg if backend.is_cuda_array(arg._data) else arg.to(gpu)
        if isinstance(arg, (list, tuple)):
            return type(arg)(moved(a) for a in arg)
        return arg
    return tuple(moved(a) for a in args)
