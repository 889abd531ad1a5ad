"""A learner's two models, side by side with PyTorch CPU in one process (issue 30's budgets).

Run from the repository root:  python benchmarks/bench_cnn.py [--quick] [--threads N]

LeNet-5   one training step: batch 64 of 1x28x28, conv(6, 5x5, padding 2) - relu - maxpool 2 -
          conv(16, 5x5) - relu - maxpool 2 - linear 400->120 - relu - 84 - relu - 10,
          cross_entropy, optim.SGD (zero_grad, forward, backward, step). Budget: <= 2x PyTorch.
makemore  the character MLP of the makemore lectures: a 27x10 embedding table indexed as
          ``C[X]`` with a context of 3 characters, a 30->200 tanh layer, 27 logits, batch 32,
          cross_entropy, and the lectures' update ``p.data += -lr * p.grad``. Budget: <= 1x PyTorch.

Both sides run the same program on the same starting weights and batch. Contenders take
turns within each repeat (``timing.measure_repeats``); the verdicts use the median of the
per-repeat ratios and its 95% interval ("within noise" when the interval holds the budget).
``--threads N`` gives NumPy's BLAS and PyTorch N threads each for the whole run (on a
machine whose cores are shared, 1 compares the engines rather than the thread pools).
"""
from __future__ import annotations

import os
import statistics
import sys

# PyTorch's OpenMP threads spin after each op and slow the contender timed next (see
# bench_engine.py); passive waiting hands the cores back. Set before PyTorch is imported.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def _threads_before_numpy(argv: list) -> None:
    """``--threads N`` run as a script: tell OpenBLAS before NumPy loads it. Limited only later
    (threadpoolctl), OpenBLAS still took 1 ms or 32 ms for the same small product on a busy
    machine, which swamped the comparison."""
    if "--threads" in argv[:-1] and "numpy" not in sys.modules:
        count = argv[argv.index("--threads") + 1]
        for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[name] = count


if __name__ == "__main__":
    _threads_before_numpy(sys.argv)

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_engine import start  # noqa: E402
from timing import measure_repeats, paired_ratio, table, verdict  # noqa: E402

import ag_jupyter as ag  # noqa: E402

TARGETS = {"LeNet-5 step / PyTorch": 2.0, "makemore MLP step / PyTorch": 1.0}


def lenet(lib):
    nn = lib.nn
    return nn.Sequential(
        nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(16 * 5 * 5, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))


def _train_step(lib, model, images, labels, lr=0.01):
    optimizer = lib.optim.SGD(model.parameters(), lr=lr)

    def step():
        optimizer.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(images), labels)
        loss.backward()
        optimizer.step()
        return loss

    return step


def lenet_contenders(torch=None, batch: int = 64, seed: int = 0) -> dict:
    """``{name: step}`` for ag_jupyter and (when given) PyTorch, on equal weights and one batch."""
    rng = np.random.default_rng(seed)
    images = rng.standard_normal((batch, 1, 28, 28)).astype(np.float32)
    labels = rng.integers(0, 10, batch)
    ag.manual_seed(seed)
    ours = lenet(ag)
    contenders = {"ag_jupyter": _train_step(ag, ours, ag.tensor(images), ag.tensor(labels))}
    if torch is not None:
        theirs = lenet(torch)
        theirs.load_state_dict({k: torch.from_numpy(v.numpy().copy()) for k, v in ours.state_dict().items()})
        contenders["PyTorch CPU"] = _train_step(torch, theirs, torch.from_numpy(images), torch.from_numpy(labels))
    return contenders


def _makemore_step(lib, tables, X, Y, lr=0.1):
    """One step as the lectures write it: a forward of plain tensor code, then a hand-written update."""
    C, W1, b1, W2, b2 = tables
    parameters = [C, W1, b1, W2, b2]
    F = lib.nn.functional

    def step():
        emb = C[X]  # (batch, 3, 10)
        h = lib.tanh(emb.view(-1, 30) @ W1 + b1)
        logits = h @ W2 + b2
        loss = F.cross_entropy(logits, Y)
        for p in parameters:
            p.grad = None
        loss.backward()
        for p in parameters:
            p.data += -lr * p.grad
        return loss

    return step


def makemore_contenders(torch=None, batch: int = 32, hidden: int = 200, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    shapes = [(27, 10), (30, hidden), (hidden,), (hidden, 27), (27,)]
    initial = [rng.standard_normal(shape).astype(np.float32) * scale
             for shape, scale in zip(shapes, (1.0, 0.2, 0.01, 0.01, 0.0))]
    X, Y = rng.integers(0, 27, (batch, 3)), rng.integers(0, 27, batch)

    def tensors(lib):
        return [lib.tensor(array.copy(), requires_grad=True) for array in initial]

    contenders = {"ag_jupyter": _makemore_step(ag, tensors(ag), ag.tensor(X), ag.tensor(Y))}
    if torch is not None:
        contenders["PyTorch CPU"] = _makemore_step(torch, tensors(torch), torch.tensor(X), torch.tensor(Y))
    return contenders


def main(argv=None) -> dict:
    args, torch, repeats = start(__doc__, argv)
    if torch is None:
        print("PyTorch is not installed: timing ag_jupyter alone, no ratios")
    ratios = {}
    for row, title, contenders, times in (
            ("LeNet-5 step / PyTorch", "LeNet-5 training step, batch 64 of 1x28x28, SGD",
             lenet_contenders(torch), 2 if args.quick else 5),
            ("makemore MLP step / PyTorch", "makemore MLP step: C[X] (27x10, block 3), 30->200 tanh -> 27, "
             "batch 32", makemore_contenders(torch), 20 if args.quick else 100)):
        samples = measure_repeats(contenders, repeats=repeats, number=times)
        reference = "PyTorch CPU" if torch is not None else "ag_jupyter"
        print(table(title, {name: statistics.median(values) for name, values in samples.items()},
                    reference=reference, target=f"ag_jupyter <= {TARGETS[row]:g}x PyTorch CPU"))
        if torch is not None:
            ratios[row] = paired_ratio(samples, "ag_jupyter", "PyTorch CPU")
    if ratios:
        print(f"\nThe budgets: the median of the {repeats} per-repeat ratios (each repeat times both side by "
              f"side)\nand a 95% interval for it; \"within noise\" when the interval holds the budget.")
        print(f"{'budget (ag_jupyter)':<30}{'ratio':>8}{'95% interval':>16}{'budget':>9}")
        for row, (ratio, low, high) in ratios.items():
            print(f"{row:<30}{ratio:>8.2f}{f'{low:.2f}-{high:.2f}':>16}{'<= ' + format(TARGETS[row], 'g'):>9}  "
                  f"{verdict(low, high, TARGETS[row])}")
    return {row: ratio for row, (ratio, _low, _high) in ratios.items()}


if __name__ == "__main__":
    main()
