"""``DataLoader``: a dataset in batches, shuffled or not, as PyTorch's (in one process).

>>> import ag_jupyter as ag
>>> from ag_jupyter.utils.data import DataLoader, TensorDataset
>>> loader = DataLoader(TensorDataset(ag.arange(5.0)), batch_size=2)
>>> [batch[0].tolist() for batch in loader], len(loader)
([[0.0, 1.0], [2.0, 3.0], [4.0]], 3)
"""
from __future__ import annotations

import numpy

from ... import backend
from ...core import _wrap
from ...generator import resolve
from .collate import default_collate, default_convert
from .dataset import IterableDataset, Subset, TensorDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler


def get_worker_info():
    """None: data loads in the main process (``num_workers=0``), as PyTorch answers there."""
    return None


class DataLoader:
    """Iterate over ``dataset`` in batches of ``batch_size`` samples, collated by ``collate_fn``
    (``default_collate``: stacked tensors). ``shuffle=True`` visits every index once per epoch
    in a new order, drawn from ``generator`` (reproducible) or the global source.
    ``batch_size=None`` gives the samples one by one, unbatched. Loading runs in this process:
    ``num_workers`` must be 0."""

    def __init__(self, dataset, batch_size: int | None = 1, shuffle: bool | None = None, sampler=None,
                 batch_sampler=None, num_workers: int = 0, collate_fn=None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0, worker_init_fn=None, multiprocessing_context=None,
                 generator=None, *, prefetch_factor=None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        if not isinstance(num_workers, int) or num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if num_workers > 0:
            raise ValueError(f"num_workers={num_workers}: ag_jupyter loads data in the notebook's own process "
                             f"only; use num_workers=0 (the default)")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                             "let num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to None.")
        if persistent_workers:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset = dataset
        self.num_workers = num_workers
        self.pin_memory = pin_memory  # accepted; tensors here live in ordinary memory either way
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.generator = generator
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in (None, False):
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, "
                                 f"but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, "
                                 f"but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler "
                                 f"option, but got batch_sampler={batch_sampler}")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, "
                                 "sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive "
                             "with drop_last")
        if sampler is None and not self._iterable:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self._auto_collation = batch_sampler is not None or (self._iterable and batch_size is not None)
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn

    def __iter__(self):
        # PyTorch's iterator draws one int64 from the loader's generator (or the global one) to
        # seed its workers, shuffled or not: a program that draws after iterating (randn, an
        # init) then meets its numbers where PyTorch's order of draws puts them
        resolve(self.generator).integers((), 0, 2 ** 63 - 1)
        return self._batches()

    def _batches(self):
        if self._iterable:
            yield from self._iterate_stream()
            return
        if self.batch_sampler is None:
            for index in self.sampler:
                yield self.collate_fn(self.dataset[index])
            return
        fetch = getattr(self.dataset, "__getitems__", None)
        rows = self.collate_fn is default_collate and _plain_tensor_rows(self.dataset)
        for indices in self.batch_sampler:
            if rows:
                yield _rows(self.dataset, indices)
                continue
            samples = fetch(indices) if fetch is not None else [self.dataset[i] for i in indices]
            yield self.collate_fn(samples)

    def _iterate_stream(self):
        if self.batch_size is None:
            for sample in self.dataset:
                yield self.collate_fn(sample)
            return
        batch = []
        for sample in self.dataset:
            batch.append(sample)
            if len(batch) == self.batch_size:
                yield self.collate_fn(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.collate_fn(batch)

    def __len__(self) -> int:
        if self._iterable:
            size = len(self.dataset)  # a stream with no __len__ raises TypeError here, as in PyTorch
            if self.batch_size is None:
                return size
            return size // self.batch_size if self.drop_last else -(-size // self.batch_size)
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.sampler)


def _plain_tensor_rows(dataset) -> bool:
    """A TensorDataset (or a Subset of one, as random_split makes) of tensors that need no
    gradient: default_collate's stack of its rows is one index per tensor, which the loader
    takes instead (the same numbers and dtypes; about 4x faster for a batch of 64 images)."""
    while type(dataset) is Subset:
        dataset = dataset.dataset
    return type(dataset) is TensorDataset and not any(t.requires_grad for t in dataset.tensors)


def _rows(dataset, indices: list) -> list:
    while type(dataset) is Subset:
        indices = [dataset.indices[i] for i in indices]
        dataset = dataset.dataset
    chosen = numpy.asarray(indices, dtype=numpy.int64)
    return [t[_wrap(backend.move(chosen, t.device), False, None)] for t in dataset.tensors]
