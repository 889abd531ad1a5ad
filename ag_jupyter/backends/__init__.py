"""``ag.backends``: the questions tutorials ask of PyTorch's backends, answered truthfully.

``backends.mps`` (Apple's GPU: the engine has no MPS backend, so never available) and
``backends.cudnn`` (the engine's GPU path is CuPy, not cuDNN: its flags ``benchmark`` and
``deterministic`` are accepted and change nothing, as the engine's numbers are already
deterministic for a seed).

>>> import ag_jupyter as ag
>>> ag.backends.mps.is_available()
False
"""
from . import cudnn, mps

__all__ = ["cudnn", "mps"]
