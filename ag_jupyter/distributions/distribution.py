"""What every distribution shares: its batch and event shapes, ``sample_shape`` as PyTorch
reads it, and the repr that names its parameters."""
from __future__ import annotations

from ..tensor import Size


def as_size(sample_shape) -> tuple:
    """``sample_shape`` (an int, a tuple, an ``ag.Size``) as a tuple of ints."""
    return (int(sample_shape),) if isinstance(sample_shape, int) else tuple(int(s) for s in sample_shape)


class Distribution:
    """``batch_shape``: how many distributions side by side; ``event_shape``: the shape of one draw."""

    has_rsample = False
    arg_names: tuple = ()

    def __init__(self, batch_shape=(), event_shape=()) -> None:
        self._batch_shape, self._event_shape = tuple(batch_shape), tuple(event_shape)

    @property
    def batch_shape(self) -> Size:
        return Size(self._batch_shape)

    @property
    def event_shape(self) -> Size:
        return Size(self._event_shape)

    def _extended_shape(self, sample_shape=()) -> tuple:
        return as_size(sample_shape) + self._batch_shape + self._event_shape

    def rsample(self, sample_shape=()):
        raise NotImplementedError(f"{type(self).__name__} has no reparameterized sample (rsample): its "
                                  f"draws are discrete, so no gradient flows through them")

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}: {self.__dict__[name].size()}" for name in self.arg_names if name in self.__dict__)
        return f"{type(self).__name__}({shown})"
