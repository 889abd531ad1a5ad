"""Checks every tracing test runs under (import the fixtures into a test module).

- Every trace document built during a test (``ag.trace().to_dict()``,
  ``from_torch``, ``trace_torch``) is validated against ``trace.schema.json`` and
  checked for dangling ids, when the test ends.
- No test may leave a listener in the engine's seam: a leaked trace fails it.

Large documents are validated with fastjsonschema when it is installed (the
reference validator takes about a millisecond per object); both read the same
schema file, and ``test_tracing_schema`` checks that they agree.
"""
from __future__ import annotations

import pytest

from ag_jupyter.autograd import state
from ag_jupyter.tracing import document, schema

LARGE = 2000  # nodes; above this, the fast validator


def validate(doc: dict) -> None:
    """Schema and consistency checks for one document (raises on a problem)."""
    if len(doc["nodes"]) > LARGE:
        try:
            import fastjsonschema
        except ImportError:
            schema.validate(doc)
        else:
            fastjsonschema.compile(schema.load())(doc)
            found = schema.problems(doc)
            assert not found, found
        return
    schema.validate(doc)


@pytest.fixture(autouse=True)
def checked_documents(monkeypatch):
    """Collect every document built during the test; validate them all at its end."""
    built = []
    original = document.build

    def building(records):
        doc = original(records)
        built.append(doc)
        return doc

    monkeypatch.setattr(document, "build", building)
    assert state.listener is None, "a listener was already in the seam when the test began"
    yield built
    leaked = state.listener
    state.listener = None
    assert leaked is None, f"the test left a listener in the engine's seam: {leaked!r}"
    for doc in built:
        validate(doc)


# ----- small helpers for reading documents in tests ---------------------------------
def events(doc: dict, kind: str | None = None) -> list:
    return [e for e in doc["events"] if kind is None or e["type"] == kind]


def node(doc: dict, node_id: str) -> dict:
    return next(n for n in doc["nodes"] if n["id"] == node_id)


def ops(doc: dict) -> list:
    return [n for n in doc["nodes"] if n["kind"] == "op"]


def tensors(doc: dict) -> list:
    return [n for n in doc["nodes"] if n["kind"] == "tensor"]


def inputs_of(doc: dict, op_id: str) -> list:
    """The ids of an op's input tensors, in argument order."""
    return [e["src"] for e in sorted((e for e in doc["edges"] if e["dst"] == op_id), key=lambda e: e["arg"])]


def output_of(doc: dict, op_id: str) -> str:
    return next(e["dst"] for e in doc["edges"] if e["src"] == op_id)


def values(summary: dict) -> list:
    return summary["values"]
