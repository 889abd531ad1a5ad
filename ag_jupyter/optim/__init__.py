"""``ag.optim``: optimizers with PyTorch's update rules (``SGD``, ``Adam``, ``AdamW``,
``RMSprop``, ``Adagrad``, ``Adadelta``) and ``ag.optim.lr_scheduler``.

>>> import ag_jupyter as ag
>>> model = ag.nn.Linear(3, 1)
>>> opt = ag.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
>>> model(ag.randn(8, 3)).pow(2).mean().backward()
>>> opt.step(); opt.zero_grad()
>>> model.weight.grad is None
True
"""
from . import lr_scheduler
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "lr_scheduler"]
