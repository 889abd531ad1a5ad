"""No garbage collection while a document is built: it makes only new, acyclic containers.

Building the document of a 10,000-node trace makes about a million dicts, lists and
tuples that all stay alive. Each 700 of them start a collection of the youngest
generation, and every few of those an older one that traverses what the document holds
so far, and in the end the whole heap: work that finds nothing, because a document has
no reference cycles. The collector is paused for the build and resumed as it was.
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
