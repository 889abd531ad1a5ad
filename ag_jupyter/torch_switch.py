"""Run PyTorch code on the engine: ``import torch`` gives ag_jupyter, for one cell or block.

One mechanism, two ways in: ``with ag.as_torch():`` and ``%%autograd --engine``.

**Modules.** While the switch is on, every ``torch`` entry of ``sys.modules`` is set
aside and a finder at the front of ``sys.meta_path`` answers ``torch`` and
``torch.X.Y`` with an ``EngineModule`` over ``ag_jupyter`` and ``ag_jupyter.X.Y``
(``torch.nn.functional`` is ``ag_jupyter.nn.functional``; whatever modules the engine
grows are found the same way). When it ends, the engine's entries go and PyTorch's
come back as they were, so the rest of the notebook imports the real torch.

**Missing names.** A name the engine lacks is never a partial run and never a
different number: ``check_source`` reads the cell before it runs (the names its
``import``/``from torch... import`` statements bind, then every attribute chain on
them, ``torch.nn.Conv3d``, ``F.gelu``), and names that hold PyTorch's own objects
from an earlier cell. At run time an ``EngineModule`` raises the same words for an
attribute the check could not see (``getattr(torch, name)``), and the finder for an
import. Both say what to do: run the cell without the switch, where ``%%autograd``
draws PyTorch's own graph.

**Names in the cell's namespace** (``cell_on_engine``): a variable that holds one of
PyTorch's modules (``torch`` or ``F``, imported by an earlier cell) means the engine's
module during the cell, and every name the cell's imports bound is put back afterwards.
"""
from __future__ import annotations

import ast
import importlib
import importlib.abc
import importlib.util
import sys
import types
from contextlib import contextmanager

import numpy

from .autograd.node import Node
from .generator import Generator
from .nn import Module
from .optim import Optimizer
from .optim.lr_scheduler import LRScheduler
from .tensor import Tensor

_WHAT_TO_DO = ("Run the cell without the switch (without --engine, or outside ag.as_torch()): "
               "%%autograd then draws PyTorch's own graph.")


def not_in_engine(names: list) -> str:
    """The one wording for names the engine lacks, before the cell runs or during it."""
    if len(names) == 1:
        return f"{names[0]} is not in ag_jupyter's engine, so this cell cannot run on it. {_WHAT_TO_DO}"
    listed = "".join(f"\n  {name}" for name in names)
    return f"{len(names)} names are not in ag_jupyter's engine, so this cell cannot run on it:{listed}\n{_WHAT_TO_DO}"


def _is_torch_name(name: str) -> bool:
    return name == "torch" or name.startswith("torch.")


class EngineModule(types.ModuleType):
    """``torch`` or ``torch.X`` under the switch: the engine's module, with PyTorch's name.
    An attribute it lacks is an ``AttributeError`` that names it and says what to do."""

    def __init__(self, torch_name: str, target: types.ModuleType):
        super().__init__(torch_name, target.__doc__)
        self.__dict__["_engine_module"] = target
        self.__dict__["__path__"] = []  # a package, so ``import torch.nn`` asks the finder for the rest

    def __getattr__(self, name: str):
        if name == "__all__":  # ``from torch import *``: the engine's public names
            target = self._engine_module
            return getattr(target, "__all__", None) or [n for n in dir(target) if not n.startswith("_")]
        if name.startswith("__"):  # the import machinery's questions (__path__, __spec__ ...)
            raise AttributeError(name)
        found = lookup(self, name)
        if found is _MISSING:
            raise AttributeError(not_in_engine([f"{self.__name__}.{name}"]))
        return found

    def __dir__(self) -> list:
        return dir(self._engine_module)

    def __repr__(self) -> str:
        return f"<module {self.__name__!r}: ag_jupyter's engine ({self._engine_module.__name__})>"


_MISSING = object()
_modules: dict = {}  # torch name -> its EngineModule, made once


def engine_module(torch_name: str) -> EngineModule | None:
    """The engine's module for a PyTorch module name, or None where the engine has none."""
    made = _modules.get(torch_name)
    if made is not None:
        return made
    target_name = "ag_jupyter" + torch_name[len("torch"):]
    try:
        target = importlib.import_module(target_name)
    except ModuleNotFoundError as error:
        if error.name is not None and target_name.startswith(error.name):  # that module, not a bug in it
            return None
        raise
    made = _modules[torch_name] = EngineModule(torch_name, target)
    return made


def lookup(module: EngineModule, name: str):
    """``module.name`` on the engine: a submodule as an ``EngineModule``, another value as it
    is, or ``_MISSING``."""
    value = getattr(module._engine_module, name, _MISSING)
    if value is _MISSING or isinstance(value, types.ModuleType):
        submodule = engine_module(f"{module.__name__}.{name}")
        if submodule is not None:
            return submodule
    return value


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers ``import torch...`` with the engine's modules while the switch is on."""

    def find_spec(self, fullname, path=None, target=None):
        if not _is_torch_name(fullname):
            return None
        module = engine_module(fullname)
        if module is None:
            raise ModuleNotFoundError(not_in_engine([fullname]), name=fullname)
        return importlib.util.spec_from_loader(fullname, self, is_package=True)

    def create_module(self, spec):
        return engine_module(spec.name)

    def exec_module(self, module) -> None:
        """Nothing to run: the engine's module is loaded already."""


