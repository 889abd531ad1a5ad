"""Containers: ``Sequential`` (runs its modules in order), ``ModuleList``, ``ModuleDict``
and ``ParameterList``: each registers what it holds, so ``parameters()`` finds it."""
from __future__ import annotations

from collections import OrderedDict

from .module import Module, _indent
from .parameter import Parameter


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

    def __repr__(self) -> str:
        """PyTorch's: a run of equal children is one line, ``(0-2): 3 x Linear(...)``."""
        runs: list = []  # [first index, last index, repr]
        for index, module in enumerate(self):
            text = repr(module)
            if runs and runs[-1][2] == text:
                runs[-1][1] = index
            else:
                runs.append([index, index, text])
        if not runs:
            return self._get_name() + "()"
        lines = [_indent(f"({first}): {text}" if first == last else f"({first}-{last}): {last - first + 1} x {text}", 2)
                 for first, last, text in runs]
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"

    def __iadd__(self, modules) -> "ModuleList":
        return self.extend(modules)

    def __add__(self, other) -> "ModuleList":
        return self.__class__(list(self) + list(other))

    def insert(self, index: int, module: Module) -> None:
        kept = list(self._modules.values())
        kept.insert(index, module)
        self._renumber([])
        for m in kept:
            self.append(m)


class ModuleDict(Module):
    """Modules by name, in insertion order, registered as children under those names.

    >>> import ag_jupyter as ag
    >>> heads = ag.nn.ModuleDict({"score": ag.nn.Linear(4, 1), "act": ag.nn.ReLU()})
    >>> list(heads), [name for name, _ in heads.named_parameters()]
    (['score', 'act'], ['score.weight', 'score.bias'])
    """

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def clear(self) -> None:
        self._modules.clear()

    def pop(self, key: str) -> Module:
        module = self[key]
        del self[key]
        return module

    def update(self, modules) -> None:
        """Add ``(name, module)`` pairs from a mapping (in its order) or an iterable of pairs."""
        pairs = modules.items() if hasattr(modules, "items") else modules
        for index, pair in enumerate(pairs):
            if len(pair) != 2:
                raise ValueError(f"ModuleDict update sequence element #{index} has length {len(pair)}; 2 is required")
            self[pair[0]] = pair[1]


class ParameterList(Module):
    """Parameters in a list, registered as ``0``, ``1``, ...; a plain tensor added becomes a
    ``Parameter``.

    >>> import ag_jupyter as ag
    >>> scales = ag.nn.ParameterList([ag.ones(2), ag.zeros(3)])
    >>> [name for name, _ in scales.named_parameters()], scales[1].requires_grad
    (['0', '1'], True)
    """

    def __init__(self, values=None) -> None:
        super().__init__()
        if values is not None:
            self.extend(values)

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters.values())

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self._parameters.values())[idx])
        return self._parameters[str(_index(len(self), idx))]

    def __setitem__(self, idx: int, param) -> None:
        self.register_parameter(str(_index(len(self), idx)), _as_parameter(param))

    def append(self, value) -> "ParameterList":
        self.register_parameter(str(len(self)), _as_parameter(value))
        return self

    def extend(self, values) -> "ParameterList":
        for value in values:
            self.append(value)
        return self

    def __iadd__(self, values) -> "ParameterList":
        return self.extend(values)

    def extra_repr(self) -> str:
        lines = []
        for name, param in self._parameters.items():
            size = "x".join(str(s) for s in param.shape)
            where = "" if param.device.type == "cpu" else f" (GPU {param.device.index or 0})"
            lines.append(f"  ({name}): Parameter containing: [{param.dtype} of size {size}{where}]")
        return "\n".join(lines)


def _as_parameter(value):
    return value if isinstance(value, Parameter) else Parameter(value)
