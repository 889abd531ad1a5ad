"""The tutorials, read as a learner reads them: committed without outputs, listed in the
README, run top to bottom (Run All) and again without an error, within Binder's 1 GB of
memory and well under a minute; every widget waits for the learner with a caption that
says what to press; every exercise's change, applied as its text describes it, gives the
outcome its text states; every notebook ends with a recap and two questions."""
import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from example_graphs import EXERCISE_WIDGETS, TUTORIAL_EXERCISES

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
RUNNER = Path(__file__).resolve().parent / "notebook_runner.py"



def _has_torch():
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


# the widgets each tutorial shows after Run All (tutorial 6's need PyTorch)
WIDGETS = {"01": 3, "02": 2, "03": 3, "04": 4, "05": 4, "06": 3 if _has_torch() else 0, "07": 1}


@functools.lru_cache(maxsize=None)
def read_as_learner(path: Path) -> dict:
    """The runner's report on ``path`` (once per session: each test below reads it)."""
    spec = [{"cell": "exercise", **TUTORIAL_EXERCISES[path.stem]}]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    out = subprocess.run([sys.executable, str(RUNNER), str(path), "--exercises", json.dumps(spec)],
                         capture_output=True, text=True, env=env, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_there_are_seven_tutorials():
    assert len(NOTEBOOKS) == 7, [p.name for p in NOTEBOOKS]
    assert sorted(TUTORIAL_EXERCISES) == [p.stem for p in NOTEBOOKS]
    for name, cell, _ in EXERCISE_WIDGETS:  # the browser test's screenshots are of the exercise
        assert nbformat.read(str(ROOT / "notebooks" / f"{name}.ipynb"), as_version=4).cells[cell].id == "exercise"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_committed_without_outputs(path):
    notebook = nbformat.read(str(path), as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{path.name} has outputs: clear them"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_listed_in_the_readme(path):
    assert f"notebooks/{path.name}" in (ROOT / "README.md").read_text(), f"add {path.name} to the README"
    # the file browser's front door, the first file a Binder user sees
    assert path.name in (ROOT / "notebooks" / "README.md").read_text(), f"add {path.name} to notebooks/README.md"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_the_text_around_each_exercise(path):
    """The text above the exercise names the change and the expected outcome; a collapsed
    solution follows; the notebook ends with a recap and two check-yourself questions."""
    cells = nbformat.read(str(path), as_version=4).cells
    (at,) = [i for i, c in enumerate(cells) if c.get("id") == "exercise"]
    text = cells[at - 1].source
    old, new = TUTORIAL_EXERCISES[path.stem]["replace"]
    assert f"`{old}`" in text and f"`{new}`" in text and "**Expected:**" in text, text
    assert old in cells[at].source and new not in cells[at].source, "the change is the learner's to make"
    assert any(c.source.startswith("<details><summary><b>Solution</b>") for c in cells[at + 1:]), "no solution"
    last = cells[-1].source
    assert "## Recap" in last and "## Check yourself" in last and "\n1. " in last and "\n2. " in last
    assert "<details><summary>Answers</summary>" in last


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_runs_all_and_again_without_errors_in_under_1_gb(path):
    report = read_as_learner(path)
    assert report["errors"] == [], report["errors"]
    assert report["rerun_errors"] == [], report["rerun_errors"]
    assert report["kernel_max_rss_mb"] < 1024, f"{path.name} peaked at {report['kernel_max_rss_mb']:.0f} MB"
    assert report["run_all_seconds"] < 45, f"{path.name}: Run All took {report['run_all_seconds']} s"


@pytest.mark.skipif(shutil.which("node") is None, reason="reads the widgets with the front end's code (Node)")
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_widget_waits_for_the_learner(path):
    """Played as the browser plays it, each widget stops at the forward's end (live: with the
    kernel's backward still to run) and its caption says what to press. A graph drawn with no
    backward pass (ag.show of a tensor) has nothing to wait for: its caption says so."""
    widgets = read_as_learner(path)["widgets"]
    assert len(widgets) == WIDGETS[path.stem[:2]], widgets
    for widget in widgets:
        where = f"{path.stem}, cell {widget['cell']}: {widget['step']} / {widget['total']}"
        assert not widget["playing"], where
        if widget["caption"].endswith(" — the graph is built; no backward pass was recorded (← steps back "
                                      "through the forward)"):
            continue
        assert widget["caption"].endswith(" — the graph is built: press → to step the backward pass one node at a "
                                          "time, or ▶ to play it"), (where, widget["caption"])
        assert widget["step"] < widget["total"] or widget["live_can_advance"], where


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_the_exercise_does_what_its_text_says(path):
    report = read_as_learner(path)
    assert report["starting_points"] == [{"cell": "exercise", "errors": []}], report["starting_points"]
    assert report["exercises"] == [{"cell": "exercise", "errors": []}], report["exercises"]


@pytest.mark.parametrize("cell, expected", [
    ("%%autograd --direction XY\nx = 1", "stderr: UsageError: --direction must be LR or TB"),
    ("import sys\nprint('careful', file=sys.stderr)", "stderr: careful"),
    ("1 / 0", "ZeroDivisionError"),
])
def test_the_runner_reports_what_a_learner_would_see_as_an_error(tmp_path, cell, expected):
    # a notebook broken on purpose: the checks above must fail on it, on the first run and the re-run
    path = tmp_path / "broken.ipynb"
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell("%load_ext ag_jupyter"), nbformat.v4.new_code_cell(cell),
                      nbformat.v4.new_code_cell("print('still runs')")]
    nbformat.write(notebook, str(path))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, str(RUNNER), str(path)], capture_output=True, text=True,
                         env=env, timeout=300)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    for errors in (report["errors"], report["rerun_errors"]):
        assert len(errors) == 1 and errors[0].startswith("cell 1: ") and expected in errors[0], errors


def test_the_runner_fails_an_exercise_whose_change_is_not_in_its_cell(tmp_path):
    path = tmp_path / "exercise.ipynb"
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell("x = 2")]
    notebook.cells[0]["id"] = "exercise"
    nbformat.write(notebook, str(path))
    spec = [{"cell": "exercise", "replace": ["x = 3", "x = 4"], "check": "assert x == 4"},
            {"cell": "exercise", "replace": ["x = 2", "x = 5"], "check": "assert x == 4"}]
    out = subprocess.run([sys.executable, str(RUNNER), str(path), "--exercises", json.dumps(spec)],
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    first, second = json.loads(out.stdout.strip().splitlines()[-1])["exercises"]
    assert first["errors"] == ["cell 0: the text's change 'x = 3' is not in the cell"]
    assert second["errors"] == ["cell 0 (check): AssertionError: "], second
