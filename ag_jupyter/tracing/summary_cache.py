"""The recorder's cache of summaries: one gradient array seen several times in a backward
pass is summarized once."""
from __future__ import annotations

import weakref

from .summary import SMALL, record


class SummaryCache:
    """Summaries of the arrays seen lately, by identity, held through weak references.

    One gradient array often appears several times in a backward pass (sent by one
    step, arriving at the next, stored as a leaf's ``.grad``); it is summarized once.
    Small arrays and NumPy scalars are not cached (cheap, and scalars have no weakref).
    """

    __slots__ = ("_entries", "exact", "last")

    def __init__(self, exact: bool = False):
        self._entries: dict = {}
        self.exact = exact
        # The entry (weak reference, summary) ``get`` found or made last: in a chain of ops the
        # gradient a backward step sent is the one the next step receives, which a caller can
        # check here without a call (``last[0]() is array``: then ``get`` would return ``last[1]``).
        self.last = None

    def get(self, array):
        if array.size <= SMALL:
            return record(array)
        key = id(array)
        entry = self._entries.get(key)
        if entry is not None and entry[0]() is array:
            self.last = entry
            return entry[1]
        summary = record(array, self.exact)
        try:
            self._entries[key] = self.last = (weakref.ref(array), summary)
        except TypeError:  # no weak references to this kind of array
            pass
        return summary

    def clear(self) -> None:
        self._entries.clear()
        self.last = None
