"""No garbage collection while a document is built: it makes only new, acyclic containers.

Building the document of a 10,000-node trace makes about a million dicts, lists and
tuples that all stay alive. Each 700 of them start a collection of the youngest
generation, and every few of those an older one that traverses what the document holds
so far, and in the end the whole heap: work that finds nothing, because a document has
no reference cycles. The collector is paused for the build and resumed as it was.

A ``%%autograd`` cell runs paused from its first line to its widget (``magics.py``). While
it runs, the trace keeps a few records per op, so a 5,000-op chain makes about 110,000
containers that stay; each 700 allocations started a collection, and every tenth of those
an older one, and once per cell a full one over the whole heap, which holds every earlier
cell's output too (IPython's ``Out``): 0.1 s of the 10,000-node cell's collections in a
fresh kernel, 0.55 s after four such cells (``benchmarks/cell_path.py``'s cell, run again and again).
Paused, the collector makes one young collection when the cell ends. The engine's graphs
have no reference cycles (freed by reference counting); a cell whose own code makes cyclic
garbage keeps it until the cell ends, as the trace keeps its records anyway.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def collections_paused():
    """Run the block with the garbage collector off (left off if it was off)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
