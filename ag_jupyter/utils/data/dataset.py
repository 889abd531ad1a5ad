"""Datasets, as ``torch.utils.data``'s: anything with ``__getitem__`` and ``__len__``.

>>> import ag_jupyter as ag
>>> from ag_jupyter.utils.data import TensorDataset
>>> pairs = TensorDataset(ag.arange(4.0), ag.tensor([0, 1, 0, 1]))
>>> len(pairs), pairs[1]
(4, (tensor(1.), tensor(1)))
"""
from __future__ import annotations

import bisect
import math
import warnings

from ...core import TENSOR_TYPES
from ...generator import resolve


class Dataset:
    """A map from indices to samples: subclass it and define ``__getitem__`` (and ``__len__``
    for a DataLoader to count batches)."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: "Dataset") -> "ConcatDataset":
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A stream of samples: subclass it and define ``__iter__``; a DataLoader batches it in order."""

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other):
        raise TypeError("an IterableDataset cannot be added to another dataset (ChainDataset is not here)")


class TensorDataset(Dataset):
    """Samples are the tensors' rows: ``dataset[i]`` is ``(t[i] for each tensor)``."""

    def __init__(self, *tensors) -> None:
        for t in tensors:
            if t.__class__ not in TENSOR_TYPES:
                raise TypeError(f"TensorDataset takes tensors, got {type(t).__name__}")
        if any(t.size(0) != tensors[0].size(0) for t in tensors):
            raise AssertionError(f"Size mismatch between tensors (their first dimensions are "
                                 f"{[t.size(0) for t in tensors]})")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset, indices) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, index):
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __getitems__(self, indices: list) -> list:
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """Several datasets one after another: index ``len(first)`` is the second's sample 0."""

    def __init__(self, datasets) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = []
        total = 0
        for d in self.datasets:
            total += len(d)
            self.cumulative_sizes.append(total)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, index: int):
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index = len(self) + index
        which = bisect.bisect_right(self.cumulative_sizes, index)
        if which == len(self.datasets):
            raise IndexError(f"index {index} is out of range for a ConcatDataset of {len(self)} samples")
        before = self.cumulative_sizes[which - 1] if which > 0 else 0
        return self.datasets[which][index - before]


def random_split(dataset, lengths, generator=None) -> list:
    """``dataset`` split into non-overlapping ``Subset``s of ``lengths`` (counts summing to its
    length, or fractions summing to 1: the remainder goes one by one to the first parts), drawn
    by a permutation from ``generator`` (default: the global source)."""
    size = len(dataset)
    lengths = list(lengths)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = []
        for i, fraction in enumerate(lengths):
            if fraction < 0 or fraction > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            counts.append(int(math.floor(size * fraction)))
        for i in range(size - sum(counts)):
            counts[i % len(counts)] += 1
        for i, count in enumerate(counts):
            if count == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.",
                              stacklevel=2)
        lengths = counts
    if sum(lengths) != size:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = resolve(generator).permutation(size).tolist()
    parts, start = [], 0
    for length in lengths:
        parts.append(Subset(dataset, order[start:start + length]))
        start += length
    return parts
