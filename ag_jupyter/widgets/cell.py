"""The work of ``%%autograd``: run a cell under a trace and make its widget.

``magics.py`` only parses options; everything else is here, in one context
manager (IPython's ``%%capture`` is the model)::

    with AutogradCell(shell, cell, options) as run:
        run.execute()
    run.widget  # the cell's result

**How the cell runs.** It is compiled with IPython's own compiler (so its frames
read ``Cell In[5], line 3`` with the source shown, and ``%magics`` in it work)
and executed in the user namespace with ``exec``, not with a nested
``shell.run_cell``. The reason: a nested ``run_cell`` prints the traceback
itself and swallows the error, so the ``%%autograd`` cell would count as
successful (``Run All`` would go on past it) and the graph would appear *after*
the traceback. With ``exec`` the exception reaches ``__exit__``: the trace
marks it (an ``error`` event), the partial graph is displayed, and the
exception goes on to IPython, which prints the normal traceback under it and
fails the cell. Our own frames carry ``__tracebackhide__`` so IPython folds them
into one ``[... skipping hidden frames]`` line. As in a plain cell, a last bare
expression is displayed (before the graph).

**After the cell** (also when it raised): the trace is closed, no listener is
left in the engine's seam, tensors are labelled after the cell's variables and
module scopes after the variables holding the modules (``labels.py``,
``scopes.py``), ``-o NAME`` stores the trace, and, in live mode, a
``LiveBackward`` is made inside the still-open trace.
"""
from __future__ import annotations

import ast
import sys
from contextlib import nullcontext
from dataclasses import dataclass, field

from IPython.core.error import UsageError
from IPython.display import display

from ..autograd import state
from ..tensor import TENSOR_TYPES
from ..torch_switch import cell_on_engine, check_source, switch_is_on
from ..tracing import trace
from ..tracing.gc_pause import collections_paused
from ..tracing.replay import Tape
from ..tracing.torch_cell import TorchCellTrace
from .cell_contents import NoGraph, imports_torch, is_torch_tensor, made_by_cell, no_graph, snapshot
from .checks import CellChecks
from .graph_widget import GraphWidget
from .labels import label_trace
from .live import LiveBackward
from .naming import name_torch_trace
from .scopes import rename_root_scopes, rename_torch_root_scopes
from .show import build_widget


@dataclass
class CellOptions:
    """What ``%%autograd``'s options ask for (validated by ``magics.py``)."""

    backward: str | None = None  # run NAME.backward() after the cell
    engine: bool = False  # run PyTorch code on the engine (torch_switch.py)
    live: bool = False
    output: str | None = None  # store the trace object under this name
    view: dict = field(default_factory=dict)  # GraphWidget traits: animate, direction, speed, max_nodes


