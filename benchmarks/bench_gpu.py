"""The engine on CuPy, side by side with raw CuPy (a hand-written backward) and, where its
CUDA build is installed, PyTorch on the same GPU, in one process.

Run from the repository root on a machine with an NVIDIA GPU and CuPy:

    python benchmarks/bench_gpu.py [--quick]

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

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from timing import measure, optional_torch, table  # noqa: E402

import ag_jupyter as ag  # noqa: E402
import ag_jupyter.nn.functional as F  # noqa: E402
from ag_jupyter import nn, optim  # noqa: E402

SIZES = (784, 256, 128, 10)


def torch_cuda():
    torch = optional_torch()
    return torch if torch is not None and torch.cuda.is_available() else None


def synced(run, sync):
    def timed():
        run()
        sync()
    return timed


# ----- G1: tiny elementwise chain --------------------------------------------------
def chain_contenders(cp, torch, count: int = 20, device: str = "cuda") -> dict:
    """Alternating mul/exp/tanh/add on 4 elements: the per-op cost of the Python layers.
    Each contender returns the input's gradient. (``cp`` may be NumPy, with device="cpu".)"""
    values = np.linspace(0.1, 0.4, 4).astype(np.float32)
    forward = (lambda y: y * 0.5, lambda y: y.exp(), lambda y: y.tanh(), lambda y: y + 1.0)

    def framework(x):
        y = x
        for i in range(count):
            y = forward[i % 4](y)
        y.sum().backward()
        grad, x.grad = x.grad, None
        return grad

    # d(out)/d(in) of each op, from its input and output, as a hand-written backward has it
    local = (lambda x, y: 0.5, lambda x, y: y, lambda x, y: 1 - y * y, lambda x, y: 1.0)
    raw_forward = (forward[0], cp.exp, cp.tanh, forward[3])
    x = cp.asarray(values)

    def raw_cupy():
        chain = [x]
        for i in range(count):
            chain.append(raw_forward[i % 4](chain[-1]))
        g = cp.ones_like(chain[-1])
        for i in reversed(range(count)):
            g = g * local[i % 4](chain[i], chain[i + 1])
        return g

    ours = ag.tensor(values, device=device, requires_grad=True)
    contenders = {"raw CuPy": raw_cupy, "ag_jupyter": lambda: framework(ours)}
    if torch is not None:
        theirs = torch.tensor(values, device="cuda", requires_grad=True)
        contenders["PyTorch CUDA"] = lambda: framework(theirs)
    return contenders


