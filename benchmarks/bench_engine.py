"""Engine speed, side by side with hand-written NumPy and PyTorch CPU in one process.

Run from the repository root:  python benchmarks/bench_engine.py [--quick] [--threads N]

W1     per-op overhead: 20 elementwise ops on a 4-element tensor, forward+backward (µs per op)
W2     MLP train step: batch 256, 784-256-128-10, relu, log_softmax + NLL (mean), SGD, written
       with tensors (``x @ w + b``, ``log_softmax``, indexing, ``mean``); the NumPy reference
       computes the same log_softmax and NLL forward and their backward by hand
W2-nn  the same step with ``nn.Linear``, ``F.cross_entropy`` and ``optim.SGD``, against the
       same NumPy step with the weights stored as nn.Linear stores them, (out, in), so it
       multiplies as nn.Linear does (``x @ W.T``; ~7% slower in OpenBLAS for the first
       layer than W2's ``x @ w``, in every library)
W3     500 elementwise ops on 1,000 elements, forward+backward
W4     1024x1024 matmul, forward+backward
W5     micrograd's demo MLP 2-16-16-1 with tanh, on 100 "moons" points: one training step
       (forward, the demo's max-margin loss ``mean(relu(1 - y*score))`` without its L2 term,
       backward, SGD). micrograd works one scalar at a time; here the 100 points are one
       batch of tensors, so this measures a small model's per-op cost, not scalar autograd.
Tracing: W2 and W3 each inside its own ``ag.trace()`` against the same step untraced.

W1, W3 and W5 also time "Python floor" (``floor.py``): the same graph and backward order as
ag_jupyter's engine with none of its features, what any autograd written in Python costs.
The tracing tables time "floor tracer" (``floor_tracer.py``) too: what any tracer that
keeps every value costs.

Every contender of a table runs in turn within each repeat (a slow spell of the machine
hits all alike); figures are medians. The last table gathers the ratios of the issue's
targets, each the median of the per-repeat ratios (both timed side by side) with a 95%
interval for it, and says "met" or "NOT met" only when the whole interval is on one side
of the target (a verdict read off one median flipped from run to run). The interval is
this run's; the machine's hour moves a ratio more (up to 0.15 between runs): a target is
met when runs at different hours say so, and ``compare_commits.py`` compares two versions.
Workloads are in ``workloads.py``.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys

# PyTorch's OpenMP threads spin for a while after each op; a contender timed right after
# PyTorch then competes with them for the cores (on 2 cores NumPy's matmuls ran 2x slower).
# Passive waiting hands the cores back at once. Set before PyTorch is imported.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from floor_tracer import floor_traced  # noqa: E402
from timing import measure_repeats, optional_torch, paired_ratio, table, verdict  # noqa: E402
from workloads import W1_CHAIN, W3_CHAIN, chain_contenders, matmul_contenders, micrograd_contenders, mlp_contenders  # noqa: E402

import ag_jupyter as ag  # noqa: E402

# (row, target ratio): the ratios the issue sets, all ag_jupyter over the named reference
TARGETS = {
    "W1 per op / NumPy": 3.0,
    "W2 MLP step / NumPy": 1.05,
    "W2-nn MLP step / NumPy": 1.05,
    "W3 500-op chain / NumPy": 2.0,
    "W5 micrograd MLP / NumPy": 2.0,
    "tracing on / off, W2": 1.15,
    "tracing on / off, W3": 2.0,
}


def blas_description() -> str:
    """Which BLAS NumPy calls and with how many threads (threadpoolctl if installed)."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        threadpool_info = None
    if threadpool_info is not None:
        pools = [p for p in threadpool_info() if p.get("user_api") == "blas"]
        if pools:
            return "; ".join(f"{p['internal_api']} {p.get('version')} ({p.get('architecture', '?')}), "
                             f"{p['num_threads']} threads" for p in pools)
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        name = f"{blas.get('name')} {blas.get('version')}"
    except Exception:  # noqa: BLE001 - older NumPy: no dict form
        name = "unknown (see numpy.show_config())"
    threads = os.environ.get("OPENBLAS_NUM_THREADS") or os.environ.get("OMP_NUM_THREADS") or "default"
    return f"{name}, threads: {threads}"


def limit_threads(threads: int | None, torch) -> None:
    """``--threads N``: NumPy's BLAS and PyTorch both use N threads for the whole run."""
    if threads is None:
        return
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        sys.exit("--threads needs threadpoolctl (pip install threadpoolctl)")
    threadpool_limits(limits=threads)
    if torch is not None:
        torch.set_num_threads(threads)


