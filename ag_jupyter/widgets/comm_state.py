"""Sending the trace document to the front end without walking it twice in Python.

Before a widget's state goes out, ipywidgets looks through it for binary buffers
(``_remove_buffers``): a walk in Python over every dict and list, which on a
10,000-node document (about 100,000 dicts and lists) took 0.3 s, as long again as
encoding it. A document never holds a buffer, so that walk finds nothing. While the
state is sent (``open`` and ``send_state``), the document's top-level lists go out as
``PassedList``: an iterable that is no list, which the walk passes by, and which the
kernel's JSON packer (``jupyter_client.session.json_packer``, whose ``default`` makes an
iterable a list) writes as the list it holds. The message is the same JSON, byte for
byte; ``get_state()`` outside a send (``ipywidgets.embed``) still gives plain lists.
"""
from __future__ import annotations

from .wire_values import packed


class PassedList:
    """A list's items, iterated: JSON-encoded through ``default`` as a list, never walked."""

    __slots__ = ("items",)

    def __init__(self, items: list):
        self.items = items

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def document_to_json(document: dict, widget) -> dict:
    """The ``to_json`` of the ``trace`` trait: its lists passed by while a send is under way."""
    if not getattr(widget, "_sending", False):
        return document
    return {key: PassedList(value) if value.__class__ is list else value for key, value in packed(document).items()}


class SentWithoutBufferSearch:
    """Mixed into the widget before ipywidgets' ``Widget``: its sends pass the document by."""

    _sending = False

    def open(self):
        self._sending = True
        try:
            super().open()
        finally:
            self._sending = False

    def send_state(self, key=None):
        self._sending = True
        try:
            super().send_state(key)
        finally:
            self._sending = False
