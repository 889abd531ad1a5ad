"""Which line of the user's code made a node.

The call stack under a traced op runs through ag_jupyter's own frames (the op,
``Tensor.__mul__``, ``nn.Module.__call__``...); the first frame outside the
package is the user's. Whether a file belongs to the package is decided once and
cached by its name (a string keeps its hash; a code object computes its own from
its contents on every look-up), so the walk costs a few dictionary look-ups per op.

A line is recorded as ``(code object, instruction offset)``, and made into a file,
a line number and a function name when the records are written out (``as_json``,
once per line through a ``LineTable``): a frame's ``f_lineno`` scans its function's
line table, which in a long notebook cell costs microseconds per op.
"""
from __future__ import annotations

import linecache
import os
import sys

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_inside: dict = {}  # file name of a code object -> whether it is ag_jupyter's own


def _is_inside(code) -> bool:
    inside = _inside.get(code.co_filename)
    if inside is None:
        inside = _inside[code.co_filename] = os.path.abspath(code.co_filename).startswith(_PACKAGE)
    return inside


def user_line(depth: int = 2) -> tuple | None:
    """``(code, offset)`` of the nearest caller outside ag_jupyter, or None.
    ``depth`` frames up from the caller are skipped unseen (they are known to be ours)."""
    try:
        frame = sys._getframe(depth)
    except ValueError:
        return None
    inside = _inside
    while frame is not None:
        code = frame.f_code
        flag = inside.get(code.co_filename)
        if flag is None:
            flag = _is_inside(code)
        if not flag:
            return (code, frame.f_lasti)
        frame = frame.f_back
    return None


def traceback_line(tb) -> tuple | None:
    """The innermost user frame of a traceback (where the user's code raised)."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if not _is_inside(code):
            found = (code, tb.tb_lasti)
        tb = tb.tb_next
    return found


def _lineno(code, offset: int) -> int | None:
    """The line of the instruction at ``offset`` (what ``f_lineno`` says of a frame there)."""
    for start, end, lineno in code.co_lines():
        if start <= offset < end:
            return lineno
    return None


def as_json(line: tuple | None) -> dict | None:
    """The document's form of a line: file, line number, function, the instruction's
    bytecode offset (``f_lasti``) and the source text."""
    if line is None:
        return None
    code, offset = line
    file, lineno = code.co_filename, _lineno(code, offset)
    # The offset tells two ops of one line apart (`x * x + 3 * x`) and the same
    # instruction running again (a loop): a repeat is the second, never the first.
    entry = {"file": file, "lineno": lineno, "function": code.co_name, "offset": offset}
    text = linecache.getline(file, lineno).strip() if lineno is not None else ""
    if text:
        entry["code"] = text
    return entry


class LineTable:
    """``as_json`` of each line met, made once and shared by every record of that line.

    Keyed by the code object's identity: a code object hashes its contents on every look-up
    (nested functions' code included), 13 us for a long cell's. The table keeps each code
    object it has seen, so an identity cannot be reused while its entry stands."""

    __slots__ = ("_made",)

    def __init__(self):
        self._made: dict = {}  # (id(code), offset) -> (code, the line's dict)

    def json(self, line: tuple | None) -> dict | None:
        if line is None:
            return None
        made = self._made.get((id(line[0]), line[1]))
        if made is None:
            made = self._made[(id(line[0]), line[1])] = (line[0], as_json(line))
        return made[1]
