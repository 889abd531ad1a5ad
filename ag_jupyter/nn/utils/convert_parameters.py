"""Parameters as one flat vector and back, as PyTorch's ``torch.nn.utils``."""
from __future__ import annotations

from ...ops.shape import cat
from ...tensor import TENSOR_TYPES, Tensor


def parameters_to_vector(parameters) -> Tensor:
    """Every parameter flattened and joined into one 1-d tensor (differentiable).

    >>> import ag_jupyter as ag
    >>> layer = ag.nn.Linear(3, 2)
    >>> ag.nn.utils.parameters_to_vector(layer.parameters()).shape
    ag.Size([8])
    """
    device = None
    flat = []
    for param in parameters:
        device = _same_device(param, device)
        flat.append(param.view(-1))
    return cat(flat)


def vector_to_parameters(vec: Tensor, parameters) -> None:
    """Make each parameter's data the next slice of ``vec`` (shared, not copied)."""
    if vec.__class__ not in TENSOR_TYPES:
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__module__}.{type(vec).__qualname__}")
    device = None
    start = 0
    for param in parameters:
        device = _same_device(param, device)
        count = param.numel()
        param.data = vec[start:start + count].view_as(param).data
        start += count


def _same_device(param: Tensor, device):
    if device is not None and param.device != device:
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return param.device
