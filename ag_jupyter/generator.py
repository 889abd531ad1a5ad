"""``ag.Generator``: the one random source, for CPU and CUDA alike.

Every random number the engine draws (rand, randn, randint, randperm, normal, bernoulli,
multinomial, dropout, nn.init, a DataLoader's shuffle) comes from a ``Generator``: the one
passed as ``generator=``, else ``default_generator``, the global source ``ag.manual_seed``
seeds. Numbers are drawn by NumPy's PCG64 on the CPU and moved to the tensor's device
through ``backend``, so a seed gives the same numbers on CPU and GPU. PyTorch's stream
(Philox / Mersenne Twister) is not reproduced bit for bit: the same seed gives the same
numbers here, not PyTorch's numbers.

A fresh ``Generator()`` starts from PyTorch's default seed, 67280421310721, so two fresh
generators give the same numbers, as in PyTorch; the global one is seeded at random when
the package loads (``ag.initial_seed()`` tells which seed).
"""
from __future__ import annotations

import secrets

import numpy

from . import backend, dtypes
from .core import TENSOR_TYPES, _wrap

DEFAULT_SEED = 67280421310721  # PyTorch's default_rng_seed_val
_UINT64 = 2 ** 64
# get_state's layout: the initial seed, then PCG64's state, increment and buffered half word
_STATE_FIELDS = (("seed", 8), ("state", 16), ("inc", 16), ("has_uint32", 4), ("uinteger", 4))
STATE_SIZE = sum(size for _, size in _STATE_FIELDS)


class Generator:
    """A random number generator, as ``torch.Generator``.

    >>> import ag_jupyter as ag
    >>> g = ag.Generator().manual_seed(42)
    >>> a = ag.randn(3, generator=g)
    >>> b = ag.randn(3, generator=ag.Generator().manual_seed(42))
    >>> bool((a == b).all())
    True
    """

    def __init__(self, device="cpu"):
        self._device = backend.as_device(device)
        if self._device.type == "cuda":
            backend.require_cupy()  # a CUDA generator on a machine without one: say why now
        self.manual_seed(DEFAULT_SEED)

    @property
    def device(self) -> backend.device:
        return self._device

    def manual_seed(self, seed) -> "Generator":
        """Restart the stream from ``seed`` (an int; PyTorch keeps it modulo 2**64)."""
        seed = int(seed)
        if not -(2 ** 63) <= seed < _UINT64:
            raise ValueError(f"Overflow when unpacking long long: the seed {seed} does not fit in 64 bits")
        self._seed = seed % _UINT64
        self._numpy = numpy.random.Generator(numpy.random.PCG64(self._seed))
        return self

    def seed(self) -> int:
        """Seed from the operating system's entropy; return the seed chosen."""
        chosen = secrets.randbits(64)
        self.manual_seed(chosen)
        return chosen

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self):
        """The whole state as a uint8 tensor (``set_state`` takes it back)."""
        bits = self._numpy.bit_generator.state
        values = {"seed": self._seed, "state": bits["state"]["state"], "inc": bits["state"]["inc"],
                  "has_uint32": bits["has_uint32"], "uinteger": bits["uinteger"]}
        raw = b"".join(int(values[name]).to_bytes(size, "little") for name, size in _STATE_FIELDS)
        return _wrap(numpy.frombuffer(raw, numpy.uint8).copy(), False, None)

    def set_state(self, new_state) -> "Generator":
        if new_state.__class__ not in TENSOR_TYPES or new_state._data.dtype != numpy.uint8:
            raise TypeError(f"RNG state must be a torch.ByteTensor (an ag.uint8 tensor from get_state()), "
                            f"got {_describe(new_state)}")
        raw = backend.move(new_state._data, backend.CPU).tobytes()
        if len(raw) != STATE_SIZE:
            raise RuntimeError(f"Expected an RNG state of size {STATE_SIZE} but found the input RNG state "
                               f"size to be {len(raw)}")
        values, start = {}, 0
        for name, size in _STATE_FIELDS:
            values[name] = int.from_bytes(raw[start:start + size], "little")
            start += size
        self._seed = values["seed"]
        self._numpy = numpy.random.Generator(numpy.random.PCG64())
        self._numpy.bit_generator.state = {
            "bit_generator": "PCG64", "state": {"state": values["state"], "inc": values["inc"]},
            "has_uint32": values["has_uint32"], "uinteger": values["uinteger"]}
        return self

    def __repr__(self) -> str:
        return f"<ag.Generator device={self._device} initial_seed={self._seed}>"

    # ----- draws (NumPy arrays on the CPU; callers move them) -------------------------
    def uniform(self, shape, low=0.0, high=1.0):
        values = self._uniforms(shape)  # NumPy's uniform() is this, behind ~6 us of checks
        if low != 0.0 or high != 1.0:
            values *= high - low
            values += low
        return values

    def _uniforms(self, shape):
        """An array even for shape () (where NumPy's random() gives a scalar)."""
        return numpy.asarray(self._numpy.random(tuple(shape)))

    def normal(self, shape, mean=0.0, std=1.0):
        return self._numpy.normal(mean, std, size=tuple(shape))

    def integers(self, shape, low, high):
        """Integers in ``[low, high)``. A span up to 2**32 is scaled from 53-bit uniforms, three
        times faster than NumPy's ``integers`` for a batch of indices (randint runs once per
        training step) and uneven by under 2**-21 (PyTorch's own is a 32-bit modulo)."""
        span = high - low
        if span > 2 ** 32:
            return self._numpy.integers(low, high, size=tuple(shape), dtype=numpy.int64)
        scaled = numpy.asarray(self._uniforms(shape) * span).astype(numpy.int64)  # 0-d products are scalars
        numpy.minimum(scaled, span - 1, out=scaled)  # u * span may round up to span itself
        scaled += low
        return scaled

    def exponential(self, shape, rate=1.0):
        return self._numpy.exponential(1.0 / rate, size=tuple(shape))

    def permutation(self, n: int):
        return self._numpy.permutation(n).astype(numpy.int64)

    def bernoulli(self, shape, probability):
        """True with ``probability`` (a number, or an array broadcast to ``shape``). The
        uniforms are the CPU's numbers on every device; compared on the probability's device
        (CuPy refuses to compare its array with NumPy's)."""
        uniforms = self.uniform(shape)
        if hasattr(probability, "shape"):
            uniforms = backend.move(uniforms, backend.device_of(probability))
        return uniforms < probability


