"""Execute a notebook top to bottom in a fresh kernel and report its errors and peak memory.

An error is anything a learner would see as one: an ``error`` output, or any text on
stderr (a ``UsageError`` from a magic is only a stderr line, with no error output).

Run as ``python notebook_runner.py NOTEBOOK`` it prints one JSON line:
{"errors": [...], "kernel_max_rss_mb": N}. The kernel is this process's child, so once
it has exited, RUSAGE_CHILDREN holds its peak resident memory.
"""
from __future__ import annotations

import json
import os
import resource
import sys


def run(path: str, timeout: int = 600) -> dict:
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=timeout, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}})
    client.execute()
    errors = []
    for index, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                errors.append(f"cell {index}: {output.get('ename')}: {output.get('evalue')}")
            elif output.get("output_type") == "stream" and output.get("name") == "stderr":
                # IPython reports a UsageError (and warnings, and printed tracebacks) here,
                # with no error output: a learner sees red text all the same
                first = output.get("text", "").strip().splitlines()[:1]
                errors.append(f"cell {index}: stderr: {first[0] if first else ''}")
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {"errors": errors, "kernel_max_rss_mb": peak_kb / 1024}


if __name__ == "__main__":
    print(json.dumps(run(sys.argv[1])))
