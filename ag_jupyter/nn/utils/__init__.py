"""``ag.nn.utils``: gradient clipping and parameters as one vector, as PyTorch's.

>>> import ag_jupyter as ag
>>> model = ag.nn.Linear(4, 1)
>>> model(ag.randn(8, 4)).pow(2).mean().backward()
>>> norm = ag.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
>>> float(ag.nn.utils.get_total_norm([p.grad for p in model.parameters()])) <= 0.5 + 1e-6
True
"""
from .clip_grad import clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_, get_total_norm
from .convert_parameters import parameters_to_vector, vector_to_parameters

__all__ = ["clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm",
           "parameters_to_vector", "vector_to_parameters"]
