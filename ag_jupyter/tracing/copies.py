"""Where ``summary.Deferred`` keeps its copies: slices of large blocks that later traces reuse.

A copy is one memcpy, but the memory it lands in costs more. A trace of a 500-op chain
keeps about 4 MB of copies; when the trace is dropped, the C allocator hands those pages
back to the system, and the next trace faults them in again, page by page: about 4 µs
per 4 KiB page on the benchmark's machine, more than the copy and all the rest of
recording an op. So copies are packed into blocks (one dtype each), and a block none of
whose copies is left takes new ones, its pages still mapped.

Measured again in issue 13's ninth round: with plain ``array.copy()`` instead, a fresh
process tracing W3 step after step took 476 page faults a step (2.6 with blocks) and was
up to 1.7x slower. Only a fresh process shows it: once a large array (W2's batch) has
been freed, glibc raises its trim threshold and keeps the pages, so an A/B test of the
two inside one process that also ran W2 saw no faults and called plain copies faster.

Which blocks are unused is told by their reference counts: a NumPy slice (and a reshape
of one) refers to the array that owns the memory, and nothing but ``CopyBlocks`` refers
to a block otherwise. So a block is reused only once every copy in it is gone, whoever
held it: a trace that is kept keeps its values.
"""
from __future__ import annotations

from sys import getrefcount

import numpy


def _references(block) -> int:
    return getrefcount(block)


def _references_of_an_unused_block() -> int:
    for block in [numpy.empty(0)]:  # held as ``CopyBlocks`` holds its blocks: a list, a loop
        return _references(block)


_UNUSED = _references_of_an_unused_block()


class CopyBlocks:
    """Copies of arrays of at most ``largest`` entries, packed into reusable blocks."""

    BLOCK_BYTES = 1 << 18  # 64 copies of 1,000 float32 entries
    REMEMBERED = 16  # blocks per dtype kept for reuse: at most 4 MiB each once no trace needs them

    def __init__(self, largest: int):
        self.largest = largest
        self._blocks: dict = {}  # dtype -> the blocks remembered for reuse, the current one included
        self._current: dict = {}  # dtype -> [block, index of its first free entry, its size]

    def copy(self, array):
        """A copy of ``array`` (a NumPy array of at most ``largest`` entries) that nothing
        else writes to."""
        kept = self._slot(array.dtype, array.size)
        if array.ndim != 1:
            kept = kept.reshape(array.shape)
        kept[...] = array
        return kept

    def taken(self, flat, index):
        """``flat.take(index)`` (``index``: at most ``largest`` valid positions in the 1-D
        array ``flat``), in a block like a copy."""
        kept = self._slot(flat.dtype, index.size).reshape(index.shape)
        flat.take(index, out=kept, mode="clip")  # "clip": unbuffered; every index is valid
        return kept

    def _slot(self, dtype, size: int):
        """``size`` unused entries of the current block for ``dtype`` (a new one when full)."""
        current = self._current.get(dtype)
        if current is None or current[1] + size > current[2]:
            block = self._unused_block(dtype, current)
            current = self._current[dtype] = [block, 0, block.shape[0]]
        start = current[1]
        current[1] = start + size
        return current[0][start:start + size]

    def _unused_block(self, dtype, current):
        blocks = self._blocks.setdefault(dtype, [])
        full = current[0] if current is not None else None
        for block in blocks:
            if block is not full and _references(block) == _UNUSED:
                return block
        block = numpy.empty(max(self.BLOCK_BYTES // dtype.itemsize, self.largest), dtype)
        if len(blocks) == self.REMEMBERED:  # forget the oldest (it lives on while its copies do)
            del blocks[0]
        blocks.append(block)
        return block
