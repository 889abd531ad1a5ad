"""The house rules CI keeps: files small enough to read whole (Python 400 lines, JS 300)."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGETS = {".py": 400, ".js": 300, ".mjs": 300}
SOURCES = sorted(
    path for pattern in ("ag_jupyter/**/*.py", "tests/**/*.py", "benchmarks/*.py", "examples/*.py",
                         "js/src/*.js", "js/labextension/src/*.js", "js/test/**/*.mjs", "js/bench/*.mjs")
    for path in ROOT.glob(pattern) if "node_modules" not in path.parts
)


def test_the_budget_sees_the_sources():
    assert len(SOURCES) > 100 and any(p.suffix == ".js" for p in SOURCES)


def test_every_file_within_its_line_budget():
    over = []
    for path in SOURCES:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > BUDGETS[path.suffix]:
            over.append(f"{path.relative_to(ROOT)}: {lines} lines (budget {BUDGETS[path.suffix]})")
    assert not over, "split the concern of: " + "; ".join(over)
