"""The random methods of ``Tensor``: the in-place fills (``uniform_``, ``normal_``,
``exponential_``, ``bernoulli_``, ``random_``) and the draws ``bernoulli`` and ``multinomial``,
each from ``generator=`` or the global source (``ag.manual_seed``)."""
from __future__ import annotations

import numpy

from . import backend, dtypes
from .autograd import state
from .core import TENSOR_TYPES, _wrap
from .generator import check_bounds, multinomial_indices, random_array, resolve


class TensorRandom:
    __slots__ = ()

    def uniform_(self, a: float = 0.0, b: float = 1.0, *, generator=None):
        require_floating(self, "check_uniform_bounds")
        if a > b:
            raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={a} > to={b}")
        return self.copy_(random_array("uniform", self.shape, self._data.dtype, self.device, a, b, generator))

    def normal_(self, mean: float = 0.0, std: float = 1.0, *, generator=None):
        require_floating(self, "normal_kernel_cpu")
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
        return self.copy_(random_array("normal", self.shape, self._data.dtype, self.device, mean, std, generator))

    def exponential_(self, lambd: float = 1.0, *, generator=None):
        if self._data.dtype.kind != "f":
            raise RuntimeError(f"Exponential distribution is a continuous probability distribution. dtype must be "
                               f"a floating point but you specified {dtypes.scalar_type_name(self._data)}")
        if not lambd > 0:
            raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
        return self.copy_(random_array("exponential", self.shape, self._data.dtype, self.device, lambd,
                                       generator=generator))

    def bernoulli_(self, p=0.5, *, generator=None):
        """Each element 1 with probability ``p`` (a number, or a tensor of probabilities), else 0."""
        if p.__class__ in TENSOR_TYPES:
            chances = backend.move(p._data, self.device)
            if bool(((chances < 0) | (chances > 1) | (chances != chances)).any()):
                raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false (bernoulli's "
                                   "probabilities must lie in [0, 1])")
        elif not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
        else:
            chances = p
        return self.copy_(random_array("bernoulli", self.shape, self._data.dtype, self.device, chances,
                                       generator=generator))

    def random_(self, start: int | None = None, to: int | None = None, *, generator=None):
        """Integers in ``[start, to)``; ``random_(to)`` is ``[0, to)``; with neither, from 0 to the
        largest integer the dtype holds exactly (2**24 for float32, as PyTorch)."""
        if start is not None and to is None:
            start, to = 0, start
        start = 0 if start is None else start
        if to is None:
            kind = self._data.dtype
            to = 2 if kind.kind == "b" else 2 ** (numpy.finfo(kind).nmant + 1) + 1 if kind.kind == "f" \
                else int(numpy.iinfo(kind).max) + 1
        if start >= to:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={start} >= to={to}")
        check_bounds(start, to, self._data.dtype)
        return self.copy_(random_array("integers", self.shape, self._data.dtype, self.device, start, to, generator))

    def bernoulli(self, p=None, *, generator=None):
        """A new tensor of 0s and 1s in this dtype: 1 with probability ``self`` (each element), or ``p``."""
        if p is None:
            require_floating(self, "bernoulli_tensor_cpu_p_")
            refuse_gradient_through("bernoulli", self)
            p = self
        xp = backend.array_module(self._data)
        return _wrap(xp.zeros_like(self._data), False, None).bernoulli_(p, generator=generator)

    def multinomial(self, num_samples: int, replacement: bool = False, *, generator=None):
        """Indices drawn from each row of this tensor's weights: int64, (num_samples,) or
        (rows, num_samples)."""
        source = resolve(generator, self.device)
        picks = multinomial_indices(backend.move(self._data, backend.CPU), num_samples, replacement, source)
        return _wrap(backend.move(picks, self.device), False, None)


def require_floating(t, kernel: str) -> None:
    """The random fills and draws PyTorch defines for floating dtypes only, refused in its words."""
    if t._data.dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{dtypes.scalar_type_name(t._data)}\': '
                                  f"give it a floating tensor (.float()), or use random_ for integers")


def refuse_gradient_through(name: str, *values) -> None:
    """PyTorch gives normal's and bernoulli's tensor inputs a zero gradient (the draw is not
    reparameterised); the engine records no such node, so it refuses rather than differ."""
    if state.grad_enabled and any(v.__class__ in TENSOR_TYPES and v._requires_grad for v in values):
        raise RuntimeError(f"{name}(): an input requires grad, and PyTorch gives it a zero gradient through "
                           f"the draw, which the engine does not record. Pass its .detach(), or write "
                           f"mean + std * ag.randn_like(mean) for a gradient that flows")
