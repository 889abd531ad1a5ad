"""``Multinomial``: how many of ``total_count`` draws from a ``Categorical`` land in each
category (d2l's die rolled many times)."""
from __future__ import annotations

import numpy

from .. import backend
from ..core import _wrap
from ..tensor import Tensor
from .categorical import Categorical, check_parameters
from .distribution import Distribution, as_size


def _log_factorial(counts):
    """``log(n!)`` of an array of whole numbers, ``lgamma(n + 1)``, in float64: a running sum of
    logs up to the largest count (counts are small; no gradient flows through them)."""
    xp = backend.array_module(counts)
    largest = int(counts.max()) if counts.size else 0
    table = numpy.concatenate([[0.0], numpy.cumsum(numpy.log(numpy.arange(1, largest + 1)))])
    return xp.asarray(table)[xp.asarray(counts, dtype=numpy.int64)]


class Multinomial(Distribution):
    """Counts per category of ``total_count`` draws with ``probs`` (or ``logits``): a float
    tensor of shape ``sample_shape + batch_shape + (K,)`` whose last dimension sums to
    ``total_count``."""

    arg_names = ("probs", "logits")

    def __init__(self, total_count: int = 1, probs: Tensor | None = None, logits: Tensor | None = None,
                 validate_args=None) -> None:
        check_parameters(probs, logits)
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        given = probs if probs is not None else logits
        super().__init__(tuple(given.shape[:-1]), (given.shape[-1],))

    @property
    def probs(self) -> Tensor:
        return self._categorical.probs

    @property
    def logits(self) -> Tensor:
        return self._categorical.logits

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @property
    def mean(self) -> Tensor:
        return self.probs * self.total_count

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()) -> Tensor:
        """``total_count`` categorical draws per sample, counted per category (in ``probs``' dtype)."""
        shape = as_size(sample_shape)
        draws = self._categorical.sample((self.total_count,) + shape)  # (total_count, *shape, *batch)
        flat = draws._data.reshape(self.total_count, -1)
        xp = backend.array_module(flat)
        categories = self._event_shape[0]
        counts = xp.zeros((flat.shape[1], categories), dtype=self.probs._data.dtype)
        backend.scatter_add(counts, (xp.arange(flat.shape[1])[None, :], flat), 1)
        return _wrap(counts.reshape(self._extended_shape(shape)), False, None)

    def log_prob(self, value: Tensor) -> Tensor:
        """``log(n! / prod(x_i!)) + sum(x_i log p_i)`` of counts ``value``; the gradient reaches the logits."""
        counts = value._data
        if (counts < 0).any() or (counts != numpy.floor(counts)).any() or \
                (counts.sum(-1) > self.total_count).any():
            raise ValueError(f"Expected value argument (Tensor of shape {tuple(value.shape)}) to be within the "
                             f"support (IntegerInterval(lower_bound=0, upper_bound={self.total_count})) of the "
                             f"distribution {self!r}, but found invalid values:\n{value}")
        shape = numpy.broadcast_shapes(tuple(value.shape), tuple(self.logits.shape))
        logits = self.logits.expand(*shape)
        counts = backend.array_module(counts).broadcast_to(counts, shape)
        skip = (counts == 0) & (logits._data == -numpy.inf)  # 0 * -inf: a category never drawn counts 0
        logits = logits.masked_fill(_wrap(skip, False, None), 0.0) if skip.any() else logits
        powers = (logits * _wrap(counts, False, None)).sum(-1)  # promoted as PyTorch's product is
        constant = (_log_factorial(counts.sum(-1)) - _log_factorial(counts).sum(-1)).astype(powers._data.dtype)
        return powers + _wrap(constant, False, None)

    def entropy(self):
        raise NotImplementedError("Multinomial.entropy is not implemented in ag_jupyter")
