"""Every docstring example in the package runs as written: one runner over every module
(a module with examples is tested by having them)."""
import doctest
import importlib
import pkgutil

import pytest

import ag_jupyter

MODULES = sorted(m.name for m in pkgutil.walk_packages(ag_jupyter.__path__, "ag_jupyter."))


def examples(name):
    module = importlib.import_module(name)
    return sum(len(t.examples) for t in doctest.DocTestFinder().find(module, name))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    if ".widgets" in name or ".export" in name or name.endswith(".magics"):
        pytest.importorskip("anywidget")
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"


def test_the_runner_sees_the_examples():
    assert sum(1 for name in MODULES if examples(name)) >= 20
