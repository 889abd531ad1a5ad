"""The engine's layers as a DAG, read from the source (ast), not from a running import:
no import cycle among ag_jupyter's modules, no module importing a layer above its own,
and no import inside a function except the lazy loads of optional dependencies below.

A new cycle or a new function-level import fails here with the file and line; the layers
are drawn in docs/design.md ("Imports"), from the table ``LAYERS``.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "ag_jupyter"

# Bottom first. A module belongs to the first layer one of whose prefixes names it (a
# prefix is a module or a package); it may import its own layer and the ones below.
LAYERS = [
    ("arrays", ["ag_jupyter.core", "ag_jupyter.backend", "ag_jupyter.dtypes", "ag_jupyter.promotion",
                "ag_jupyter.operands", "ag_jupyter.arrays", "ag_jupyter.printing", "ag_jupyter.cuda",
                "ag_jupyter.generator", "ag_jupyter.backends", "ag_jupyter.deferred_checks",
                "ag_jupyter.gpu_kernels"]),
    ("autograd", ["ag_jupyter.autograd"]),
    ("ops", ["ag_jupyter.ops"]),
    ("tensor", ["ag_jupyter.tensor", "ag_jupyter.tensor_math", "ag_jupyter.tensor_compare",
                "ag_jupyter.tensor_families",
                "ag_jupyter.tensor_inplace", "ag_jupyter.creation", "ag_jupyter.tensor_random",
                "ag_jupyter.random", "ag_jupyter.out_argument"]),
    ("library", ["ag_jupyter.nn", "ag_jupyter.optim", "ag_jupyter.serialization", "ag_jupyter.utils",
                 "ag_jupyter.distributions"]),
    ("tracing", ["ag_jupyter.tracing"]),
    ("front", ["ag_jupyter.widgets", "ag_jupyter.magics", "ag_jupyter.export", "ag_jupyter.torch_switch"]),
    ("package", ["ag_jupyter"]),  # __init__.py: the public names, gathered from every layer
]

# What may be imported inside a function, and why: each is optional or heavy, and
# `import ag_jupyter` must work (and stay light) without it.
LAZY = {
    "cupy": "the GPU backend, only where a GPU is asked for (backend.py)",
    "torch": "the oracle and from_torch/trace_torch, only when called",
    "jsonschema": "the trace schema's validator, a test dependency",
    "json": "import weight: only to_json needs it",
    "ag_jupyter.serialization": "import weight: zipfile, struct, zlib only for ag.save/ag.load",
    "ag_jupyter.widgets": "anywidget and IPython, only for ag.show",
    "ag_jupyter.magics": "IPython, only for %load_ext",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in (ROOT / PACKAGE).rglob("*.py")}


def _covers(prefix: str, name: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def layer_of(name: str) -> int:
    if name == PACKAGE:
        return len(LAYERS) - 1
    for rank, (_, prefixes) in enumerate(LAYERS[:-1]):
        if any(_covers(prefix, name) for prefix in prefixes):
            return rank
    raise AssertionError(f"{name} is in no layer: add it to LAYERS (tests/test_imports.py) and docs/design.md")


def _targets(importer: str, is_package: bool, node) -> list:
    """The modules an import statement names (``from . import x`` names the module x if
    there is one, else the package)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        package = importer.split(".")
        if not is_package:
            package = package[:-1]
        base = ".".join(package[:len(package) - node.level + 1])
        source = base + ("." + node.module if node.module else "")
    else:
        source = node.module
    return [f"{source}.{alias.name}" if f"{source}.{alias.name}" in MODULES else source for alias in node.names]


def _is_type_checking(node) -> bool:
    return isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", "")) == "TYPE_CHECKING"


def imports(name: str):
    return imports_in(MODULES[name].read_text(encoding="utf-8"), name, MODULES[name].name == "__init__.py")


def imports_in(source: str, name: str, is_package: bool = False) -> list:
    """(line, target, inside a function) for each import the module runs (a
    ``TYPE_CHECKING`` block never runs)."""
    found = []

    def visit(node, in_function: bool):
        for child in ast.iter_child_nodes(node):
            if _is_type_checking(child):
                continue
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.extend((child.lineno, target, inner) for target in _targets(name, is_package, child))
            visit(child, inner)

    visit(ast.parse(source), False)
    return found


def _loaded(importer: str, target: str) -> list:
    """The engine modules importing ``target`` runs: it and its packages' ``__init__``
    (but not the root's, nor a package the importer is inside, already loading)."""
    while target not in MODULES:
        target = target.rsplit(".", 1)[0]
    parts = target.split(".")
    packages = [".".join(parts[:n]) for n in range(2, len(parts))]
    return [p for p in packages if not _covers(p, importer)] + [target]


def graph() -> dict:
    edges = {}
    for name in MODULES:
        edges[name] = {loaded for _, target, in_function in imports(name)
                       if not in_function and _covers(PACKAGE, target) for loaded in _loaded(name, target)}
        edges[name].discard(name)
    return edges


def cycles(edges: dict) -> list:
    """Each strongly connected component of more than one module, as one cycle through it."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def connect(v):  # Tarjan's algorithm; the package is a few dozen modules deep at most
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(_cycle_through(v, component, edges))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return found


def _cycle_through(start: str, component: set, edges: dict) -> list:
    path, seen = [start], {start}
    while True:
        step = next(w for w in sorted(edges[path[-1]]) if w in component)
        if step in seen:
            return path[path.index(step):] + [step]
        path.append(step)
        seen.add(step)


def test_every_module_is_read():
    assert len(MODULES) > 80 and "ag_jupyter.autograd.algebra" in MODULES


def test_no_import_cycle():
    found = cycles(graph())
    assert not found, "import cycles (untie them by moving a name down a layer): " + \
        "; ".join(" -> ".join(cycle) for cycle in found)


def test_no_module_imports_a_layer_above_its_own():
    upward = []
    for name, path in sorted(MODULES.items()):
        for line, target, in_function in imports(name):
            if in_function or not _covers(PACKAGE, target):
                continue
            for loaded in _loaded(name, target):
                if layer_of(loaded) > layer_of(name):
                    upward.append(f"{path.relative_to(ROOT)}:{line} ({LAYERS[layer_of(name)][0]}) imports "
                                  f"{loaded} ({LAYERS[layer_of(loaded)][0]})")
    assert not upward, upward


def test_function_level_imports_are_the_lazy_loads_only():
    inside = [f"{MODULES[name].relative_to(ROOT)}:{line} imports {target}"
              for name in sorted(MODULES) for line, target, in_function in imports(name)
              if in_function and not any(_covers(allowed, target) for allowed in LAZY)]
    assert not inside, "import at the top of the module (or add an optional dependency to LAZY): " + \
        "; ".join(inside)


def test_the_checks_see_a_cycle_and_a_late_import():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c", "a"]]
    source = ("import numpy\nfrom ..core import _wrap\nif TYPE_CHECKING:\n    from .tensor import Tensor\n"
              "class A:\n    def f(self):\n        from . import tensor\n        import cupy\n")
    assert imports_in(source, "ag_jupyter.ops.x") == [
        (1, "numpy", False), (2, "ag_jupyter.core", False), (7, "ag_jupyter.ops", True), (8, "cupy", True)]
    assert _loaded("ag_jupyter.autograd.engine", "ag_jupyter.ops.dims") == ["ag_jupyter.ops", "ag_jupyter.ops.dims"]
