"""Run one program of the differential corpus under PyTorch or on the engine; print what it prints.

``python corpus_runner.py torch PROGRAM`` runs it as written. ``python corpus_runner.py
engine PROGRAM`` runs the same file with ``import torch`` pointed at ag_jupyter by the
product's own switch (``ag.as_torch()``), after the switch's check of the source, with the
engine's random draws taken from PyTorch's generators (``corpus_random``) so both runs start
from the same numbers. Each run is a fresh process: nothing of one side reaches the other.
"""
from __future__ import annotations

import ast
import os
import runpy
import sys


def run(mode: str, program: str) -> None:
    program = os.path.abspath(program)
    folder = os.path.dirname(program)
    sys.path.insert(0, folder)  # the programs share a names list (names.py)
    os.chdir(folder)
    if mode == "torch":
        import torch

        torch.manual_seed(0)  # a program that never seeds still starts where the engine's run starts
        runpy.run_path(program, run_name="__main__")
        return
    from corpus_random import torch_random_source

    import ag_jupyter as ag
    from ag_jupyter.torch_switch import check_source

    with open(program, encoding="utf-8") as file:
        problem = check_source(ast.parse(file.read()), {})
    if problem is not None:
        raise SystemExit(problem)
    with torch_random_source(), ag.as_torch():
        ag.manual_seed(0)  # seeds PyTorch's global generator too, which the engine's draws come from
        runpy.run_path(program, run_name="__main__")


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2])
