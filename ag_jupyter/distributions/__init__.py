"""``ag.distributions``: the two discrete distributions a course samples from, with PyTorch's
names (``torch.distributions.Categorical``, ``torch.distributions.multinomial.Multinomial``).

>>> import ag_jupyter as ag
>>> ag.distributions.Categorical(probs=ag.tensor([0.2, 0.3, 0.5])).log_prob(ag.tensor(2))
tensor(-0.6931)
"""
from . import categorical, multinomial
from .categorical import Categorical
from .distribution import Distribution
from .multinomial import Multinomial

__all__ = ["Distribution", "Categorical", "Multinomial", "categorical", "multinomial"]
