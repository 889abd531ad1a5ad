"""The committed trace fixtures (read by the JS tests too) are current and valid."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from trace_checks import validate

HERE = Path(__file__).resolve().parent / "fixtures"
spec = importlib.util.spec_from_file_location("make_trace_fixtures", HERE / "make_trace_fixtures.py")
maker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(maker)
JS_FIXTURES = Path(__file__).resolve().parents[1] / "js" / "test" / "fixtures"
js_spec = importlib.util.spec_from_file_location("make_js_fixtures", JS_FIXTURES / "make_js_fixtures.py")
js_maker = importlib.util.module_from_spec(js_spec)
js_spec.loader.exec_module(js_maker)


def same(a, b, path="doc") -> list:
    """Where two documents differ; floats may differ in their last digits (BLAS sums
    do, from one CPU to another)."""
    if path.endswith(".offset") and isinstance(a, int) and isinstance(b, int):
        return []  # a bytecode offset: the same code compiles to other offsets in another Python
    if isinstance(a, float) or isinstance(b, float):
        return [] if a == pytest.approx(b, rel=1e-5, abs=1e-7) else [f"{path}: {a!r} != {b!r}"]
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return [f"{path}: keys {sorted(a)} != {sorted(b)}"]
        return [d for k in a for d in same(a[k], b[k], f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items != {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in same(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


@pytest.mark.parametrize("name", sorted(maker.FIXTURES))
def test_fixture_is_what_the_script_writes_and_valid(name):
    committed = json.loads((HERE / name).read_text(encoding="utf-8"))
    validate(committed)
    differences = same(committed, json.loads(maker.text(maker.FIXTURES[name]())))
    assert not differences, (f"run `python tests/fixtures/make_trace_fixtures.py` to refresh {name}: "
                             + "; ".join(differences[:5]))


def test_js_fixtures_are_what_their_script_writes(tmp_path):
    js_maker.main(tmp_path)
    written = sorted(p.name for p in tmp_path.glob("*.json"))
    assert written == sorted(p.name for p in JS_FIXTURES.glob("*.json")), "a JS fixture is missing or stale"
    for name in written:
        committed = json.loads((JS_FIXTURES / name).read_text(encoding="utf-8"))
        validate(committed)
        differences = same(committed, json.loads((tmp_path / name).read_text(encoding="utf-8")))
        assert not differences, (f"run `python js/test/fixtures/make_js_fixtures.py` to refresh {name}: "
                                 + "; ".join(differences[:5]))
