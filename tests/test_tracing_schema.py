"""The schema itself, its two validators, and the consistency checks beside it."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

import ag_jupyter as ag
from ag_jupyter.tracing import VERSION, schema

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "e_graph.json"


def test_the_schema_is_a_valid_json_schema():
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(schema.load())
    assert schema.load()["properties"]["version"]["pattern"] == r"^1\.[0-9]+$" and VERSION.startswith("1.")


def breakages(doc: dict) -> list:
    bad = []
    for mutate in (
        lambda d: d.pop("events"),
        lambda d: d.update(version="2.0"),
        lambda d: d["nodes"][0].update(kind="tensr"),
        lambda d: d["nodes"][0]["value"].update(values=list(range(65))),
        lambda d: d["events"][0].update(type="created"),
        lambda d: d["events"][-1].pop("completed"),
        lambda d: d["edges"][0].update(arg=-1),
        lambda d: d["nodes"][4].update(formula=3),
    ):
        broken = copy.deepcopy(doc)
        mutate(broken)
        bad.append(broken)
    return bad


def test_both_validators_agree():
    jsonschema = pytest.importorskip("jsonschema")
    fastjsonschema = pytest.importorskip("fastjsonschema")
    reference = jsonschema.Draft202012Validator(schema.load())
    fast = fastjsonschema.compile(schema.load())
    doc = json.loads(FIXTURE.read_text(encoding="utf-8"))
    reference.validate(doc)
    fast(doc)
    for broken in breakages(doc):
        assert not reference.is_valid(broken)
        with pytest.raises(fastjsonschema.JsonSchemaException):
            fast(broken)


def test_problems_finds_what_the_schema_cannot():
    doc = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert schema.problems(doc) == []
    dangling = copy.deepcopy(doc)
    dangling["edges"].append({"src": "t99", "dst": "op0", "arg": 0})
    twice = copy.deepcopy(doc)
    twice["events"].insert(1, dict(twice["events"][0]))
    twice["passes"][0]["last_event"] += 1
    assert "points at a missing node" in schema.problems(dangling)[0]
    assert schema.problems(twice) == ["node t0 has 2 create events, not 1"]
    with pytest.raises(ValueError, match="inconsistent trace document"):
        schema.validate(dangling)


def test_an_empty_trace_is_a_valid_document():
    with ag.trace() as tr:
        pass
    doc = tr.to_dict()
    assert doc["nodes"] == doc["events"] == doc["passes"] == [] and doc["version"] == VERSION


def test_import_stays_light():
    code = ("import sys, ag_jupyter as ag; ag.trace; "
            "print(sorted(m for m in ('torch', 'cupy', 'IPython', 'jsonschema', 'json') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.stdout.strip() == "[]"