_FINDER = _Finder()


def switch_is_on() -> bool:
    """Whether ``import torch`` gives the engine now (inside ``as_torch``, in any of its forms)."""
    return _FINDER in sys.meta_path


class as_torch:  # noqa: N801 - a context manager named like the function users call
    """``with ag.as_torch():`` -- ``import torch`` (and ``torch.nn``, ``torch.optim``...) inside
    the block gives ag_jupyter's engine; PyTorch's modules come back when it ends.

    >>> import ag_jupyter as ag
    >>> with ag.as_torch():
    ...     import torch
    ...     x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> type(x).__module__, "torch" in sys.modules and sys.modules["torch"] is torch
    ('ag_jupyter.tensor', False)
    """

    def __init__(self):
        self._set_aside: dict | None = None

    def __enter__(self) -> "as_torch":
        global _pytorch
        self._set_aside = {name: sys.modules.pop(name) for name in list(sys.modules) if _is_torch_name(name)}
        _pytorch = self._set_aside.get("torch", _pytorch)
        sys.meta_path.insert(0, _FINDER)
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        sys.meta_path.remove(_FINDER)
        for name in [name for name in sys.modules if _is_torch_name(name)]:
            del sys.modules[name]
        sys.modules.update(self._set_aside)
        self._set_aside = None
        return False


# ----- the cell, before it runs ----------------------------------------------------------

def _torch_bindings(tree: ast.Module) -> tuple:
    """What the cell's imports bind: ``{name: torch module name}`` for names bound to a
    module, and ``[(line, torch path)]`` of every module and name they ask for."""
    bound, asked = {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_torch_name(alias.name):
                    asked.append((node.lineno, alias.name))
                    bound[alias.asname or "torch"] = alias.name if alias.asname else "torch"
        elif isinstance(node, ast.ImportFrom) and not node.level and _is_torch_name(node.module or ""):
            asked.append((node.lineno, node.module))
            for alias in node.names:
                if alias.name != "*":
                    path = f"{node.module}.{alias.name}"
                    asked.append((node.lineno, path))
                    bound[alias.asname or alias.name] = path
    return bound, asked


def _resolve(path: str):
    """The engine's value for a dotted PyTorch path (``torch.nn.Linear``), or ``_MISSING``."""
    parts = path.split(".")
    value = engine_module("torch")
    for part in parts[1:]:
        if not isinstance(value, EngineModule):
            return getattr(value, part, _MISSING)
        value = lookup(value, part)
        if value is _MISSING:
            return _MISSING
    return value


def _attribute_chains(tree: ast.Module, roots: set):
    """``(line, root name, [attributes])`` for each outermost attribute chain on a root name."""
    inner = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and id(node) not in inner:
            chain, value = [], node
            while isinstance(value, ast.Attribute):
                inner.add(id(value))
                chain.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id in roots:
                yield node.lineno, value.id, chain[::-1]


def _assigned(tree: ast.Module) -> set:
    """Names the cell binds other than by importing (a loop variable, ``F = ...``)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            found.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
    return found


def _pytorch_objects(tree: ast.Module, namespace, skip: set) -> list:
    """``(line, name, kind)`` for names the cell reads that hold PyTorch's own objects from
    an earlier cell (a tensor, a module, one of its classes or functions)."""
    torch = sys.modules.get("torch")
    if torch is None or isinstance(torch, EngineModule):
        return []
    found, seen = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in skip | seen:
            value = namespace.get(node.id)
            if isinstance(value, types.ModuleType):
                continue  # a module: checked by its attribute chains
            kind = _pytorch_kind(torch, value)
            if kind is not None:
                seen.add(node.id)
                found.append((node.lineno, node.id, kind))
    return found


def _pytorch_kind(torch, value) -> str | None:
    """What PyTorch object ``value`` is (in a message's words), or None for anything else."""
    if isinstance(value, torch.Tensor):
        return "tensor"
    if isinstance(value, torch.nn.Module):
        return "module"
    if isinstance(value, type) and issubclass(value, torch.nn.Module):
        return "nn.Module class"
    if _is_torch_name(getattr(value, "__module__", None) or ""):
        return "name"
    return None


_pytorch = None  # PyTorch itself, as last set aside by the switch (checks made under it ask it)
# Where a method PyTorch's Tensor has is found on these too, the cell may mean them: no stop.
_NOT_TENSORS = (Node, Module, Optimizer, LRScheduler, Generator, numpy.ndarray,  # a grad_fn's .name() is the node's
                list, dict, str, tuple, set, bytes, int, float, complex)


def _real_torch():
    """PyTorch itself, imported now if it is installed (to know its Tensor's methods), or None."""
    found = sys.modules.get("torch")
    if isinstance(found, EngineModule) or (found is None and switch_is_on()):
        return _pytorch
    if found is None and importlib.util.find_spec("torch") is not None:
        found = importlib.import_module("torch")  # optional: the check of methods needs it
    return found


def _missing_methods(tree: ast.Module, namespace, roots: set) -> list:
    """``(line, spelling, path)`` for ``value.name`` where ``name`` is a method of PyTorch's
    Tensor that the engine's lacks and nothing else the cell may hold has (a module, an
    optimizer, an array, a builtin, a class of the notebook, an attribute the cell sets)."""
    torch = _real_torch()
    if torch is None:
        return []
    defined = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Load)}
    defined |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    held = list(namespace.values())  # the notebook's classes, and the types of what it holds (a DataFrame)
    classes = {v for v in held if isinstance(v, type)} | {type(v) for v in held} | set(_NOT_TENSORS)
    classes = [c for c in classes if not _is_torch_name(getattr(c, "__module__", None) or "")]
    modules = {name for name, value in list(namespace.items()) if isinstance(value, types.ModuleType)}
    modules |= {alias.asname or alias.name.split(".")[0] for n in ast.walk(tree)  # np.log10 is NumPy's
                if isinstance(n, (ast.Import, ast.ImportFrom)) for alias in n.names}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
            continue
        name, inner = node.attr, node.value
        while isinstance(inner, ast.Attribute):
            inner = inner.value
        if name.startswith("_") or name in defined or (isinstance(inner, ast.Name) and inner.id in roots | modules):
            continue
        if hasattr(torch.Tensor, name) and not hasattr(Tensor, name) and not any(hasattr(c, name) for c in classes):
            found.append((node.lineno, f".{name}", f"torch.Tensor.{name}"))
    return found


