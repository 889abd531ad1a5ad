"""Engine speed, side by side with hand-written NumPy and PyTorch CPU in one process.

Run from the repository root:  python benchmarks/bench_engine.py [--quick]

W1  per-op overhead: 20 elementwise ops on a 4-element tensor, forward+backward (µs per op)
W2  MLP train step: batch 256, 784-256-128-10, relu, cross-entropy, SGD
W3  500 elementwise ops on 1,000 elements, forward+backward
W4  1024x1024 matmul, forward+backward
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

torch = optional_torch()


# ----- W1 and W3: chains of elementwise ops ----------------------------------------
PATTERN = ["add", "mul", "exp", "log", "tanh", "div", "sub"]


def chain_ops(count: int) -> list[str]:
    return [PATTERN[i % len(PATTERN)] for i in range(count)]


def chain_framework(x, ops):
    """The same code runs on an ag tensor and on a torch tensor."""
    y = x
    for op in ops:
        if op == "add":
            y = y + 1.0
        elif op == "mul":
            y = y * 0.5
        elif op == "exp":
            y = y.exp()
        elif op == "log":
            y = y.log()
        elif op == "tanh":
            y = y.tanh()
        elif op == "div":
            y = y / 2.0
        else:
            y = y - 0.1
    y.sum().backward()


def chain_numpy(x: np.ndarray, ops) -> np.ndarray:
    saved = []
    y = x
    for op in ops:
        if op == "add":
            y = y + 1.0
        elif op == "mul":
            y = y * 0.5
        elif op == "exp":
            y = np.exp(y)
            saved.append(y)
        elif op == "log":
            saved.append(y)
            y = np.log(y)
        elif op == "tanh":
            y = np.tanh(y)
            saved.append(y)
        elif op == "div":
            y = y / 2.0
        else:
            y = y - 0.1
    grad = np.ones_like(y)
    for op in reversed(ops):
        if op == "mul":
            grad = grad * 0.5
        elif op == "exp":
            grad = grad * saved.pop()
        elif op == "log":
            grad = grad / saved.pop()
        elif op == "tanh":
            t = saved.pop()
            grad = grad * (1 - t * t)
        elif op == "div":
            grad = grad / 2.0
    return grad


def chain_contenders(size: int, count: int) -> dict:
    ops = chain_ops(count)
    values = np.linspace(0.1, 0.9, size).astype(np.float32)
    x = ag.tensor(values, requires_grad=True)

    def ours():
        chain_framework(x, ops)
        x.grad = None

    contenders = {"ag_jupyter": ours, "raw NumPy": lambda: chain_numpy(values, ops)}
    if torch is not None:
        xt = torch.tensor(values, requires_grad=True)

        def theirs():
            chain_framework(xt, ops)
            xt.grad = None

        contenders["PyTorch CPU"] = theirs
    return contenders


# ----- W2: one MLP train step -----------------------------------------------------
def mlp_data(seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((256, 784)).astype(np.float32)
    labels = rng.integers(0, 10, 256)
    shapes = [(784, 256), (256,), (256, 128), (128,), (128, 10), (10,)]
    params = [(rng.standard_normal(s) * 0.05).astype(np.float32) for s in shapes]
    return x, labels, params


def mlp_contenders(lr: float = 0.01) -> dict:
    x, labels, params = mlp_data()
    onehot = np.eye(10, dtype=np.float32)[labels]
    rows = np.arange(len(labels))

    numpy_params = [p.copy() for p in params]

    def raw_numpy():
        w1, b1, w2, b2, w3, b3 = numpy_params
        z1 = x @ w1 + b1
        h1 = np.maximum(z1, 0)
        z2 = h1 @ w2 + b2
        h2 = np.maximum(z2, 0)
        logits = h2 @ w3 + b3
        shifted = logits - logits.max(axis=1, keepdims=True)
        exp = np.exp(shifted)
        probs = exp / exp.sum(axis=1, keepdims=True)
        _loss = -np.log(probs[rows, labels]).mean()
        g = (probs - onehot) / len(labels)
        grads = [None] * 6
        grads[4], grads[5] = h2.T @ g, g.sum(axis=0)
        g = (g @ w3.T) * (z2 > 0)
        grads[2], grads[3] = h1.T @ g, g.sum(axis=0)
        g = (g @ w2.T) * (z1 > 0)
        grads[0], grads[1] = x.T @ g, g.sum(axis=0)
        for p, gp in zip(numpy_params, grads):
            p -= lr * gp

    def step(framework, xs, target, ps, log_softmax):
        w1, b1, w2, b2, w3, b3 = ps
        h = (xs @ w1 + b1).relu()
        h = (h @ w2 + b2).relu()
        logits = h @ w3 + b3
        loss = -log_softmax(logits, 1)[rows_index[framework], target].mean()
        loss.backward()
        with (ag.no_grad() if framework == "ag" else torch.no_grad()):
            for p in ps:
                p -= lr * p.grad
                p.grad = None

    ours_x, ours_labels = ag.tensor(x), ag.tensor(labels)
    ours_params = [ag.tensor(p, requires_grad=True) for p in params]
    rows_index = {"ag": ag.tensor(rows)}
    contenders = {"raw NumPy": raw_numpy,
                  "ag_jupyter": lambda: step("ag", ours_x, ours_labels, ours_params, ag.log_softmax)}
    if torch is not None:
        rows_index["torch"] = torch.as_tensor(rows)
        tx, tl = torch.as_tensor(x), torch.as_tensor(labels)
        tp = [torch.tensor(p, requires_grad=True) for p in params]
        contenders["PyTorch CPU"] = lambda: step("torch", tx, tl, tp, torch.log_softmax)
    return contenders


# ----- W4: a big matmul -------------------------------------------------------------
def matmul_contenders(n: int = 1024) -> dict:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    ones = np.ones((n, n), dtype=np.float32)

    def raw_numpy():
        _out = a @ b
        return ones @ b.T, a.T @ ones

    ta, tb = ag.tensor(a, requires_grad=True), ag.tensor(b, requires_grad=True)
    grad = ag.tensor(ones)

    def ours():
        (ta @ tb).backward(grad)
        ta.grad = tb.grad = None

    contenders = {"raw NumPy": raw_numpy, "ag_jupyter": ours}
    if torch is not None:
        pa, pb = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
        pg = torch.as_tensor(ones)

        def theirs():
            (pa @ pb).backward(pg)
            pa.grad = pb.grad = None

        contenders["PyTorch CPU"] = theirs
    return contenders


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run, not for reporting)")
    args = parser.parse_args(argv)
    repeats = 5 if args.quick else 21
    print(f"ag_jupyter {ag.__version__}, NumPy {np.__version__}, "
          f"PyTorch {torch.__version__ if torch else 'not installed'}; medians of {repeats} interleaved repeats")
    if torch is not None:
        print(f"PyTorch threads: {torch.get_num_threads()}")

    medians = measure(chain_contenders(4, 20), repeats=repeats, number=200)
    print(table("W1  20 elementwise ops on 4 elements, forward+backward", medians, unit="µs/op",
                scale=1e6, per=20, reference="PyTorch CPU" if torch else "raw NumPy",
                target="ag_jupyter <= 1.0x PyTorch CPU"))
    medians = measure(mlp_contenders(), repeats=repeats, number=3)
    print(table("W2  MLP train step (256x784 -> 256 -> 128 -> 10)", medians, reference="raw NumPy",
                target="ag_jupyter <= 1.05x raw NumPy"))
    medians = measure(chain_contenders(1000, 500), repeats=repeats, number=3)
    print(table("W3  500 elementwise ops on 1,000 elements, forward+backward", medians,
                reference="PyTorch CPU" if torch else "raw NumPy", target="ag_jupyter <= 1.0x PyTorch CPU"))
    medians = measure(matmul_contenders(), repeats=max(5, repeats // 3), number=1)
    print(table("W4  1024x1024 matmul, forward+backward", medians, reference="raw NumPy",
                target="ag_jupyter <= 1.05x raw NumPy"))


if __name__ == "__main__":
    main()
