"""The comparison methods beside ``eq`` (``ne lt le gt ge``), ``isnan``/``isinf``/``isfinite``
and ``any``/``all``, against PyTorch: a learner's ``torch.isnan(x).any()`` or
``(x > 0).all(dim=1)`` runs here too (added in issue 13's twelfth round, when a survey of
PyTorch's API found ``eq`` without ``ne``)."""
from __future__ import annotations

import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

EXPRESSIONS = [
    "x.isnan()", "x.isinf()", "x.isfinite()", "lib.isnan(x)", "lib.isinf(x).any()", "lib.isfinite(x).all(1)",
    "b.any()", "b.all()", "b.any(1)", "b.all(0, keepdim=True)", "b.any((0, 1))", "b.all(dim=(0,))",
    "x.any()", "i.all(1)", "i.any(-1, True)", "lib.any(b)", "lib.all(b, 1)", "z.any()", "z.all(0)",
    "lib.tensor([]).all()", "lib.tensor([]).any()",
    "x.ne(0)", "x.gt(0)", "x.le(1.0)", "x.ge(x)", "x.lt(lib.tensor([1.0, 0.0, 0.0]))", "i.gt(i.t())",
]


def _outcome(lib, expression):
    x = lib.tensor([[1.0, 0.0, float("nan")], [float("inf"), -2.0, 0.0]])
    b, i, z = x > 0, lib.tensor([[0, 2], [3, 0]]), lib.tensor(0.0)
    result = eval(expression, {"lib": lib, "x": x, "b": b, "i": i, "z": z})
    return str(result.dtype).split(".")[-1], tuple(result.shape), result.tolist(), result.requires_grad


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_predicates_and_comparisons_are_pytorchs(expression):
    assert _outcome(ag, expression) == _outcome(torch, expression)