class AutogradCell:
    """Runs one ``%%autograd`` cell (see the module doc); ``widget`` is its result."""

    def __init__(self, shell, cell: str, options: CellOptions):
        self.shell = shell
        self.cell = cell
        self.options = options
        self.trace = trace(title=_title(cell))
        self.torch_trace: TorchCellTrace | None = None  # PyTorch's graph, for a cell of PyTorch code
        self.widget: GraphWidget | NoGraph | None = None
        self._before: dict = {}
        self._tree = None  # the parsed cell, kept for --engine's imports
        self._live: LiveBackward | None = None
        self._body = self._last = None  # code objects, made by _compile on entry
        self._quiet = False

    def __enter__(self) -> "AutogradCell":
        if switch_is_on():  # %autograd_engine is on, or the magic runs inside ag.as_torch()
            self.options.engine = True
        tree = self._compile()  # before tracing: a SyntaxError is IPython's usual message, with no graph
        self._before = snapshot(self.shell.user_ns)
        if not self.options.engine and ("torch" in sys.modules or imports_torch(tree)):  # PyTorch's graph?
            try:
                self.torch_trace = TorchCellTrace(title=_title(self.cell)).__enter__()
            except ImportError:  # not installed: the cell's own import will say so
                self.torch_trace = None
        self.tape = Tape()  # beside the recorder: what a replay of the graph needs (checks.py)
        self.tape.parent, state.listener = state.listener, self.tape
        self.trace.__enter__()
        return self

    def _compile(self) -> ast.Module:
        """The cell as code objects: the body, and its last bare expression (shown, as in a
        plain cell, unless the cell ends with ``;``). Named like IPython's cells (``Cell In[5]``)."""
        shell = self.shell
        code = shell.transform_cell(self.cell)
        filename = shell.compile.cache(code, shell.execution_count, raw_code=self.cell)
        tree = shell.compile.ast_parse(code, filename=filename)
        if self.options.engine:  # every name checked before any line runs: never a partial run
            problem = check_source(tree, shell.user_ns)
            if problem is not None:
                raise UsageError(f"--engine: {problem}")
            self._tree = tree
        if self.options.live:
            self._take_over_backward(tree)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        self._body = shell.compile(tree, filename, "exec")
        self._last = None
        if last is not None:
            self._last = shell.compile(ast.Expression(last.value), filename, "eval")
        self._quiet = code.rstrip().endswith(";")
        return tree

    def _take_over_backward(self, tree: ast.Module) -> None:
        """``--live`` runs the backward pass itself, a node per step. A learner's cell that
        ends with ``NAME.backward()`` (pasted from a plain cell) keeps working: that last
        call is taken out and ``NAME`` becomes the tensor stepped. Any other backward call
        is refused before the cell runs, so nothing is half done."""
        last = tree.body[-1] if tree.body else None
        if _is_backward_call(last):
            call = last.value
            if call.args or call.keywords:
                raise UsageError(f"--live steps the backward pass itself and takes over a plain "
                                 f"`{ast.unparse(call)}` only without arguments (line {last.lineno}); "
                                 f"write `{ast.unparse(call.func.value)}.backward()` or drop --live")
            root = ast.unparse(call.func.value)
            if self.options.backward not in (None, root):
                raise UsageError(f"--backward {self.options.backward} names another tensor than the "
                                 f"cell's own `{root}.backward()` (line {last.lineno}): keep one of them")
            self.options.backward = root
            tree.body.pop()
        others = sorted({n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call) and _calls_backward(n)})
        if others:
            lines = ", ".join(map(str, others))
            raise UsageError(f"--live runs the backward pass step by step itself, but the cell calls "
                             f".backward() on line {lines}: keep only one `NAME.backward()` as the "
                             f"cell's last line (it is then stepped live), or drop --live")

    def execute(self) -> None:
        """Run the cell in the user namespace, then ``NAME.backward()`` or the live stepper."""
        __tracebackhide__ = True  # noqa: F841 - read by IPython's traceback printer
        shell = self.shell
        on_engine = cell_on_engine(shell.user_ns, self._tree) if self.options.engine else nullcontext()
        with shell.builtin_trap, on_engine:
            exec(self._body, shell.user_ns)  # noqa: S102 - running the cell is the point
            if self._last is not None:
                value = eval(self._last, shell.user_ns)  # noqa: S307
                if value is not None and not self._quiet:
                    display(value)
        if self.options.live:
            root = self._root()
            if root.numel() != 1:
                name = self.options.backward or _name_of(root, self.shell.user_ns)
                raise UsageError(f"--live steps the backward pass of a scalar, but {name} has shape "
                                 f"{list(root.shape)}: reduce it first ({name}.sum() or {name}.mean()) "
                                 f"or name a scalar with --backward NAME")
            if self.trace.ran_backward_from(root):
                raise UsageError("--live runs the backward pass step by step itself, but the cell's code "
                                 "already ran it (a .backward() inside a function the cell calls): remove "
                                 "that call, or drop --live")
            self._live = LiveBackward(self.trace, root)  # made inside the trace: it reports here
        elif self.options.backward:
            self._root().backward()

    def _root(self):
        """The tensor ``--backward NAME`` names, or for ``--live`` alone the cell's output."""
        name = self.options.backward
        if name is not None:
            try:
                value = eval(name, self.shell.user_ns)  # noqa: S307 - a name typed in the magic line
            except Exception as error:  # noqa: BLE001 - reported as a usage problem
                raise UsageError(f"--backward {name}: {type(error).__name__}: {error}") from None
            if is_torch_tensor(value) and not self.options.live:
                return value  # its backward runs inside the PyTorch trace, which records it
            if value.__class__ not in TENSOR_TYPES:
                kind = "a PyTorch tensor" + _TORCH_LIVE if is_torch_tensor(value) else \
                    f"a {type(value).__name__}, not a tensor"
                raise UsageError(f"--backward {name}: that is {kind}")
            return value
        candidates = []
        for var, value in list(self.shell.user_ns.items()):
            if value.__class__ in TENSOR_TYPES and value.grad_fn is not None and not var.startswith("_"):
                node_id = self.trace.node_id(value)
                if node_id is not None:
                    candidates.append((int(node_id[1:]), var, value))
        if not candidates:
            made = made_by_cell(self._before, self.shell.user_ns)
            if any(is_torch_tensor(value) and value.requires_grad for _, value in made):
                raise UsageError("--live needs an ag_jupyter tensor to step backward from" + _TORCH_LIVE)
            raise UsageError("--live needs a tensor to step backward from: the cell made none that "
                             "requires grad; name one with --backward NAME")
        return max(candidates, key=lambda c: (c[2].numel() == 1, c[0]))[2]  # a scalar, made last

    def __exit__(self, exc_type, exc, tb) -> bool:
        __tracebackhide__ = True  # noqa: F841
        if isinstance(exc, UsageError):  # a bad option, not an error of the cell's code
            exc_type = exc = tb = None
        self.trace.__exit__(exc_type, exc, tb)  # marks the error, if any; the listener goes back
        state.listener, self.tape.parent = self.tape.parent, None
        names = self.shell.user_ns
        made = made_by_cell(self._before, names)
        self._before = {}
        torch_trace = self._close_torch_trace(made, exc_type, exc, tb)
        with collections_paused():  # the document is new, acyclic containers (see gc_pause.py)
            label_trace(self.trace, names)
            rename_root_scopes(self.trace, names)
            document = self.trace.to_dict()
            shown = self.trace
            if not document["nodes"] and torch_trace is not None:
                shown, document = torch_trace, torch_trace.to_dict()
            if self.options.output:
                names[self.options.output] = shown
            live = None if exc is not None else self._live
            if exc is not None and self._live is not None:
                self._live.close()
            if document["nodes"]:
                self.widget = build_widget(document, live, source=self.cell, **self.options.view)
                if shown is self.trace:
                    self.widget.checks = CellChecks(self.trace, self.tape)
            else:
                self.widget = no_graph(made)
        if exc is not None:  # the partial graph first; IPython prints the traceback under it
            display(self.widget)
        return False  # an exception goes on to IPython: the normal traceback, the cell fails

    def _close_torch_trace(self, made: list, exc_type, exc, tb) -> TorchCellTrace | None:
        """End the PyTorch trace, if one ran: first the graphs of the PyTorch tensors the cell
        left in its variables, and every name (only now can intermediate tensors be named)."""
        torch_trace, self.torch_trace = self.torch_trace, None
        if torch_trace is None:
            return None
        try:
            torch_trace.finish([value for _, value in made if is_torch_tensor(value)])
            names = self.shell.user_ns
            name_torch_trace(torch_trace, names)
            rename_torch_root_scopes(torch_trace, names)
        finally:
            torch_trace.__exit__(exc_type, exc, tb)
        return torch_trace


_TORCH_LIVE = (": the cell's graph is PyTorch's, whose backward cannot pause between nodes. Drop --live "
               "(the widget replays the order PyTorch ran), or add --engine to run the cell on "
               "ag_jupyter's engine, which steps live")


def _name_of(value, names: dict) -> str:
    return next((var for var, v in names.items() if v is value and not var.startswith("_")), "the tensor")


def _calls_backward(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and call.func.attr == "backward"


def _is_backward_call(statement) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) \
        and _calls_backward(statement.value)


def _title(cell: str) -> str:
    """The widget's title: the cell's first line of code that is not an import, shortened."""
    for line in cell.splitlines():
        text = line.strip()
        if text and not text.startswith(("#", "import ", "from ", "%")):
            return text if len(text) <= 60 else text[:57] + "..."
    return "%%autograd"
