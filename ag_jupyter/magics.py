"""IPython magics: ``%%autograd``, ``%autograd_show`` and ``%autograd_engine``. Thin: parse, then call widgets/.

``%load_ext ag_jupyter`` registers them (``ag_jupyter.load_ipython_extension``).
"""
from __future__ import annotations

import keyword

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from .tracing.gc_pause import collections_paused
from .widgets.cell import AutogradCell, CellOptions
from .widgets.cell_contents import NoGraph
from .widgets.contract import check_option
from .widgets.graph_widget import GraphWidget
from .widgets.notebook_engine import notebook_engine
from .widgets.page import check_target
from .widgets.show import show

HTML_HELP = ("also write the graph as one self-contained HTML page at PATH: it steps with no kernel "
             "and no network (widget.write_html)")


def _page_path(path):
    """The ``--html`` path, checked before anything runs (a bad one is a UsageError naming it)."""
    if path is None:
        return None
    try:
        return check_target(path)
    except (OSError, ValueError) as error:
        raise UsageError(f"--html: {error}") from None


def _write_page(widget, path) -> None:
    try:
        widget.write_html(path)
    except OSError as error:
        raise UsageError(f"--html: {error}") from None


def _view_options(args) -> dict:
    """The widget traits the shared options ask for; UsageError for a bad value (the
    widget's own rules, ``contract.check_option``), before the cell runs."""
    view = {"animate": not args.no_animate}
    if args.predict:
        if getattr(args, "live", False):  # the kernel's steps would run past a question unasked
            raise UsageError("--predict asks about a recorded backward pass; it cannot be combined with --live")
        view["predict"] = True
    for name in ("direction", "speed", "max_nodes"):
        value = getattr(args, name)
        if value is not None:
            try:
                view[name] = check_option(name, value)
            except ValueError as error:
                # the rule's own words, named as the option is typed: "--max-nodes must be >= 0 ..."
                raise UsageError(f"--{name.replace('_', '-')}{str(error)[len(name):]}") from None
    return view


def _view_arguments(func):
    """The options both magics take (applied under ``@magic_arguments()``)."""
    for option in reversed([
        argument("--live", action="store_true",
                 help="step the backward pass for real, one node per step: x.grad in the kernel "
                      "always matches the screen"),
        argument("--no-animate", action="store_true",
                 help="show the final graph at once (by default the forward builds itself, then the backward waits)"),
        argument("--predict", action="store_true",
                 help="ask for each leaf's gradient before showing it; the answers are in the widget's "
                      ".predictions"),
        argument("--direction", metavar="LR|TB", help="layout direction (default LR: left to right)"),
        argument("--speed", type=float, metavar="S", help="events per second when playing (default 4)"),
        argument("--max-nodes", type=int, metavar="N", help="collapse modules beyond N nodes (0: no limit)"),
    ]):
        func = option(func)
    return func


@magics_class
class AutogradMagics(Magics):
    """``%%autograd`` and ``%autograd_show``."""

    @magic_arguments()
    @argument("--backward", metavar="NAME", help="run NAME.backward() after the cell, inside the trace")
    @argument("--engine", action="store_true",
              help="run the cell's PyTorch code on ag_jupyter's engine: `import torch` (torch.nn, "
                   "torch.nn.functional, torch.optim ...) gives the engine's modules for this cell, so it "
                   "can step --live and --predict; a name the engine lacks stops the cell before it runs")
    @_view_arguments
    @argument("-o", "--output", metavar="NAME", help="store the trace (an ag.trace) in the variable NAME")
    @argument("--html", metavar="PATH", help=HTML_HELP)
    @cell_magic
    def autograd(self, line: str, cell: str):
        """Run the cell under ``ag.trace()`` and show its graph: it builds itself in the
        order the code made it and waits where the backward pass begins; → steps the
        backward node by node, ▶ plays it.

        Tensors are labelled with the cell's variable names, module parameters with
        their dotted names (``fc_1.weight``), module scopes with the variable holding
        the module (``model.fc_1``). The widget is the cell's result (``_`` holds it).
        A cell that raises shows its partial graph with the error marked, then the
        traceback. With ``--live`` (and ``--backward NAME``, or else the scalar the
        cell made last) the backward pass runs for real, a node per step.

        A cell of real PyTorch code is drawn from PyTorch's own graph (as
        ``ag.trace_torch`` records it), with the same names and scopes; a cell that
        makes no graph says what it saw in the widget's place.
        """
        __tracebackhide__ = True  # noqa: F841 - IPython folds this frame out of tracebacks
        args = parse_argstring(self.autograd, line)
        if args.output is not None and (not args.output.isidentifier() or keyword.iskeyword(args.output)):
            raise UsageError(f"-o takes a variable name, not {args.output!r}")
        options = CellOptions(backward=args.backward, live=args.live, output=args.output,
                              view=_view_options(args), engine=args.engine)
        page = _page_path(args.html)
        run = AutogradCell(self.shell, cell, options)
        try:
            with collections_paused(), run:  # the whole traced cell: see gc_pause.py
                run.execute()
        finally:  # a cell that raised still gets its page: the partial graph, the error marked
            if page is not None and isinstance(run.widget, GraphWidget):
                _write_page(run.widget, page)
        if page is not None and isinstance(run.widget, NoGraph):
            raise UsageError(f"--html: no page written to {page}. {run.widget.message}")
        return run.widget

    @line_magic
    def autograd_engine(self, line: str):
        """``%autograd_engine on``: the PyTorch code of every following cell runs on
        ag_jupyter's engine (``import torch`` gives the engine, as ``%%autograd --engine``
        does for one cell), until ``%autograd_engine off``. A cell using a name the engine
        lacks is stopped before any line runs, with the names. ``%autograd_engine`` alone
        says whether it is on."""
        choice = line.strip()
        if choice not in ("on", "off", ""):
            raise UsageError(f"%autograd_engine takes on or off, not {choice!r}")
        switch = notebook_engine(self.shell)
        if choice == "on":
            switch.start()
        elif choice == "off":
            switch.stop()
        print("PyTorch code runs on ag_jupyter's engine in the following cells (%autograd_engine off "
              "to stop)" if switch.on else "PyTorch code runs on PyTorch (%autograd_engine on to run it "
              "on ag_jupyter's engine)")

    @magic_arguments()
    @_view_arguments
    @argument("--html", metavar="PATH", help=HTML_HELP)
    @argument("expr", nargs="+", help="an expression giving a tensor (ag_jupyter or PyTorch) or a trace")
    @line_magic
    def autograd_show(self, line: str):
        """Show the graph of an existing tensor, ours or PyTorch's (like torchviz's
        ``make_dot``), or of a trace; tensors are labelled after variables."""
        args = parse_argstring(self.autograd_show, line)
        expr = " ".join(args.expr)
        page = _page_path(args.html)
        try:
            value = self.shell.ev(expr)
        except Exception as error:  # noqa: BLE001 - shown as a usage error, like %timeit's
            raise UsageError(f"%autograd_show {expr}: {type(error).__name__}: {error}") from None
        try:
            names = None if isinstance(value, dict) else self.shell.user_ns  # a document holds no tensors
            widget = show(value, live=args.live, names=names, source=expr, **_view_options(args))
        except (TypeError, ValueError) as error:
            raise UsageError(f"%autograd_show {expr}: {error}") from None
        if page is not None:
            _write_page(widget, page)
        return widget
