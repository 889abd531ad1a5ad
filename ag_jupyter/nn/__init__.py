"""``ag.nn``: modules, parameters, layers and losses with PyTorch's names and semantics.

>>> import ag_jupyter as ag
>>> model = ag.nn.Sequential(ag.nn.Linear(2, 8), ag.nn.Tanh(), ag.nn.Linear(8, 1))
>>> loss = ag.nn.MSELoss()(model(ag.randn(5, 2)), ag.zeros(5, 1))
>>> loss.backward()
>>> model[0].weight.grad.shape
ag.Size([8, 2])
"""
from . import functional, init, utils
from .activation import ELU, GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Softplus, Tanh
from .attention import MultiheadAttention
from .container import ModuleDict, ModuleList, ParameterList, Sequential
from .conv import Conv1d, Conv2d
from .dropout import Dropout, Dropout2d
from .flatten import Flatten
from .lazy import LazyConv1d, LazyConv2d, LazyLinear, UninitializedParameter
from .linear import Identity, Linear
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, L1Loss, MSELoss, NLLLoss, SmoothL1Loss
from .module import Module
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm
from .parameter import Parameter
from .pooling import AdaptiveAvgPool2d, AdaptiveMaxPool2d, AvgPool2d, MaxPool1d, MaxPool2d
from .sparse import Embedding

__all__ = [
    "Module", "Parameter", "Linear", "Identity", "Sequential", "ModuleList", "Flatten",
    "ReLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "Dropout",
    "MSELoss", "CrossEntropyLoss", "NLLLoss", "functional", "init",
    # issue 30, the layers a course uses
    "GELU", "LeakyReLU", "SiLU", "ELU", "Softplus",
    "L1Loss", "SmoothL1Loss", "HuberLoss", "BCELoss", "BCEWithLogitsLoss",
    "BatchNorm1d", "BatchNorm2d", "LayerNorm", "Embedding", "ModuleDict", "ParameterList",
    "Dropout2d",
]
__all__ += ["utils"]
__all__ += ["Conv1d", "Conv2d", "MaxPool1d", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d"]
__all__ += ["LazyLinear", "LazyConv1d", "LazyConv2d", "UninitializedParameter"]
__all__ += ["MultiheadAttention"]
__all__ += ["AdaptiveMaxPool2d"]
