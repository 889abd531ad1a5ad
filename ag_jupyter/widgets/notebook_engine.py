"""``%autograd_engine on``: every following cell's PyTorch code runs on the engine, until ``off``.

The same mechanism as ``%%autograd --engine`` (``torch_switch.py``), cell by cell:
IPython hands each cell's parsed code to ``visit`` (an AST transformer), which
checks its names and rejects the cell before any line runs if the engine lacks one
(``InputRejected``: IPython shows the message, runs nothing and keeps the
transformer); otherwise the switch goes on there and off in ``post_run_cell``, so
between cells ``sys.modules`` holds the real PyTorch. A ``%%autograd`` cell run
meanwhile runs on the engine too (``AutogradCell`` sees the switch on).
"""
from __future__ import annotations

from IPython.core.error import InputRejected

from ..torch_switch import cell_on_engine, check_source


class NotebookEngine:
    """The notebook-wide switch of one shell (``shell.ast_transformers`` holds it while on)."""

    def __init__(self, shell):
        self.shell = shell
        self._running = None  # the switch of the cell under way

    @property
    def on(self) -> bool:
        return self in self.shell.ast_transformers

    def start(self) -> None:
        if not self.on:
            self.shell.ast_transformers.append(self)
            self.shell.events.register("post_run_cell", self._cell_ended)

    def stop(self) -> None:
        self._cell_ended()  # the cell saying ``off`` ran under the switch: it ends now
        if self.on:
            self.shell.ast_transformers.remove(self)
            self.shell.events.unregister("post_run_cell", self._cell_ended)

    def visit(self, tree):
        """Called by IPython with each cell's code, just before it runs."""
        self._cell_ended()  # a cell whose post_run_cell never came (an interrupt) ends here
        problem = check_source(tree, self.shell.user_ns)
        if problem is not None:
            raise InputRejected(f"%autograd_engine is on: {problem}")
        self._running = cell_on_engine(self.shell.user_ns, tree)
        self._running.__enter__()
        return tree

    def _cell_ended(self, result=None) -> None:
        running, self._running = self._running, None
        if running is not None:
            running.__exit__(None, None, None)


def notebook_engine(shell) -> NotebookEngine:
    """The shell's one ``NotebookEngine`` (made on first use)."""
    found = next((t for t in shell.ast_transformers if isinstance(t, NotebookEngine)), None)
    return found if found is not None else NotebookEngine(shell)  # off: it holds nothing
