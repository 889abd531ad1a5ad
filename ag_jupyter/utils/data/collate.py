"""``default_collate``: a list of samples made into one batch, as PyTorch's.

Tensors and NumPy arrays are stacked along a new first dimension; Python floats become a
float64 tensor, ints an int64 tensor (bools a bool tensor); strings stay a list; tuples,
lists, dicts and named tuples are collated field by field (a tuple of fields comes back as
a list, as in PyTorch). ``default_convert`` (the loader's ``batch_size=None``) turns NumPy
arrays into tensors and leaves the rest.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy

from ...core import TENSOR_TYPES
from ...creation import as_tensor, tensor
from ...dtypes import float64
from ...ops.shape import stack

_WHAT_IT_TAKES = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def default_collate(batch):
    first = batch[0]
    if first.__class__ in TENSOR_TYPES:
        return stack(list(batch), 0)
    if isinstance(first, numpy.ndarray):
        if first.dtype.kind in "OSUV":
            raise TypeError(_WHAT_IT_TAKES.format(first.dtype))
        return stack([as_tensor(b) for b in batch], 0)
    if isinstance(first, numpy.generic):
        return as_tensor(numpy.array(batch))
    if isinstance(first, float):
        return tensor(batch, dtype=float64)
    if isinstance(first, int):  # bools too: tensor() keeps them bool
        return tensor(batch)
    if isinstance(first, (str, bytes)):
        return batch
    if isinstance(first, Mapping):
        collated = {key: default_collate([d[key] for d in batch]) for key in first}
        try:
            return type(first)(collated)
        except TypeError:  # a mapping type that cannot be built from a dict
            return collated
    if isinstance(first, tuple) and hasattr(first, "_fields"):  # a named tuple
        return type(first)(*(default_collate(list(field)) for field in zip(*batch)))
    if isinstance(first, Sequence):
        if any(len(sample) != len(first) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        fields = [default_collate(list(field)) for field in zip(*batch)]
        if isinstance(first, tuple):
            return fields  # PyTorch's backward compatibility: a tuple's fields come back as a list
        try:
            return type(first)(fields)
        except TypeError:
            return fields
    raise TypeError(_WHAT_IT_TAKES.format(type(first)))


def default_convert(data):
    """One sample as the loader gives it without batching: NumPy arrays become tensors."""
    if data.__class__ in TENSOR_TYPES:
        return data
    if isinstance(data, numpy.ndarray) and data.dtype.kind not in "OSUV":
        return as_tensor(data)
    if isinstance(data, numpy.generic):
        return as_tensor(data)
    if isinstance(data, Mapping):
        return {key: default_convert(value) for key, value in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, Sequence) and not isinstance(data, (str, bytes)):
        return [default_convert(d) for d in data]
    return data
