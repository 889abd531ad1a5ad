"""Every torch name the beginner curriculum calls (tests/curriculum_survey.py) is reachable
here under PyTorch's name: ``ag.X`` for ``torch.X``, ``ag.nn.X`` for ``torch.nn.X``, ...,
``Tensor.X``; and where PyTorch offers a name both as a function and as a Tensor method, both.
A name marked ``pending`` (a colleague's area of issue 30, not in main yet) or ``absent``
(outside issue 30) must still be missing, so its mark is dropped when it lands."""
from __future__ import annotations

import importlib

import pytest
from curriculum_survey import SURVEY, TUTORIALS

import ag_jupyter as ag

torch = pytest.importorskip("torch")
_MISSING = object()


def _walk(root, dotted: str):
    obj = root
    for part in dotted.split("."):
        obj = getattr(obj, part, _MISSING)
        if obj is _MISSING:
            return _MISSING
    return obj


def in_torch(name: str):
    if name.startswith("Tensor."):
        return _walk(torch.Tensor, name[len("Tensor."):])
    parts = name.split(".")
    for cut in range(len(parts), 1, -1):  # torch.utils.data and torch.distributions load on import
        try:
            module = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        return _walk(module, ".".join(parts[cut:])) if parts[cut:] else module
    return _walk(torch, ".".join(parts[1:]))


def here(name: str):
    """``torch.a.b`` as ``ag.a.b``, ``Tensor.x`` as ``ag.Tensor.x``."""
    if name.startswith("Tensor."):
        return _walk(ag.Tensor, name[len("Tensor."):])
    return _walk(ag, name[len("torch."):])


def other_spelling(name: str) -> str | None:
    """PyTorch's other spelling of a function that is also a method (``torch.exp`` and
    ``Tensor.exp``); in-place methods (``zero_``) and non-functions (``torch.float`` is a
    dtype, ``torch.cuda`` a module) have none."""
    short = name.split(".", 1)[1]
    if "." in short or short.endswith("_"):
        return None
    if name.startswith("Tensor."):
        return f"torch.{short}" if callable(getattr(torch, short, None)) and not isinstance(
            getattr(torch, short), type) else None
    return f"Tensor.{short}" if callable(getattr(torch.Tensor, short, None)) else None


def test_the_survey_names_pytorchs_own_names_once_each_with_known_tutorials():
    names = [used.name for used in SURVEY]
    assert len(names) == len(set(names)) and len(names) > 150
    for used in SURVEY:
        assert in_torch(used.name) is not _MISSING, f"{used.name} is not a PyTorch name"
        assert used.tutorials and set(used.tutorials.split()) <= set(TUTORIALS), used
        assert not (used.pending and used.absent), used
    assert len(TUTORIALS) >= 50  # the four PyTorch tutorials' pages, micrograd, makemore 1-5, d2l's sections


@pytest.mark.parametrize("used", [u for u in SURVEY if not u.pending and not u.absent], ids=lambda u: u.name)
def test_every_name_the_curriculum_calls_is_here(used):
    assert here(used.name) is not _MISSING, f"{used.name} (called by {used.tutorials}) is missing"
    other = other_spelling(used.name)
    if other is not None:
        assert here(other) is not _MISSING, f"{other} is missing (PyTorch has {used.name} and {other})"


def test_a_name_marked_pending_or_absent_is_still_missing():
    # one test over the marked names, not one per name: with none marked (all 191 here since
    # round 2) a parametrized test would only be skipped
    for used in [u for u in SURVEY if u.pending or u.absent]:
        assert here(used.name) is _MISSING, (
            f"{used.name} is here now: drop its mark ({used.pending or used.absent}) in curriculum_survey.py")
