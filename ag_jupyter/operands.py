"""A Python number beside a float array, as the 0-d array NumPy would make of it.

NumPy spends ~0.3 us per ufunc call promoting a Python number (a "weak scalar") to the
array's dtype; a 0-d array of that dtype gives the same result, element for element, in
half the time. ``y * 0.5``, ``y + 1`` and ``lr * p.grad`` meet the same few numbers again
and again, so each is converted once and kept.
"""
from __future__ import annotations

import numpy

_ndarray = numpy.ndarray
INT_OR_FLOAT = {int, float}  # not bool, which promotes as a bool
_converted: dict = {}  # number -> 0-d array of the dtype it was last converted to
_LIMIT = 1024  # a loop over many numbers (a schedule, ``x * i``) must not grow this forever


def operand(number, like):
    """``number`` for a ufunc beside the NumPy float array ``like``: a 0-d array of its
    dtype. Anything else (a tensor's array, a bool, a number that could come out
    otherwise than by NumPy's own promotion) is given back as it is."""
    if number.__class__ not in INT_OR_FLOAT or like.__class__ is not _ndarray or not number or \
            number != number:
        # CuPy and NumPy scalars take numbers as they are. 0.0 and -0.0 would share a key
        # (they are equal), and NaN would never be found (it equals nothing).
        return number
    converted = _converted.get(number)
    if converted is not None and converted.dtype is like.dtype:
        return converted
    try:
        with numpy.errstate(all="ignore"):  # an overflow is left to NumPy, which warns each time
            converted = numpy.array(number, like.dtype)
    except OverflowError:  # an int past any float: NumPy's own error, from the op itself
        return number
    if not numpy.isfinite(converted):
        return number
    converted.flags.writeable = False  # shared by every op that meets this number
    if len(_converted) >= _LIMIT:
        _converted.clear()
    _converted[number] = converted
    return converted
