"""``Dropout`` and ``Dropout2d``: zero a random fraction ``p`` of activations (or of whole
channels) while training."""
from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module


class Dropout(Module):
    """In training, each element is zeroed with probability ``p`` and the survivors are
    scaled by ``1/(1-p)`` (inverted dropout), so the expected activation is unchanged
    and evaluation needs no rescaling. In ``eval()`` mode it returns its input.

    >>> import ag_jupyter as ag
    >>> drop = ag.nn.Dropout(0.5).eval()
    >>> drop(ag.ones(3))
    tensor([1., 1., 1.])
    """

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout2d(Dropout):
    """Dropout of whole channels: in training each feature map ``input[n, c]`` of an
    ``(N, C, H, W)`` input is zeroed with probability ``p`` (neighbouring pixels are
    alike, so dropping single ones would teach little); the rest are scaled by ``1/(1-p)``."""

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout2d(input, self.p, self.training, self.inplace)
