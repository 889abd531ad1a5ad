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

    __slots__ = ("_entries", "exact")

    def __init__(self, exact: bool = False):
        self._entries: dict = {}
        self.exact = exact

    def get(self, array):
        if array.size <= SMALL:
            return record(array)
        key = id(array)
        entry = self._entries.get(key)
        if entry is not None and entry[0]() is array:
            return entry[1]
        summary = record(array, self.exact)
        try:
            self._entries[key] = (weakref.ref(array), summary)
        except TypeError:  # no weak references to this kind of array
            pass
        return summary

    def clear(self) -> None:
        self._entries.clear()