# ----- G2: one MLP train step ------------------------------------------------------
def mlp_contenders(cp, torch, batch: int, lr: float = 0.01, device: str = "cuda") -> dict:
    """Each contender takes one step from the same weights and returns its weights."""
    rng = np.random.default_rng(0)
    x_host = rng.standard_normal((batch, SIZES[0])).astype(np.float32)
    labels_host = rng.integers(0, SIZES[-1], batch)
    shapes = [s for a, b in zip(SIZES, SIZES[1:]) for s in ((a, b), (b,))]
    params_host = [(rng.standard_normal(s) * 0.05).astype(np.float32) for s in shapes]

    x, labels = cp.asarray(x_host), cp.asarray(labels_host)
    onehot = cp.eye(SIZES[-1], dtype=cp.float32)[labels]
    rows = cp.arange(batch)
    raw = [cp.asarray(p) for p in params_host]

    def raw_cupy():
        w1, b1, w2, b2, w3, b3 = raw
        z1 = x @ w1 + b1
        h1 = cp.maximum(z1, 0)
        z2 = h1 @ w2 + b2
        h2 = cp.maximum(z2, 0)
        logits = h2 @ w3 + b3
        shifted = logits - logits.max(axis=1, keepdims=True)
        log_probs = shifted - cp.log(cp.exp(shifted).sum(axis=1, keepdims=True))
        _loss = -log_probs[rows, labels].mean()
        g = (cp.exp(log_probs) - onehot) / batch
        grads = [None] * 6
        grads[4], grads[5] = h2.T @ g, g.sum(axis=0)
        g = (g @ w3.T) * (z2 > 0)
        grads[2], grads[3] = h1.T @ g, g.sum(axis=0)
        g = (g @ w2.T) * (z1 > 0)
        grads[0], grads[1] = x.T @ g, g.sum(axis=0)
        for p, gp in zip(raw, grads):
            p -= lr * gp
        return raw

    def tensor_step(lib, xs, target, ps, row_index):
        w1, b1, w2, b2, w3, b3 = ps
        h = (xs @ w1 + b1).relu()
        h = (h @ w2 + b2).relu()
        loss = -lib.log_softmax(h @ w3 + b3, 1)[row_index, target].mean()
        loss.backward()
        with lib.no_grad():
            for p in ps:
                p -= lr * p.grad
                p.grad = None
        return ps

    ours = [ag.tensor(p, device=device, requires_grad=True) for p in params_host]
    ours_x, ours_labels = ag.tensor(x_host, device=device), ag.tensor(labels_host, device=device)
    ours_rows = ag.arange(batch, device=device)
    layers = [nn.Linear(a, b) for a, b in zip(SIZES, SIZES[1:])]
    with ag.no_grad():  # the same starting weights as the others (nn.Linear keeps W transposed)
        for layer, w, b in zip(layers, params_host[::2], params_host[1::2]):
            layer.weight.copy_(ag.tensor(w.T.copy()))
            layer.bias.copy_(ag.tensor(b))
    model = nn.Sequential(layers[0], nn.ReLU(), layers[1], nn.ReLU(), layers[2]).to(device)
    sgd = optim.SGD(model.parameters(), lr=lr)

    def nn_step():
        sgd.zero_grad()
        F.cross_entropy(model(ours_x), ours_labels).backward()
        sgd.step()
        return [p.T if p.ndim == 2 else p for p in model.parameters()]

    contenders = {"raw CuPy": raw_cupy,
                  "ag_jupyter": lambda: tensor_step(ag, ours_x, ours_labels, ours, ours_rows),
                  "ag_jupyter nn": nn_step}
    if torch is not None:
        tp = [torch.tensor(p, device="cuda", requires_grad=True) for p in params_host]
        tx = torch.tensor(x_host, device="cuda")
        tl, trows = torch.tensor(labels_host, device="cuda"), torch.arange(batch, device="cuda")
        contenders["PyTorch CUDA"] = lambda: tensor_step(torch, tx, tl, tp, trows)
    return contenders


# ----- G4: a big matmul ------------------------------------------------------------
def matmul_contenders(cp, torch, n: int) -> dict:
    rng = np.random.default_rng(0)
    a_host = rng.standard_normal((n, n)).astype(np.float32)
    b_host = rng.standard_normal((n, n)).astype(np.float32)
    a, b, ones = cp.asarray(a_host), cp.asarray(b_host), cp.ones((n, n), dtype=cp.float32)

    def raw_cupy():
        _out = a @ b
        return ones @ b.T, a.T @ ones

    def framework(lib):
        x = lib.tensor(a_host, device="cuda", requires_grad=True)
        y = lib.tensor(b_host, device="cuda", requires_grad=True)
        grad = lib.ones((n, n), device="cuda")

        def step():
            (x @ y).backward(grad)
            x.grad = y.grad = None
        return step

    contenders = {"raw CuPy": raw_cupy, "ag_jupyter": framework(ag)}
    if torch is not None:
        contenders["PyTorch CUDA"] = framework(torch)
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

    print(table("G1  20 elementwise ops on 4 elements, forward+backward", run(chain_contenders(cp, torch), 50),
                unit="µs/op", scale=1e6, per=20, reference="raw CuPy"))
    print(table(f"G2  MLP train step ({batch}x784 -> 256 -> 128 -> 10)", run(mlp_contenders(cp, torch, batch), 5),
                reference="raw CuPy", target="ag_jupyter <= 1.1x raw CuPy"))
    print(table(f"G4  {n}x{n} matmul, forward+backward", run(matmul_contenders(cp, torch, n), 3),
                reference="raw CuPy", target="ag_jupyter <= 1.1x raw CuPy"))


if __name__ == "__main__":
    main()
