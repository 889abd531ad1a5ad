"""Compare what two runs of one program printed: every number, and the words between them.

A program of the differential corpus prints its results as a learner's notebook would; the
PyTorch run and the engine's run must print the same numbers (to float32's tolerances) in
the same places, with the same words around them (``torch.`` and ``ag.`` are the same word).
"""
from __future__ import annotations

import math
import re

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?\b(?:nan|inf)\b")


def numbers_and_words(text: str) -> tuple[list[float], list[str]]:
    text = text.replace("ag.", "torch.").replace("ag_jupyter", "torch")
    numbers = [float(match) for match in NUMBER.findall(text)]
    words = [" ".join(part.split()) for part in NUMBER.split(text)]
    return numbers, [word for word in words if word]


def differences(expected: str, got: str, rtol: float, atol: float) -> list[str]:
    """What differs between PyTorch's output and the engine's, as lines a reader can act on."""
    want_numbers, want_words = numbers_and_words(expected)
    got_numbers, got_words = numbers_and_words(got)
    problems = []
    if want_words != got_words:
        for index, (want, have) in enumerate(zip(want_words, got_words)):
            if want != have:
                problems.append(f"text {index}: PyTorch printed {want!r}, the engine {have!r}")
                break
        if len(want_words) != len(got_words):
            problems.append(f"PyTorch printed {len(want_words)} pieces of text, the engine {len(got_words)}")
    if len(want_numbers) != len(got_numbers):
        problems.append(f"PyTorch printed {len(want_numbers)} numbers, the engine {len(got_numbers)}")
    for index, (want, have) in enumerate(zip(want_numbers, got_numbers)):
        same = (math.isnan(want) and math.isnan(have)) or math.isclose(want, have, rel_tol=rtol, abs_tol=atol)
        if not same:
            problems.append(f"number {index}: PyTorch {want!r}, the engine {have!r}")
    return problems
