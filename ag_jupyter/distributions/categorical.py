"""``Categorical``: one of K categories, drawn with the given probabilities (or logits), as
makemore draws the next character."""
from __future__ import annotations

import math

import numpy

from .. import creation, random
from ..ops.activation import softmax
from ..ops.cumulative import logsumexp
from ..tensor import Tensor
from .distribution import Distribution, as_size


def check_parameters(probs, logits) -> None:
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")
    given = probs if probs is not None else logits
    if not isinstance(given, Tensor) or given.ndim < 1:
        raise ValueError(f"`{'probs' if probs is not None else 'logits'}` parameter must be at least "
                         f"one-dimensional.")


class Categorical(Distribution):
    """Draws an index in ``[0, K)``; ``probs`` (normalized along the last dimension) or
    ``logits`` (log-probabilities up to a constant), each with leading batch dimensions."""

    arg_names = ("probs", "logits")

    def __init__(self, probs: Tensor | None = None, logits: Tensor | None = None, validate_args=None) -> None:
        check_parameters(probs, logits)
        if probs is not None:
            self.probs = probs / probs.sum(-1, keepdim=True)
            # PyTorch's Simplex check, its tolerance too (which float16 rows can miss)
            off = (self.probs.sum(-1) - 1).abs() >= 1e-6
            if bool((self.probs < 0).any()) or bool(off.any()) or not bool(self.probs.isfinite().all()):
                raise ValueError(f"Expected parameter probs (Tensor of shape {tuple(probs.shape)}) of distribution "
                                 f"{self!r} to satisfy the constraint Simplex(), but found invalid values:\n"
                                 f"{self.probs}")
        else:
            self.logits = logits - logsumexp(logits, -1, keepdim=True)
        given = probs if probs is not None else logits
        self._num_events = given.shape[-1]
        super().__init__(tuple(given.shape[:-1]))

    def __getattr__(self, name: str):
        # probs and logits: each made from the other when first asked for, as PyTorch's lazy properties
        if name == "probs" and "logits" in self.__dict__:
            self.probs = softmax(self.logits, -1)
            return self.probs
        if name == "logits" and "probs" in self.__dict__:
            eps = float(numpy.finfo(self.probs.dtype.numpy).eps)
            self.logits = self.probs.clamp(min=eps, max=1 - eps).log()
            return self.logits
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    @property
    def param_shape(self):
        return (self.probs if "probs" in self.__dict__ else self.logits).shape

    def sample(self, sample_shape=()) -> Tensor:
        """int64 indices of shape ``sample_shape + batch_shape``, one ``multinomial`` call with
        replacement over the rows of ``probs``, as PyTorch draws them."""
        count = math.prod(as_size(sample_shape))
        rows = self.probs.detach().reshape(-1, self._num_events)
        picks = random.multinomial(rows, count, True).T
        return picks.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value: Tensor) -> Tensor:
        """The log-probability of each index in ``value`` (broadcast against the batch)."""
        self._check_support(value)
        index = value.long().unsqueeze(-1)
        shape = numpy.broadcast_shapes(tuple(index.shape), tuple(self.logits.shape))
        log_pmf = self.logits.expand(*shape)
        index = index.expand(*shape[:-1], 1)
        return log_pmf.gather(-1, index).squeeze(-1)

    def entropy(self) -> Tensor:
        smallest = float(numpy.finfo(self.logits.dtype.numpy).min)
        return -(self.logits.clamp(min=smallest) * self.probs).sum(-1)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        from_zero = creation.arange(self._num_events, device=self.probs.device)
        values = from_zero.reshape((-1,) + (1,) * len(self._batch_shape))
        return values.expand(-1, *self._batch_shape) if expand else values

    def _check_support(self, value: Tensor) -> None:
        whole = (value == value.floor()) & (value >= 0) & (value <= self._num_events - 1)
        if not bool(whole.all()):
            raise ValueError(f"Expected value argument (Tensor of shape {tuple(value.shape)}) to be within the "
                             f"support (IntegerInterval(lower_bound=0, upper_bound={self._num_events - 1})) of the "
                             f"distribution {self!r}, but found invalid values:\n{value}")

