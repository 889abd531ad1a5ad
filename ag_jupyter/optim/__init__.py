"""``ag.optim``: optimizers with PyTorch's update rules (``SGD``, ``Adam``).

>>> import ag_jupyter as ag
>>> model = ag.nn.Linear(3, 1)
>>> opt = ag.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
>>> model(ag.randn(8, 3)).pow(2).mean().backward()
>>> opt.step(); opt.zero_grad()
>>> model.weight.grad is None
True
"""
from .adam import Adam
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam"]
