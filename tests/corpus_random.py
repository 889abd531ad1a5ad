"""One generator for both runs: the engine's random draws taken from PyTorch's own generators.

PyTorch's random stream (Mersenne Twister, its own transforms) is not reproduced by the
engine, so a corpus program that calls ``torch.randn`` would print other numbers on each
side. For the differential corpus only, the engine's draws are answered by PyTorch: each
``ag.Generator`` is paired with a ``torch.Generator`` seeded alike (the global one with
``torch.default_generator``), and each kind of draw the engine makes (``generator.random_array``'s
kinds, permutations, multinomial picks) is made by the PyTorch call that PyTorch's own
function makes. The engine still does everything else: shapes, dtypes, the order of draws
(``nn.Linear`` initializes weight then bias, as PyTorch does), and all the arithmetic.
"""
from __future__ import annotations

import contextlib
import sys

import numpy
import torch

from ag_jupyter import generator as engine_generator
from ag_jupyter import random as engine_random
from ag_jupyter import tensor_random as engine_tensor_random
from ag_jupyter.nn import functional as engine_functional
from ag_jupyter.utils.data import sampler as engine_sampler

_TORCH_DTYPES = {numpy.dtype(name): getattr(torch, name) for name in
                 ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8")}


class _Paired:
    """The torch.Generator behind each ag.Generator (by identity; the global pair is fixed)."""

    def __init__(self):
        self.pairs = {id(engine_generator.default_generator): torch.default_generator}

    def of(self, source) -> torch.Generator:
        paired = self.pairs.get(id(source))
        if paired is None:
            paired = self.pairs[id(source)] = torch.Generator().manual_seed(source.initial_seed())
        return paired


def _is_torch_name(name: str) -> bool:
    return name == "torch" or name.startswith("torch.")


_REAL = {name: module for name, module in sys.modules.items() if _is_torch_name(name)}


@contextlib.contextmanager
def _real_torch():
    """PyTorch's own modules in sys.modules for one call: inside the switch ``torch`` names the
    engine, and PyTorch's Python code imports ``torch`` as it runs."""
    engine = {name: sys.modules.pop(name) for name in list(sys.modules) if _is_torch_name(name)}
    sys.modules.update(_REAL)
    try:
        yield
    finally:
        for name in [name for name in sys.modules if _is_torch_name(name)]:
            _REAL[name] = sys.modules.pop(name)
        sys.modules.update(engine)


def _torch_dtype(numpy_dtype) -> torch.dtype:
    return _TORCH_DTYPES.get(numpy.dtype(numpy_dtype), torch.float32)  # bool masks: drawn as float32, as dropout


@contextlib.contextmanager
def torch_random_source():
    paired = _Paired()
    original_seed = engine_generator.Generator.manual_seed

    def manual_seed(self, seed):
        original_seed(self, seed)
        with _real_torch():
            paired.of(self).manual_seed(int(seed))
        return self

    def random_array(kind, shape, numpy_dtype, device, a=0.0, b=1.0, generator=None):
        with _real_torch():
            return _draw(kind, shape, numpy_dtype, a, b, paired.of(engine_generator.resolve(generator, device)))

    def permutation(self, n):
        with _real_torch():
            return torch.randperm(n, generator=paired.of(self)).numpy()

    def integers(self, shape, low, high):  # drawn straight from a generator (a loader's seed)
        with _real_torch():
            return torch.randint(int(low), int(high), tuple(shape), generator=paired.of(self)).numpy()

    def multinomial_indices(probabilities, num_samples, replacement, source):
        with _real_torch():
            picks = torch.multinomial(torch.from_numpy(numpy.ascontiguousarray(probabilities)), num_samples,
                                      replacement, generator=paired.of(source))
            return picks.numpy()

    def _draw(kind, shape, numpy_dtype, a, b, source):
        shape = tuple(shape)
        if kind == "integers":
            values = torch.randint(int(a), int(b), shape, generator=source, dtype=torch.int64)
        else:
            drawn = torch.empty(shape, dtype=_torch_dtype(numpy_dtype))
            if kind == "uniform":
                values = drawn.uniform_(a, b, generator=source)
            elif kind == "normal":
                values = drawn.normal_(a, b, generator=source)
            elif kind == "exponential":
                values = drawn.exponential_(a, generator=source)
            elif isinstance(a, numpy.ndarray):  # bernoulli with a probability per entry
                values = torch.bernoulli(torch.from_numpy(numpy.broadcast_to(a, shape).copy()), generator=source)
            else:
                values = drawn.bernoulli_(float(a), generator=source)
        return numpy.asarray(values.numpy()).astype(numpy_dtype)

    patches = [(engine_generator.Generator, "manual_seed", manual_seed),
               (engine_generator.Generator, "permutation", permutation),
               (engine_generator.Generator, "integers", integers)]
    for module in (engine_generator, engine_random, engine_tensor_random, engine_functional):
        if hasattr(module, "random_array"):
            patches.append((module, "random_array", random_array))
    for module in (engine_generator, engine_random, engine_tensor_random, engine_sampler):
        if hasattr(module, "multinomial_indices"):
            patches.append((module, "multinomial_indices", multinomial_indices))
    saved = [(owner, name, owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name))
             for owner, name, _ in patches]
    for owner, name, value in patches:
        setattr(owner, name, value)
    try:
        yield
    finally:
        for owner, name, value in saved:
            setattr(owner, name, value)
