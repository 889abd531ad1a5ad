"""Index checks the GPU runs without stopping its queue.

CuPy wraps an out-of-range integer index around where NumPy and PyTorch raise, and would
hand back a wrong number. Checking on the host needs the index's minimum and maximum
there: a device synchronize per indexing op, which stalled a training step's queue. So on
the GPU one kernel per index array marks a slot of a small table in device memory when an
entry is out of range (the kernel is queued like any other; nothing waits for it), and the
table is read, in one transfer, when a value next comes back to the host
(``Tensor.item()``, ``.tolist()``, ``.cpu()``, printing, ``ag.cuda.synchronize()``) or when
its slots run out. The first failed check raises its ``IndexError`` there, as PyTorch's
CUDA device-side assert surfaces at the next synchronize: a wrong number is never read.

No CuPy import here: the caller hands over its array module (``backend`` decides which).
"""
from __future__ import annotations

SLOTS = 64  # checks queued before the table is read anyway (one wait per 64 indexing ops)
_LATE = ("(found by the GPU's check of an indexing op that ran earlier: as with PyTorch on CUDA, "
         "an index error on the GPU is reported when a value is next read)")

pending = False  # True while some table holds unread checks: the one test a read pays on the CPU
_tables: dict = {}  # device id -> _Table
_kernel = None


class _Table:
    __slots__ = ("xp", "device_id", "found", "messages")

    def __init__(self, xp, device_id: int):
        self.xp, self.device_id = xp, device_id
        with xp.cuda.Device(device_id):
            self.found = xp.zeros(2 * SLOTS, dtype=xp.int64)  # per slot: (tripped, a bad value)
        self.messages: list = []  # per used slot: the error, "{}" standing for the bad value


def _check_kernel(xp):
    global _kernel
    if _kernel is None:
        _kernel = xp.ElementwiseKernel(
            "T value, int64 low, int64 high, bool skips, int64 skipped, int64 slot",
            "raw int64 found",
            """
            const long long v = (long long)value;
            if ((v < low || v > high) && !(skips && v == skipped)) {
                found[2 * slot] = 1;
                found[2 * slot + 1] = v;
            }
            """,
            "ag_deferred_bounds_check")
    return _kernel


def defer(xp, values, low: int, high: int, message: str, skipped: int | None = None) -> None:
    """Queue the check that every entry of the CuPy array ``values`` lies in ``[low, high]``
    (an entry equal to ``skipped`` passes: an ignored target). ``message`` is the
    ``IndexError``'s text with ``{}`` for the bad value."""
    global pending
    if values.size == 0:
        return
    device_id = values.device.id
    table = _tables.get(device_id)
    if table is None:
        table = _tables[device_id] = _Table(xp, device_id)
    elif len(table.messages) == SLOTS:
        _read(table)
    slot = len(table.messages)
    table.messages.append(message)
    pending = True
    _check_kernel(xp)(values, low, high, skipped is not None, 0 if skipped is None else skipped, slot,
                      table.found)


def raise_pending() -> None:
    """Read every table (one transfer each) and raise the first failed check, if any."""
    global pending
    if not pending:
        return
    try:
        for table in _tables.values():
            if table.messages:
                _read(table)
    finally:  # a raise leaves another device's table, if any, for the next read
        pending = any(table.messages for table in _tables.values())


def _read(table: _Table) -> None:
    used = len(table.messages)
    messages, table.messages = table.messages, []
    with table.xp.cuda.Device(table.device_id):
        flags = table.found[:2 * used].get()
        tripped = flags[0::2].nonzero()[0]
        if not tripped.size:
            return
        table.found[:2 * used] = 0  # cleared before raising: the next read starts clean
    first = int(tripped[0])
    raise IndexError(f"{messages[first].format(int(flags[2 * first + 1]))} {_LATE}")
