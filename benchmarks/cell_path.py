"""What a traced and shown cell costs in the kernel before the browser has its document:
``%%autograd`` run in IPython's in-process shell on a chain of elementwise ops, the widget
displayed (its static SVG made, as a notebook's display does) and the comm message that
opens it packed as the kernel packs it (``jupyter_client.session.json_packer``). The
browser's own part (parsing, drawing) is ``bench_widget.py``'s and the real-JupyterLab
bench's; the trip between them is the packed size over a local socket.
"""
from __future__ import annotations

import contextlib
import io
import time

CHAIN_CELL = """%%autograd
x = ag.randn(1000, requires_grad=True)
y = x
for i in range({ops}):
    y = y * 0.999 if i % 3 == 0 else (y + 0.001 if i % 3 == 1 else y.tanh())
y.sum().backward()
"""


def _shell():
    import builtins

    from IPython.testing import globalipapp

    import ag_jupyter as ag

    globalipapp.start_ipython()  # once per process
    shell = globalipapp.get_ipython()
    builtins.__dict__.pop("_", None)
    if "ag_jupyter" not in shell.extension_manager.loaded:
        shell.run_cell("%load_ext ag_jupyter")
    shell.user_ns["ag"] = ag
    return shell


def cell_cost(ops: int, rounds: int) -> tuple:
    """``(median seconds, nodes, packed bytes)`` of running, showing and sending a traced
    cell of ``ops`` ops (``2 * ops + 3`` nodes)."""
    import ipywidgets.widgets.widget as ipywidget
    from jupyter_client.session import json_packer

    shell = _shell()
    create_comm = ipywidget.comm.create_comm
    sent = []

    def packing_comm(**args):  # what ipykernel's comm does with the message: pack it, here
        sent.append(json_packer({"data": args.get("data"), "metadata": args.get("metadata")}))
        return create_comm(**args)

    cell = CHAIN_CELL.format(ops=ops)
    times = []
    ipywidget.comm.create_comm = packing_comm
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # the shell prints the widget's text form
            shell.run_cell(cell)  # warm up
            for _ in range(rounds):
                sent.clear()
                start = time.perf_counter()
                result = shell.run_cell(cell)
                times.append(time.perf_counter() - start)
                if not result.success:
                    raise RuntimeError(f"the benchmark's cell failed: {result.error_in_exec!r}")
    finally:
        ipywidget.comm.create_comm = create_comm
    widget = shell.user_ns["_"] if "_" in shell.user_ns else None
    nodes = len(widget.trace["nodes"]) if hasattr(widget, "trace") else 2 * ops + 3
    times.sort()
    return times[len(times) // 2], nodes, max(len(packed) for packed in sent)
