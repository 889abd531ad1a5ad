"""Is a change faster? The engine's small workloads timed for two versions of the code, in
fresh processes that take turns.

Run from the repository root:

    python benchmarks/compare_commits.py BASE            # a commit against the working tree
    python benchmarks/compare_commits.py BASE OTHER      # two commits
    python benchmarks/compare_commits.py BASE --rounds 8
    python benchmarks/compare_commits.py HEAD HEAD       # the same code twice: this hour's noise

``bench_engine.py``'s medians move by up to 0.15 in a ratio from one run to the next on a
shared machine, more than most single changes gain. Here each process times W1, W2, W2-nn,
W3 and W5 (``workloads.py``, as the current tree defines them; the step itself, not its
ratio to NumPy), and W2 and W3 each inside its own ``ag.trace()``, with the fastest of
several repeats (the garbage collector on, as in bench_engine.py), the versions alternate
process by process (which goes first changes every round), and the fastest process of
each version counts: a 2% change shows in a quiet hour. In a busy one the same commit
against itself moved by up to 4% (issue 13's ninth round): time ``HEAD HEAD`` first, and
repeat a comparison before believing it. A commit is checked out in a
temporary git worktree, removed after.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

BENCHMARKS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCHMARKS)

# Runs in a fresh process with the measured tree first on sys.path; the workloads are the
# current tree's, so both versions run the same code on top of ag_jupyter.
TIMER = r"""
import json, os, sys, timeit
sys.path[:0] = [sys.argv[1], sys.argv[2]]
# One BLAS thread, as bench_engine.py --threads 1: set before NumPy loads its BLAS, which
# reads these once (threadpoolctl, called before that, finds no BLAS to limit).
for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[name] = "1"
import ag_jupyter
from workloads import W1_CHAIN, W3_CHAIN, chain_contenders, micrograd_contenders, mlp_contenders
quick = sys.argv[3] == "quick"
small = {"batch": 8, "sizes": (16, 8, 8, 4)} if quick else {}
# each workload is made just before it is timed: what one leaves allocated moves the next's
# arrays, which alone moved W3 by 12% between two copies of the same code
makers = {"W1": (lambda: chain_contenders(*W1_CHAIN), 2000),
          "W2": (lambda: mlp_contenders(**small), 5),
          "W2-nn": (lambda: mlp_contenders(nn=True, **small), 5),
          "W3": (lambda: chain_contenders(100, 50) if quick else chain_contenders(*W3_CHAIN), 20),
          "W5": (lambda: micrograd_contenders(points=10 if quick else 100), 1000)}


def traced(make):  # each step inside its own trace, as bench_engine.py's tracing rows
    def make_traced():
        run = make()["ag_jupyter"]

        def run_traced():
            with ag_jupyter.trace():
                run()
        return {"ag_jupyter": run_traced}
    return make_traced


for name in ("W2", "W3"):
    makers[f"{name} traced"] = (traced(makers[name][0]), makers[name][1])
times = {}
for name, (make, number) in makers.items():
    run = make()["ag_jupyter"]
    number = 2 if quick else number
    run()
    # the collector on, as in a user's program and bench_engine.py (timeit turns it off): what
    # a trace keeps alive costs its collections (8-10% of a traced W3 step)
    times[name] = min(timeit.repeat(run, "gc.enable()", number=number, repeat=2 if quick else 9)) / number
    del run
try:
    from threadpoolctl import threadpool_info
    blas_threads = max((p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"), default=None)
except ImportError:
    blas_threads = None
print(json.dumps({"package": ag_jupyter.__file__, "seconds": times, "blas_threads": blas_threads}))
"""


def _time(tree: str, quick: bool) -> dict:
    done = subprocess.run([sys.executable, "-c", TIMER, tree, BENCHMARKS, "quick" if quick else "full"],
                          capture_output=True, text=True, cwd=tree, check=True)
    result = json.loads(done.stdout)
    if not result["package"].startswith(tree):  # an installed copy would time the same code twice
        raise RuntimeError(f"{tree} imported ag_jupyter from {result['package']}")
    if result["blas_threads"] not in (None, 1):
        raise RuntimeError(f"BLAS ran {result['blas_threads']} threads, not 1: the times would not compare")
    return result["seconds"]


def _worktree(rev: str, into: str, slot: str) -> str:
    path = os.path.join(into, slot + "-" + rev.replace("/", "_"))  # a commit against itself gets two
    subprocess.run(["git", "worktree", "add", "--detach", "--force", path, rev], cwd=ROOT, check=True,
                   capture_output=True)
    return path


def compare(base: str, other: str | None = None, rounds: int = 5, quick: bool = False) -> dict:
    """``{workload: (base seconds, other seconds)}``, each the fastest of ``rounds`` processes.
    The version timed first changes every round, so neither always runs after the other."""
    with tempfile.TemporaryDirectory() as scratch:
        trees = [_worktree(base, scratch, "base"), _worktree(other, scratch, "other") if other else ROOT]
        try:
            best: list = [{}, {}]
            for round_number in range(rounds):
                for side in ((0, 1) if round_number % 2 == 0 else (1, 0)):
                    for name, seconds in _time(trees[side], quick).items():
                        best[side][name] = min(best[side].get(name, seconds), seconds)
        finally:
            for tree in trees:
                if tree != ROOT:
                    subprocess.run(["git", "worktree", "remove", "--force", tree], cwd=ROOT,
                                   capture_output=True)
    first, second = best
    return {name: (first[name], second[name]) for name in first}


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="a commit (or anything git rev-parse takes)")
    parser.add_argument("other", nargs="?", help="another commit; the working tree if left out")
    parser.add_argument("--rounds", type=int, default=5, help="processes per version (default 5)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: checks the tool, not the speed")
    args = parser.parse_args(argv)
    results = compare(args.base, args.other, args.rounds, args.quick)
    units = {"W1": (1e6 / 20, "µs per op"), "W2": (1e3, "ms"), "W2-nn": (1e3, "ms"), "W3": (1e3, "ms"),
             "W5": (1e6, "µs"), "W2 traced": (1e3, "ms"), "W3 traced": (1e3, "ms")}
    print(f"{'workload':<12}{args.base:>14}{args.other or 'working tree':>16}{'change':>10}")
    for name, (before, after) in results.items():
        scale, unit = units[name]
        print(f"{name:<12}{before * scale:>14.3f}{after * scale:>16.3f}{100 * (after / before - 1):>+9.1f}%"
              f"  ({unit})")
    return results


if __name__ == "__main__":
    main()
