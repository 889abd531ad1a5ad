"""``ag.from_torch``: the trace document of a PyTorch graph, like torchviz's make_dot.

PyTorch is imported only when this is called, and a missing install is a clear
error. The document has the same schema as ``ag.trace()``'s: a create event per
node (in the order PyTorch created the op nodes), no backward events.

>>> import torch                                          # doctest: +SKIP
>>> x = torch.ones(2, requires_grad=True)                 # doctest: +SKIP
>>> doc = ag.from_torch((x * 3).sum(), params={"x": x})   # doctest: +SKIP
"""
from __future__ import annotations

from . import document
from .records import Records
from .torch_graph import TorchGraph

_MISSING = (
    "{what} needs PyTorch, which is not installed here ({why}). Install the CPU build with "
    "`pip install torch --index-url https://download.pytorch.org/whl/cpu` (or your CUDA build), "
    "then call it again."
)


def require_torch(what: str):
    """Import torch, or raise an ImportError that says what needs it and how to get it."""
    try:
        import torch  # noqa: PLC0415 - optional, imported on request only
    except ImportError as error:
        raise ImportError(_MISSING.format(what=what, why=error)) from error
    return torch


def from_torch(root, params=None, title: str | None = None) -> dict:
    """The trace document of the graph behind ``root``.

    ``root``: a tensor, a ``grad_fn`` node, or a list/tuple of them. ``params``
    names leaves, as make_dot's does: a dict or ``model.named_parameters()``.
    """
    torch = require_torch("ag.from_torch")
    roots = list(root) if isinstance(root, (list, tuple)) else [root]
    for r in roots:
        if not isinstance(r, torch.Tensor) and not hasattr(r, "next_functions"):
            raise TypeError(f"from_torch takes PyTorch tensors or grad_fn nodes, got {type(r).__name__}")
    records = Records(title, "torch")
    TorchGraph(records, params).add(roots)
    return document.build(records)
