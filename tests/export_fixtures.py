"""Notebooks with ag_jupyter graphs, executed once, as JupyterLab and nbconvert save them."""
from __future__ import annotations

import copy
import os
from pathlib import Path

from example_graphs import README_CELL

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL_1 = ROOT / "notebooks" / "01_computational_graphs.ipynb"
README_CELLS = [
    "%load_ext ag_jupyter\nimport ag_jupyter as ag",
    "%%autograd\n" + README_CELL,
    "with ag.trace() as tr:\n"
    "    x = ag.tensor([1.0, 2.0], requires_grad=True)\n"
    "    (x * x).sum().backward()\n"
    "ag.show(tr, names={'x': x}, animate=False)",
]
README_GRADS = {"a": -3.0, "b": 2.0, "c": 1.3862943611198906, "d": 2.5}


def executed(cells_or_path, with_widget_state: bool):
    """The notebook run top to bottom by nbclient. ``with_widget_state=False`` is what
    JupyterLab saves by default ("Save Widget State Automatically" is off)."""
    import nbformat
    from nbclient import NotebookClient

    if isinstance(cells_or_path, Path):
        notebook = nbformat.read(cells_or_path, as_version=4)
    else:
        notebook = nbformat.v4.new_notebook()
        notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells_or_path]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    env_path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    os.environ["PYTHONPATH"] = env_path  # the kernel imports this checkout's ag_jupyter
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    if not with_widget_state:
        notebook = copy.deepcopy(notebook)
        notebook.metadata.pop("widgets", None)
    return notebook
