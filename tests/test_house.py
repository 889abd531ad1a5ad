"""The house rules CI keeps: files small enough to read whole (Python 400 lines, JS 300)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGETS = {".py": 400, ".js": 300, ".mjs": 300}
SOURCES = sorted(
    path for pattern in ("ag_jupyter/**/*.py", "tests/**/*.py", "benchmarks/*.py", "examples/*.py",
                         "js/src/**/*.js", "js/labextension/src/*.js", "js/test/**/*.mjs", "js/bench/*.mjs")
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


def test_no_bottom_of_file_imports():
    # the engine's circle is untied (core.py): import order is never load-bearing again
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "ag_jupyter").rglob("*.py")
                 if "noqa: E402" in p.read_text(encoding="utf-8")]
    assert offenders == []


def test_every_engine_module_can_be_imported_first():
    code = """
import importlib, pkgutil, sys
import ag_jupyter
names = [m.name for m in pkgutil.walk_packages(ag_jupyter.__path__, "ag_jupyter.")
         if not m.name.startswith(("ag_jupyter.widgets", "ag_jupyter.export", "ag_jupyter.magics"))]
failed = []
for name in names:
    for loaded in [k for k in sys.modules if k == "ag_jupyter" or k.startswith("ag_jupyter.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as error:
        failed.append(f"{name}: {type(error).__name__}: {error}")
print(len(names)); print("\\n".join(failed))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    count, *failed = out.stdout.strip().splitlines()
    assert int(count) > 40 and failed == [], failed
