"""Samplers: the order in which a DataLoader visits a dataset's indices, as PyTorch's.

A ``RandomSampler`` draws a new permutation each epoch, from its ``generator`` (so a seeded
generator gives the same sequence of epochs) or, with none, from a generator seeded by one
draw of the global source, as PyTorch does.
"""
from __future__ import annotations

import numpy

from ...backend import CPU, move
from ...core import TENSOR_TYPES
from ...generator import Generator, multinomial_indices, resolve


class Sampler:
    """Base class: an iterable of indices (or of lists of indices, for a batch sampler)."""

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """Each index once per epoch in a random order, or ``num_samples`` draws with ``replacement``."""

    def __init__(self, data_source, replacement: bool = False, num_samples: int | None = None,
                 generator=None) -> None:
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={replacement}")
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def _source(self) -> Generator:
        if self.generator is not None:
            return resolve(self.generator)
        seed = int(resolve(None).integers((), 0, 2 ** 63 - 1))  # one draw of the global source
        return Generator().manual_seed(seed)

    def __iter__(self):
        source, size = self._source(), len(self.data_source)
        if self.replacement:
            yield from source.integers((self.num_samples,), 0, size).tolist()
            return
        for _ in range(self.num_samples // size):
            yield from source.permutation(size).tolist()
        yield from source.permutation(size).tolist()[:self.num_samples % size]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given ``indices`` in a random order each epoch."""

    def __init__(self, indices, generator=None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in resolve(self.generator).permutation(len(self.indices)).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights`` (one per
    sample), with replacement unless told otherwise: how tutorials balance rare classes."""

    def __init__(self, weights, num_samples: int, replacement: bool = True, generator=None) -> None:
        if isinstance(num_samples, bool) or not isinstance(num_samples, int) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        values = move(weights._data, CPU) if weights.__class__ in TENSOR_TYPES else weights
        self.weights = numpy.asarray(values, dtype=numpy.float64)
        if self.weights.ndim != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape "
                             f"{tuple(self.weights.shape)}")
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        source = resolve(self.generator)
        yield from multinomial_indices(self.weights, self.num_samples, self.replacement, source).tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Lists of ``batch_size`` indices from ``sampler``; the short last one kept unless ``drop_last``."""

    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        batch = []
        for index in self.sampler:
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
