"""Read a notebook as a learner does, in a fresh kernel, and report what they would see.

1. Run All: every cell in order. An error is anything a learner would see as one: an
   ``error`` output, or any text on stderr (a ``UsageError`` from a magic is only a
   stderr line, with no error output).
2. Each widget the cells displayed, in order: where it waits once the browser has played
   it (``widget_waits.mjs`` runs the front end's own host and caption on the widget state
   the kernel left), so a test can ask that it says what to press and is not at the end.
3. Run All again in the same kernel (a learner re-runs cells): errors as in 1.
4. Each exercise (``--exercises JSON``: ``[{"cell": ID, "replace": [OLD, NEW], "check": CODE,
   "before": CODE}]``): right after Run All, ``before`` (assertions on the starting point the
   text describes); after the re-run, the code cell with id ``ID`` run with ``OLD`` replaced
   by ``NEW`` (the change the text asks for; ``OLD`` must be in the cell), then ``check``
   (assertions on the outcome the text states); errors as in 1.

Run as ``python notebook_runner.py NOTEBOOK [--exercises JSON]`` it prints one JSON line:
{"errors": [...], "rerun_errors": [...], "widgets": [...], "exercises": [...],
"starting_points": [...], "kernel_max_rss_mb": N, "run_all_seconds": S, "seconds": S}.
The kernel is this process's child, so once it has exited, RUSAGE_CHILDREN holds its peak resident memory.
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import resource
import shutil
import subprocess
import time
from pathlib import Path

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WAITS = Path(__file__).resolve().parent / "widget_waits.mjs"
# what the front end reads of a model to play it and caption it
PLAYER_TRAITS = ("trace", "step", "playing", "live", "predict", "predictions", "pass_index", "speed", "animate")


def cell_errors(cells, indices=None) -> list[str]:
    errors = []
    for index, cell in zip(indices or range(len(cells)), cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                errors.append(f"cell {index}: {output.get('ename')}: {output.get('evalue')}")
            elif output.get("output_type") == "stream" and output.get("name") == "stderr":
                # IPython reports a UsageError (and warnings, and printed tracebacks) here,
                # with no error output: a learner sees red text all the same
                first = output.get("text", "").strip().splitlines()[:1]
                errors.append(f"cell {index}: stderr: {first[0] if first else ''}")
    return errors


def _run_all(client, cells) -> list[str]:
    for index, cell in enumerate(cells):
        if cell.cell_type == "code":
            client.execute_cell(cell, index)
    return cell_errors(cells)


def _widget_waits(client, cells) -> list[dict] | None:
    """Each displayed widget, in order: its cell and where the front end waits on it
    (None where Node, which runs the front end's code, is missing)."""
    shown = []
    for index, cell in enumerate(cells):
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            state = client.widget_state.get(view["model_id"]) if view else None
            if state and "trace" in state:  # a GraphWidget (not a progress bar)
                traits = {k: state[k] for k in PLAYER_TRAITS if k in state}
                # the binary parts its state came with (the trace's float values), as base64
                traits["buffers"] = list(client.widget_buffers.get(view["model_id"], {}).values())
                shown.append((index, traits))
    if not shown:
        return []
    if shutil.which("node") is None:  # Binder's image has no Node: the widgets go unread there
        return None
    answer = subprocess.run(["node", str(WAITS)], input=json.dumps([s for _, s in shown]),
                            capture_output=True, text=True, check=True, timeout=120)
    return [{"cell": index, **wait} for (index, _), wait in zip(shown, json.loads(answer.stdout))]


def _exercise_cell(cells, spec: dict):
    (found,) = [(i, c) for i, c in enumerate(cells) if c.get("id") == spec["cell"] and c.cell_type == "code"]
    return found


def _check(client, cells, spec: dict, key: str) -> dict:
    """Run ``spec[key]`` (assertions) in the kernel as it is; its errors as in Run All."""
    import nbformat

    index, _ = _exercise_cell(cells, spec)
    check = nbformat.v4.new_code_cell(spec.get(key, "pass"))
    client.execute_cell(check, index)
    return {"cell": spec["cell"], "errors": cell_errors([check], [f"{index} ({key})"])}


def _exercise(client, cells, spec: dict) -> dict:
    import nbformat

    index, cell = _exercise_cell(cells, spec)
    old, new = spec["replace"]
    if old not in cell.source:
        return {"cell": spec["cell"], "errors": [f"cell {index}: the text's change {old!r} is not in the cell"]}
    changed = copy.deepcopy(cell)
    changed.source = cell.source.replace(old, new)
    check = nbformat.v4.new_code_cell(spec["check"])
    client.execute_cell(changed, index)
    client.execute_cell(check, index)
    return {"cell": spec["cell"], "errors": cell_errors([changed, check], [index, f"{index} (check)"])}


def run(path: str, exercises=(), timeout: int = 600) -> dict:
    import nbformat
    from nbclient import NotebookClient

    started = time.monotonic()
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=timeout, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}})
    # the client files each cell it executes under its index: keep the cells as written
    as_written = copy.deepcopy(notebook.cells)
    with client.setup_kernel():
        errors = _run_all(client, notebook.cells)
        run_all_seconds = round(time.monotonic() - started, 1)
        first_run = copy.deepcopy(notebook.cells)
        starting_points = [_check(client, as_written, spec, "before") for spec in exercises]
        rerun_errors = _run_all(client, copy.deepcopy(as_written))
        done = [_exercise(client, as_written, spec) for spec in exercises]
    notebook.cells = first_run
    widgets = _widget_waits(client, notebook.cells)
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {"errors": errors, "rerun_errors": rerun_errors, "widgets": widgets, "exercises": done,
            "starting_points": starting_points, "kernel_max_rss_mb": peak_kb / 1024,
            "run_all_seconds": run_all_seconds, "seconds": round(time.monotonic() - started, 1)}


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("notebook")
    parser.add_argument("--exercises", default="[]", help="JSON list of {cell, replace: [old, new], check, before}")
    args = parser.parse_args()
    print(json.dumps(run(args.notebook, json.loads(args.exercises))))
