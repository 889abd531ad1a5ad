"""Shared timing: interleaved repeats, medians, and a ratio table."""
from __future__ import annotations

import statistics
import time
from typing import Callable


def measure(contenders: dict[str, Callable[[], None]], *, repeats: int = 15, number: int = 1,
            warmup: int = 3) -> dict[str, float]:
    """Median seconds per call of each contender. Contenders take turns within each
    repeat, so a slow spell of the machine hits all of them alike; the turn order
    rotates, so whatever one leaves behind (a thread pool still spinning, a cold
    cache) does not always fall on the same next one."""
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
    return {name: statistics.median(values) for name, values in samples.items()}


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
