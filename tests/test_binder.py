"""Binder, simulated as repo2docker would build it (Docker is not available here): a fresh
venv, ``pip install -r binder/requirements.txt`` from the repository root, ``binder/postBuild``,
then every notebook, plus a new notebook that uses %%autograd without %load_ext.

It builds a whole environment (minutes), so it runs where AG_BINDER_TEST=1 (CI sets it)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNNER = Path(__file__).resolve().parent / "notebook_runner.py"

pytestmark = pytest.mark.skipif(not os.environ.get("AG_BINDER_TEST"),
                                reason="builds a whole Binder environment; set AG_BINDER_TEST=1 (CI does)")


def _run(command, **kwargs):
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done


def test_binder_environment_runs_every_notebook(tmp_path):
    venv, home = tmp_path / "venv", tmp_path / "home"
    home.mkdir()
    _run([sys.executable, "-m", "venv", str(venv)])
    python = str(venv / "bin" / "python")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(HOME=str(home), MPLBACKEND="Agg", PATH=f"{venv / 'bin'}:{env['PATH']}")
    _run([python, "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt"], cwd=ROOT, env=env,
         timeout=1800)
    _run(["bash", str(ROOT / "binder" / "postBuild")], cwd=ROOT, env=env)

    fresh = tmp_path / "fresh.ipynb"
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(
        "%%autograd\nimport ag_jupyter as ag\nx = ag.tensor(3.0, requires_grad=True)\ny = x * x\ny.backward()"),
        nbformat.v4.new_code_cell("assert x.grad.item() == 6.0")]
    nbformat.write(notebook, str(fresh))
    for path in [fresh, *sorted((ROOT / "notebooks").glob("*.ipynb"))]:
        out = _run([python, str(RUNNER), str(path)], cwd=tmp_path, env=env, timeout=900)
        report = json.loads(out.stdout.strip().splitlines()[-1])
        assert report["errors"] == [], f"{path.name}: {report['errors']}"
        assert report["kernel_max_rss_mb"] < 1024, f"{path.name} peaked at {report['kernel_max_rss_mb']:.0f} MB"