def _describe(value) -> str:
    if value.__class__ in TENSOR_TYPES:
        return f"a {dtypes.of_array(value._data).name} tensor"
    return type(value).__name__


default_generator = Generator()
default_generator.seed()


def resolve(generator, device=None) -> Generator:
    """The generator a random function draws from: ``generator=`` or the global one. A
    generator of another device type is refused, as PyTorch refuses it."""
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(f"generator must be an ag.Generator, not {type(generator).__name__}")
    if device is not None and backend.as_device(device).type != generator.device.type:
        kind = backend.as_device(device).type
        raise RuntimeError(f"Expected a '{kind}' device type for generator but found '{generator.device.type}'")
    return generator


def random_array(kind: str, shape, numpy_dtype, device, a=0.0, b=1.0, generator=None):
    """``kind`` ('uniform', 'normal', 'integers', 'exponential', 'bernoulli': 1 with
    probability ``a``) numbers from ``generator`` (or the global source) as ``numpy_dtype``,
    on ``device``. A draw says what it is for (a dropout mask is a 'bernoulli' draw), so one
    source can be swapped for another that draws the same kinds."""
    device = backend.as_device(device)
    source = resolve(generator, device)
    if kind == "uniform":
        values = source.uniform(shape, a, b)
    elif kind == "normal":
        values = source.normal(shape, a, b)
    elif kind == "exponential":
        values = source.exponential(shape, a)
    elif kind == "bernoulli":
        values = source.bernoulli(shape, a)
    else:
        values = source.integers(shape, a, b)
    # a draw may already be on the GPU (bernoulli of a CuPy probability); a 0-d draw is a number
    values = backend.array_module(values).asarray(values)
    return backend.move(values.astype(numpy_dtype, copy=False), device)


def check_bounds(low: int, high: int, numpy_dtype) -> None:
    """PyTorch refuses integer bounds ``[low, high)`` its dtype cannot hold, where NumPy's
    cast would wrap them (randint, random_)."""
    limits = _LIMITS.get(numpy_dtype)
    if limits is None:  # NumPy's iinfo costs microseconds, and randint runs once per training step
        info = numpy.finfo(numpy_dtype) if numpy_dtype.kind == "f" else None if numpy_dtype.kind == "b" \
            else numpy.iinfo(numpy_dtype)
        limits = _LIMITS[numpy_dtype] = (0, 1) if info is None else (int(info.min), int(info.max))
    least, most = limits
    if low < least:
        raise RuntimeError(f"from is out of bounds for {dtypes.from_numpy(numpy_dtype).name} (it holds "
                           f"{least} to {most}), got from={low}")
    if high - 1 > most:
        raise RuntimeError(f"to - 1 is out of bounds for {dtypes.from_numpy(numpy_dtype).name} (it holds "
                           f"{least} to {most}), got to={high}")


_LIMITS: dict = {}


def multinomial_indices(probabilities, num_samples: int, replacement: bool, source: Generator):
    """int64 indices drawn from each row of ``probabilities`` (a NumPy array of weights, 1-d or
    2-d), with PyTorch's checks and errors."""
    if probabilities.dtype.kind != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{dtypes.scalar_type_name(probabilities)}")
    if probabilities.ndim not in (1, 2):
        raise RuntimeError(f"prob_dist must be 1 or 2 dim (got {probabilities.ndim} dimensions)")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > probabilities.shape[-1]:
        raise RuntimeError(f"cannot sample n_sample > prob_dist.size(-1) samples without replacement "
                           f"({num_samples} > {probabilities.shape[-1]})")
    categories = probabilities.shape[-1]
    if categories == 0:
        raise RuntimeError("multinomial: the distribution has no categories (its last dimension is empty)")
    rows = probabilities.reshape(-1, categories).astype(numpy.float64)
    if rows.shape[0] == 0:  # no distributions: no draws, as PyTorch's (0, num_samples)
        return numpy.zeros(probabilities.shape[:-1] + (num_samples,), numpy.int64)
    if not numpy.isfinite(rows).all() or (rows < 0).any():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (rows.sum(axis=1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    if replacement:  # inverse CDF: where each uniform draw falls in the row's running sum
        cumulative = numpy.cumsum(rows, axis=1)
        draws = source.uniform((rows.shape[0], num_samples)) * cumulative[:, -1:]
        picks = numpy.stack([numpy.searchsorted(c, d, side="right") for c, d in zip(cumulative, draws)])
        picks = numpy.minimum(picks, rows.shape[1] - 1)
    else:  # the exponential race: the k first arrivals of Exp(1)/weight, zero weights last
        with numpy.errstate(divide="ignore"):
            arrivals = source.exponential(rows.shape) / rows
        picks = numpy.argsort(arrivals, axis=1, kind="stable")[:, :num_samples]
    return picks.astype(numpy.int64).reshape(probabilities.shape[:-1] + (num_samples,))
