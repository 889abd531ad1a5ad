"""The engine on CuPy, side by side with raw CuPy (a hand-written backward) and, where its
CUDA build is installed, PyTorch on the same GPU, in one process.

Run from the repository root on a machine with an NVIDIA GPU and CuPy:

    python benchmarks/bench_gpu.py [--quick]

The workloads are the engine benchmark's (``workloads.py``), placed on the GPU:
G1  per-op overhead: 20 elementwise ops on a 4-element tensor, forward+backward (µs per op)
G2  MLP train step, batch 4096, 784-256-128-10, relu, log_softmax + NLL, SGD
    (as tensor ops, and as nn.Linear + F.cross_entropy + optim.SGD)
G4  4096x4096 matmul, forward+backward

Every contender ends with a device synchronize, so a median is the time the GPU took,
not the time to queue the work. Targets (issue 13): G2 and G4 <= 1.1x raw CuPy.
Without a usable GPU the script says so and exits 0 (CI has none).
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from timing import measure, optional_torch, table  # noqa: E402
from workloads import W1_CHAIN, Place, chain_contenders, matmul_contenders, mlp_contenders  # noqa: E402

import ag_jupyter as ag  # noqa: E402


def torch_cuda():
    torch = optional_torch()
    return torch if torch is not None and torch.cuda.is_available() else None


def synced(run, sync):
    def timed():
        run()
        sync()
    return timed


def mlp_both(torch, place: Place, batch: int) -> dict:
    """G2: the tensor-op step and the nn step, against one raw CuPy step."""
    contenders = mlp_contenders(torch=torch, place=place, batch=batch)
    contenders["ag_jupyter nn"] = mlp_contenders(place=place, nn=True, batch=batch)["ag_jupyter"]
    return contenders


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes, few repeats (a smoke run)")
    args = parser.parse_args(argv)
    if not ag.cuda.is_available():
        print("bench_gpu: no usable GPU with CuPy here; nothing measured.")
        return
    import cupy as cp  # noqa: PLC0415 - only with a GPU

    torch = torch_cuda()
    sync = cp.cuda.Stream.null.synchronize
    if torch is not None:
        def sync():
            cp.cuda.Stream.null.synchronize()
            torch.cuda.synchronize()
    repeats, batch, n = (3, 256, 256) if args.quick else (21, 4096, 4096)
    name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"{name}; ag_jupyter {ag.__version__}, CuPy {cp.__version__}, "
          f"PyTorch {torch.__version__ if torch else 'without CUDA / not installed'}; "
          f"medians of {repeats} interleaved repeats, each ending in a device synchronize")

    def run(contenders, number):
        return measure({k: synced(v, sync) for k, v in contenders.items()}, repeats=repeats, number=number)

    place = Place("cuda", cp)
    print(table("G1  20 elementwise ops on 4 elements, forward+backward",
                run(chain_contenders(*W1_CHAIN, torch, place), 50), unit="µs/op", scale=1e6, per=20,
                reference=place.raw))
    print(table(f"G2  MLP train step ({batch}x784 -> 256 -> 128 -> 10)", run(mlp_both(torch, place, batch), 5),
                reference=place.raw, target="ag_jupyter <= 1.1x raw CuPy"))
    print(table(f"G4  {n}x{n} matmul, forward+backward", run(matmul_contenders(n, torch, place), 3),
                reference=place.raw, target="ag_jupyter <= 1.1x raw CuPy"))


if __name__ == "__main__":
    main()
