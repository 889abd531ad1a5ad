"""W2-nn: one MLP training step (batch 256, 784-256-128-10, ReLU, cross-entropy, SGD),
written with ``nn.Linear``, ``F.cross_entropy`` and ``optim.SGD``, timed against the same
model in PyTorch (CPU) in the same process.

Run from the repository root::

    python -m benchmarks.bench_nn            # or: python benchmarks/bench_nn.py
    python -m benchmarks.bench_nn --steps 50 --repeats 7

Each round times ``--steps`` consecutive steps; contenders alternate rounds so
that all see the same machine load, and the table gives the median and the best
round of ``--repeats`` (the best is the least disturbed by other processes).
PyTorch runs twice: with its default thread count and with one thread;
ag_jupyter likewise, with NumPy's BLAS at its default thread count and limited
to one thread (through threadpoolctl, when installed). On a machine whose cores
are shared, the one-thread ratio compares the engines; the default one also
compares the two thread pools.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

# PyTorch's OpenMP threads spin after each op and slow the contender timed next (as in
# bench_engine.py); passive waiting hands the cores back. Set before PyTorch is imported.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy  # noqa: E402

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import ag_jupyter as ag  # noqa: E402
import ag_jupyter.nn.functional as F  # noqa: E402

SIZES = (784, 256, 128, 10)
BATCH = 256


def make_data(seed: int = 0):
    rng = numpy.random.default_rng(seed)
    x = rng.standard_normal((BATCH, SIZES[0])).astype(numpy.float32)
    y = rng.integers(0, SIZES[-1], BATCH)
    return x, y


def ag_step_fn(x, y):
    ag.manual_seed(0)
    model = ag.nn.Sequential(ag.nn.Linear(784, 256), ag.nn.ReLU(), ag.nn.Linear(256, 128),
                             ag.nn.ReLU(), ag.nn.Linear(128, 10))
    opt = ag.optim.SGD(model.parameters(), lr=0.01)
    inputs, targets = ag.from_numpy(x), ag.from_numpy(y)

    def step():
        opt.zero_grad()
        loss = F.cross_entropy(model(inputs), targets)
        loss.backward()
        opt.step()
        return loss

    return step, model


def torch_step_fn(torch, x, y, model_state):
    model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 128),
                                torch.nn.ReLU(), torch.nn.Linear(128, 10))
    model.load_state_dict({k: torch.from_numpy(v.numpy().copy()) for k, v in model_state.items()})
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    inputs, targets = torch.from_numpy(x), torch.from_numpy(y)

    def step():
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(inputs), targets)
        loss.backward()
        opt.step()
        return loss

    return step


def time_round(step, steps: int, setup=None) -> float:
    """Mean seconds per step over ``steps`` steps; ``setup()`` runs first and returns
    the function that undoes it (a thread-count change stays outside the timing)."""
    undo = setup() if setup is not None else None
    try:
        start = time.perf_counter()
        for _ in range(steps):
            step()
        return (time.perf_counter() - start) / steps
    finally:
        if undo is not None:
            undo()


def measure(contenders: dict, steps: int, repeats: int) -> dict:
    """``contenders``: name -> (step, setup or None). Rounds alternate between them."""
    for step, setup in contenders.values():  # warm up: caches, BLAS threads, allocator
        time_round(step, 3, setup)
    rounds: dict = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, (step, setup) in contenders.items():
            rounds[name].append(time_round(step, steps, setup))
    return {name: (statistics.median(times), min(times)) for name, times in rounds.items()}


def _blas_one_thread():
    """Limit NumPy's BLAS to one thread for a round (needs threadpoolctl); None if unavailable."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return None

    def setup():
        limiter = threadpool_limits(limits=1, user_api="blas")
        return limiter.restore_original_limits

    return setup


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10, help="steps per round")
    parser.add_argument("--repeats", type=int, default=25, help="rounds (median and best reported)")
    args = parser.parse_args(argv)
    x, y = make_data()
    ag_step, model = ag_step_fn(x, y)
    contenders = {"ag_jupyter (default)": (ag_step, None)}
    one_blas_thread = _blas_one_thread()
    if one_blas_thread is not None:
        contenders["ag_jupyter (1 thread)"] = (ag_step, one_blas_thread)
    try:
        import torch
    except ImportError:
        torch = None
        print("torch is not installed: timing ag_jupyter alone")
    if torch is not None:
        threads = torch.get_num_threads()
        torch_step = torch_step_fn(torch, x, y, model.state_dict())

        def one_thread():
            torch.set_num_threads(1)
            return lambda: torch.set_num_threads(threads)

        contenders["torch (default)"] = (torch_step, None)
        contenders["torch (1 thread)"] = (torch_step, one_thread)
    medians = measure(contenders, args.steps, args.repeats)
    print(f"W2-nn: MLP train step, batch {BATCH}, {'-'.join(map(str, SIZES))}, ReLU, "
          f"F.cross_entropy, optim.SGD, float32, CPU ({os.cpu_count()} cores"
          + (f", torch default {threads} threads)" if torch is not None else ")"))
    print(f"{'engine':<24}{'median ms/step':>16}{'best ms/step':>14}")
    for name, (median, best) in medians.items():
        print(f"{name:<24}{median * 1e3:>16.3f}{best * 1e3:>14.3f}")
    for kind in ("default", "1 thread"):
        ours, theirs = medians.get(f"ag_jupyter ({kind})"), medians.get(f"torch ({kind})")
        if ours and theirs:
            print(f"ratio ag_jupyter / torch, {kind:<9} median {ours[0] / theirs[0]:.2f}x, "
                  f"best {ours[1] / theirs[1]:.2f}x   (target <= 1.10x)")
    return medians


if __name__ == "__main__":
    main()
