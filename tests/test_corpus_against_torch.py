"""The differential corpus: programs written in the style of the material every course uses,
each run under PyTorch and on the engine (``ag.as_torch()``, one generator for both), every
printed number compared.

Each program in ``tests/corpus/`` names the public tutorial it stands in for; none copies
one. A program prints what a learner would look at (losses, gradients, tensors, shapes,
accuracies); the engine's run must print the same words and the same numbers, to float32's
tolerances (``RTOL``/``ATOL``: a training loop of a few hundred float32 steps is allowed the
drift of its last digits, not a different result).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from corpus_compare import differences

pytest.importorskip("torch")

HERE = Path(__file__).resolve().parent
PROGRAMS = sorted((HERE / "corpus").glob("p*.py"))
RUNNER = HERE / "corpus_runner.py"
RTOL, ATOL = 2e-3, 1e-4


def _run(mode: str, program: Path) -> str:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent), str(HERE)])}
    done = subprocess.run([sys.executable, str(RUNNER), mode, str(program)], capture_output=True, text=True,
                          timeout=300, env=environment)
    assert done.returncode == 0, f"{program.name} failed {'under PyTorch' if mode == 'torch' else 'on the engine'}:" \
                                 f"\n{done.stderr[-3000:]}"
    return done.stdout


def test_the_corpus_is_whole():
    assert len(PROGRAMS) >= 20
    for program in PROGRAMS:
        assert "Stands in for:" in program.read_text(encoding="utf-8"), f"{program.name} names no tutorial"


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_the_engine_prints_pytorchs_numbers(program):
    expected = _run("torch", program)
    got = _run("engine", program)
    problems = differences(expected, got, RTOL, ATOL)
    assert not problems, f"{program.name}:\n" + "\n".join(problems[:12])