def check_source(tree: ast.Module, namespace) -> str | None:
    """Why the cell cannot run on the engine (every name, with its line), or None."""
    bound, asked = _torch_bindings(tree)
    assigned = _assigned(tree)
    modules = {name: value.__name__ for name, value in namespace.items()  # PyTorch's modules, imported earlier
               if isinstance(value, types.ModuleType) and _is_torch_name(getattr(value, "__name__", ""))
               and name not in assigned and name not in bound}
    roots = {name: path for name, path in {**modules, **bound}.items() if name not in assigned}
    missing = [(line, path, path) for line, path in asked if _resolve(path) is _MISSING]
    for line, root, chain in _attribute_chains(tree, set(roots)):
        value, path = _resolve(roots[root]), roots[root]
        if value is _MISSING and root in modules:  # an earlier cell's ``import torch.fft as fft``
            missing.append((line, root, path))
        for depth, attr in enumerate(chain, 1):
            if not isinstance(value, (EngineModule, type)):
                break
            path = f"{path}.{attr}"
            value = lookup(value, attr) if isinstance(value, EngineModule) else getattr(value, attr, _MISSING)
            if value is _MISSING:
                missing.append((line, ".".join([root, *chain[:depth]]), path))
                break
    missing += _missing_methods(tree, namespace, set(roots))
    problems, reported = [], set()
    for line, spelled, path in sorted(missing):
        if not any(path == seen or path.startswith(seen + ".") for seen in reported):  # torch.utils.data, once
            reported.add(path)
            problems.append(f"line {line}: {spelled}" + (f" ({path})" if spelled != path else ""))
    earlier = [f"line {line}: {name} holds PyTorch's own {kind} from an earlier cell (make it in this cell)"
               for line, name, kind in _pytorch_objects(tree, namespace, assigned | set(bound))]
    if not problems and not earlier:
        return None
    message = not_in_engine(problems) if problems else ""
    if earlier:
        message += ("" if not message else "\n") + "This cell reads PyTorch's own objects, which the engine " \
            "cannot compute with: " + "; ".join(earlier) + f". {_WHAT_TO_DO}"
    return message + "\nNothing in the cell ran."


@contextmanager
def cell_on_engine(namespace, tree: ast.Module):
    """Run a cell's code on the engine: the switch on, variables holding PyTorch's modules
    pointed at the engine's for the cell, and every name the cell's imports bound put back
    afterwards (so the next cell's ``torch`` is the one it had)."""
    bound, _ = _torch_bindings(tree)
    pointed = {name: value.__name__ for name, value in list(namespace.items())
               if isinstance(value, types.ModuleType) and not isinstance(value, EngineModule)
               and _is_torch_name(getattr(value, "__name__", ""))}
    before = {name: namespace.get(name, _MISSING) for name in set(bound) | set(pointed)}
    with as_torch():
        for name, torch_name in pointed.items():
            module = engine_module(torch_name)
            if module is not None:
                namespace[name] = module
        try:
            yield
        finally:
            for name, value in before.items():
                if value is _MISSING:
                    namespace.pop(name, None)
                else:
                    namespace[name] = value
