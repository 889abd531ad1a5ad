"""Containers: ``Sequential`` (runs its modules in order) and ``ModuleList``."""
from __future__ import annotations

from collections import OrderedDict

from .module import Module


def _index(length: int, idx: int) -> int:
    idx = idx.__index__()
    if not -length <= idx < length:
        raise IndexError(f"index {idx} is out of range")
    return idx % length


class _Numbered(Module):
    """Children named 0..n-1, kept so after a deletion (as PyTorch does)."""

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module: Module):
        self.add_module(str(len(self)), module)
        return self

    def _renumber(self, kept: list) -> None:
        self._modules.clear()
        for i, module in enumerate(kept):
            self._modules[str(i)] = module


class Sequential(_Numbered):
    """Modules run one after another; each one's output is the next one's input.
    Children are named ``0``, ``1``, ... unless given in an ``OrderedDict``.

    >>> import ag_jupyter as ag
    >>> model = ag.nn.Sequential(ag.nn.Linear(4, 3), ag.nn.ReLU())
    >>> model
    Sequential(
      (0): Linear(in_features=4, out_features=3, bias=True)
      (1): ReLU()
    )
    >>> len(model), model[-1], [n for n, _ in model.named_parameters()]
    (2, ReLU(), ['0.weight', '0.bias'])
    """

    def __init__(self, *args) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(OrderedDict(list(self._modules.items())[idx]))
        return list(self._modules.values())[_index(len(self), idx)]

    def __setitem__(self, idx: int, module: Module) -> None:
        key = list(self._modules)[_index(len(self), idx)]
        self.add_module(key, module)

    def __delitem__(self, idx) -> None:
        keys = list(self._modules)
        for key in (keys[idx] if isinstance(idx, slice) else [keys[_index(len(self), idx)]]):
            del self._modules[key]
        self._renumber(list(self._modules.values()))

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input


class ModuleList(_Numbered):
    """A list of modules whose parameters the owner registers (a plain list would hide them)."""

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self._modules.values())[idx])
        return self._modules[str(_index(len(self), idx))]

    def __setitem__(self, idx: int, module: Module) -> None:
        self.add_module(str(_index(len(self), idx)), module)

    def __delitem__(self, idx) -> None:
        kept = list(self._modules.values())
        del kept[idx if isinstance(idx, slice) else _index(len(kept), idx)]
        self._renumber(kept)

    def extend(self, modules) -> "ModuleList":
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        kept = list(self._modules.values())
        kept.insert(index, module)
        self._renumber([])
        for m in kept:
            self.append(m)