def traced(run):
    def run_traced():
        with ag.trace():
            run()
    return run_traced


def start(description: str, argv=None):
    """A benchmark's ``--quick``/``--threads`` arguments, its threads set and the versions
    printed: ``(arguments, torch or None, repeats)``, shared by bench_engine and bench_cnn."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run, not for reporting)")
    parser.add_argument("--threads", type=int, help="BLAS and PyTorch threads (default: theirs)")
    args = parser.parse_args(argv)
    torch = optional_torch()
    limit_threads(args.threads, torch)
    repeats = 5 if args.quick else 21
    print(f"ag_jupyter {ag.__version__}, NumPy {np.__version__}, Python {sys.version.split()[0]}, "
          f"PyTorch {torch.__version__ if torch else 'not installed'}; {os.cpu_count()} cores; "
          f"medians of {repeats} interleaved repeats")
    print(f"NumPy BLAS: {blas_description()}")
    if torch is not None:
        print(f"PyTorch threads: {torch.get_num_threads()}")
    return args, torch, repeats


def main(argv=None) -> dict:
    args, torch, repeats = start(__doc__, argv)
    ratios = {}  # target row -> (median, low, high) of the per-repeat ratios

    def run(title, contenders, times, reference="raw NumPy", **options):
        samples = measure_repeats(contenders, repeats=repeats, number=times)
        print(table(title, {name: statistics.median(values) for name, values in samples.items()},
                    reference=reference, **options))
        return samples

    m = run("W1  20 elementwise ops on 4 elements, forward+backward", chain_contenders(*W1_CHAIN, torch), 200,
            unit="µs/op", scale=1e6, per=20, target="ag_jupyter <= 3x raw NumPy")
    ratios["W1 per op / NumPy"] = paired_ratio(m, "ag_jupyter", "raw NumPy")
    w2 = mlp_contenders(torch=torch)
    m = run("W2  MLP train step (256x784 -> 256 -> 128 -> 10), log_softmax + NLL", w2, 3,
            target="ag_jupyter <= 1.05x raw NumPy")
    ratios["W2 MLP step / NumPy"] = paired_ratio(m, "ag_jupyter", "raw NumPy")
    m = run("W2-nn  the same step with nn.Linear, F.cross_entropy, optim.SGD",
            mlp_contenders(torch=torch, nn=True), 3, target="ag_jupyter <= 1.05x raw NumPy")
    ratios["W2-nn MLP step / NumPy"] = paired_ratio(m, "ag_jupyter", "raw NumPy")
    w3 = chain_contenders(*W3_CHAIN, torch)
    m = run("W3  500 elementwise ops on 1,000 elements, forward+backward", w3, 3,
            target="ag_jupyter <= 2x raw NumPy")
    ratios["W3 500-op chain / NumPy"] = paired_ratio(m, "ag_jupyter", "raw NumPy")
    run("W4  1024x1024 matmul, forward+backward", matmul_contenders(torch=torch), 1,
        target="ag_jupyter <= 1.05x raw NumPy")
    m = run("W5  micrograd's 2-16-16-1 tanh MLP, 100 points as one batch, train step",
            micrograd_contenders(torch=torch), 20, target="ag_jupyter <= 2x raw NumPy")
    ratios["W5 micrograd MLP / NumPy"] = paired_ratio(m, "ag_jupyter", "raw NumPy")
    for name, workload, times in (("W2", w2, 3), ("W3", w3, 3)):
        m = run(f"Tracing, {name}: each step inside its own ag.trace()",
                {"off": workload["ag_jupyter"], "traced": traced(workload["ag_jupyter"]),
                 "floor tracer": floor_traced(workload["ag_jupyter"])}, times,
                reference="off", target=f"traced <= {TARGETS[f'tracing on / off, {name}']}x off")
        ratios[f"tracing on / off, {name}"] = paired_ratio(m, "traced", "off")

    print(f"\nThe targets: the median of the {repeats} per-repeat ratios (each repeat times both side by "
          f"side)\nand a 95% interval for it; \"within noise\" when the interval holds the target.")
    print(f"{'target (ag_jupyter)':<28}{'ratio':>8}{'95% interval':>16}{'target':>9}")
    for row, (ratio, low, high) in ratios.items():
        interval = f"{low:.2f}-{high:.2f}"
        print(f"{row:<28}{ratio:>8.2f}{interval:>16}{'<= ' + format(TARGETS[row], 'g'):>9}  "
              f"{verdict(low, high, TARGETS[row])}")
    return {row: ratio for row, (ratio, _low, _high) in ratios.items()}


if __name__ == "__main__":
    main()
