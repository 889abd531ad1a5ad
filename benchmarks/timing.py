"""Shared timing: interleaved repeats, medians, and a ratio table."""
from __future__ import annotations

import math
import statistics
import time
from typing import Callable


def measure_repeats(contenders: dict[str, Callable[[], None]], *, repeats: int = 15, number: int = 1,
                    warmup: int = 3) -> dict[str, list[float]]:
    """Seconds per call of each contender in each repeat, in repeat order. Contenders take
    turns within each repeat, so a slow spell of the machine hits all of them alike; the
    turn order rotates, so whatever one leaves behind (a thread pool still spinning, a cold
    cache) does not always fall on the same next one. The i-th samples of two contenders
    were taken side by side: their ratio is a paired measurement (``paired_ratio``)."""
    for run in contenders.values():
        for _ in range(warmup):
            run()
    samples: dict[str, list[float]] = {name: [] for name in contenders}
    names = list(contenders)
    for repeat in range(repeats):
        shift = repeat % len(names)
        for name in names[shift:] + names[:shift]:
            run = contenders[name]
            start = time.perf_counter()
            for _ in range(number):
                run()
            samples[name].append((time.perf_counter() - start) / number)
    return samples


def measure(contenders: dict[str, Callable[[], None]], *, repeats: int = 15, number: int = 1,
            warmup: int = 3) -> dict[str, float]:
    """Median seconds per call of each contender (see ``measure_repeats``)."""
    samples = measure_repeats(contenders, repeats=repeats, number=number, warmup=warmup)
    return {name: statistics.median(values) for name, values in samples.items()}


def median_interval(values: list[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """``(median, low, high)``: the median of ``values`` and a distribution-free interval that
    holds the true median with at least ``confidence`` (the sign test's order statistics:
    the k-th smallest and k-th largest value, k the largest rank with P(Binomial(n, 1/2) < k)
    <= (1 - confidence) / 2). Too few values for that (fewer than 6 at 95%) give the whole
    range, whose confidence is then lower."""
    ordered = sorted(values)
    n = len(ordered)
    tail = (1 - confidence) / 2
    below, k = 0.0, 0  # below: P(Binomial(n, 1/2) < k + 1)
    while k < n // 2:
        below += math.comb(n, k) / 2 ** n
        if below > tail:
            break
        k += 1
    k = max(k, 1)
    return statistics.median(ordered), ordered[k - 1], ordered[n - k]


def paired_ratio(samples: dict[str, list[float]], name: str, reference: str) -> tuple[float, float, float]:
    """``median_interval`` of ``name``'s time over ``reference``'s, repeat by repeat: each
    ratio compares two runs taken side by side, so the machine's slow spells cancel out of it."""
    return median_interval([a / b for a, b in zip(samples[name], samples[reference])])


def verdict(low: float, high: float, target: float) -> str:
    """``met`` when the whole interval is at or under the target, ``NOT met`` when it is all
    above, and ``within noise`` when this run cannot tell."""
    if high <= target:
        return "met"
    if low > target:
        return "NOT met"
    return "within noise"


def table(title: str, medians: dict[str, float], *, unit: str = "ms", scale: float = 1e3,
          per: float = 1.0, reference: str | None = None, target: str = "") -> str:
    reference = reference or next(iter(medians))
    lines = [f"\n{title}", f"{'implementation':<28}{'median ' + unit:>14}{'ratio vs ' + reference:>22}"]
    for name, seconds in medians.items():
        ratio = seconds / medians[reference]
        lines.append(f"{name:<28}{seconds * scale / per:>14.3f}{ratio:>22.2f}")
    if target:
        lines.append(f"target: {target}")
    return "\n".join(lines)


def optional_torch():
    try:
        import torch
    except ImportError:
        return None
    return torch
