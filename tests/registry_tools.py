"""What a registered case is, and the hypothesis strategies the cases draw their inputs with."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp


@dataclass
class Case:
    name: str
    draw: Callable  # (data) -> (list of float64 arrays, dict of parameters)
    run: Callable  # (ag module or torch, *tensors, **params) -> tensor
    covers: tuple  # Op class names this case exercises
    torch: bool = True  # compare with PyTorch
    tolerance: float = 1e-5
    extra: dict = field(default_factory=dict)


def values(shape, low=-3.0, high=3.0):
    return hnp.arrays(np.float64, shape, elements=st.floats(low, high, allow_nan=False, width=64))


def away_from(shape, points, gap, low=-3.0, high=3.0):
    """Values at least ``gap`` from each of ``points`` (kinks where finite differences fail)."""
    elements = st.floats(low, high, allow_nan=False).filter(lambda v: all(abs(v - p) > gap for p in points))
    return hnp.arrays(np.float64, shape, elements=elements)


def distinct(shape, low=-3.0, high=3.0):
    """Values with no two closer than 0.05, so max/min have no ties to split."""
    size = int(np.prod(shape)) if shape else 1
    return st.lists(st.integers(int(low * 20), int(high * 20)), min_size=size, max_size=size, unique=True).map(
        lambda xs: (np.array(xs, dtype=np.float64) / 20).reshape(shape))


small_shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4)
nonscalar_shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)
# For the differential test against PyTorch: 0-d, empty and size-1 dimensions too.
degenerate_shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3)


def _accepts_degenerate(draw):
    """Mark a draw whose shapes may be degenerate (``draw(data, degenerate=True)``)."""
    draw.degenerate_ok = True
    return draw


def unary(elements=values):
    def draw(data, degenerate=False):
        shape = data.draw(degenerate_shapes if degenerate else small_shapes)
        return [data.draw(elements(shape))], {}
    return _accepts_degenerate(draw)


def binary(first=values, second=values, apart=False):
    """``apart``: no pair of elements that meet (after broadcasting) closer than 0.05, so
    maximum/minimum have no tie, a kink that finite differences cannot judge."""
    def draw(data, degenerate=False):
        shapes = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, min_side=0, max_side=3) \
            if degenerate else hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3)
        a_shape, b_shape = data.draw(shapes).input_shapes
        a, b = data.draw(first(a_shape)), data.draw(second(b_shape))
        assume(not apart or not np.any(np.abs(np.subtract(a, b)) < 0.05))
        return [a, b], {}
    return _accepts_degenerate(draw)


def with_dim(elements=values, keepdim=True, allow_none=True):
    def draw(data, degenerate=False):
        shape = data.draw(degenerate_shapes if degenerate else nonscalar_shapes)
        choices = list(range(-max(len(shape), 1), max(len(shape), 1))) + ([None] if allow_none else [])
        params = {"dim": data.draw(st.sampled_from(choices))}
        if keepdim:
            params["keepdim"] = data.draw(st.booleans())
        return [data.draw(elements(shape))], params
    return _accepts_degenerate(draw)


def positive(shape):
    return values(shape, 0.2, 3.0)


def nonzero(shape):
    return away_from(shape, [0.0], 0.3)


def functional(m):
    """``nn.functional`` of the module under test (ag, torch, or test_gpu's view of ag)."""
    return m.nn.functional
