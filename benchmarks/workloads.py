"""The workloads of the engine benchmark, each written three ways: ag_jupyter, PyTorch
(the same code, where the two APIs agree) and raw NumPy with a hand-written backward,
the limit an engine on NumPy can approach.

Each ``*_contenders`` returns ``{name: run}``, where ``run()`` does one forward, backward
and (for the training steps) SGD update. The NumPy references do the same arithmetic as
the engines, so a ratio measures the engine, not a different algorithm;
``tests/test_examples_and_benchmarks.py`` checks that the three compute the same numbers.
"""
from __future__ import annotations

import floor
import numpy as np

import ag_jupyter as ag
from ag_jupyter.backend import array_module


class Place:
    """Where a workload runs: the CPU with NumPy (the default), or a GPU with CuPy
    (``benchmarks/bench_gpu.py``). The NumPy references are written with ``np.`` calls,
    which NumPy hands to CuPy for CuPy arrays, so one reference serves both."""

    def __init__(self, device: str = "cpu", xp=np):
        self.device, self.xp = device, xp
        self.raw = "raw NumPy" if device == "cpu" else "raw CuPy"
        self.torch = "PyTorch CPU" if device == "cpu" else "PyTorch CUDA"

    def array(self, host):
        return self.xp.asarray(host)

    def tensor(self, lib, host, **kwargs):
        return lib.tensor(host, device=self.device, **kwargs)


CPU = Place()
FLOOR = "Python floor"  # floor.py's minimal engine, on the chains and W5

# ----- W1 and W3: chains of elementwise ops ----------------------------------------
PATTERN = ["add", "mul", "exp", "log", "tanh", "div", "sub"]
W1_CHAIN = (4, 20)  # (elements, ops): the per-op overhead
W3_CHAIN = (1000, 500)  # the long chain


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


def chain_contenders(size: int, count: int, torch=None, place: Place = CPU) -> dict:
    ops = chain_ops(count)
    values = np.linspace(0.1, 0.9, size).astype(np.float32)
    raw_values = place.array(values)

    def framework(lib):
        x = place.tensor(lib, values, requires_grad=True)

        def run():
            chain_framework(x, ops)
            x.grad = None
        return run

    contenders = {"ag_jupyter": framework(ag), place.raw: lambda: chain_numpy(raw_values, ops)}
    if place is CPU:  # the least a graph in Python costs (floor.py)
        contenders[FLOOR] = lambda: floor.run_chain(raw_values, ops)
    if torch is not None:
        contenders[place.torch] = framework(torch)
    return contenders


# ----- W2: one MLP train step -----------------------------------------------------
def mlp_data(seed: int = 0, batch: int = 256, sizes=(784, 256, 128, 10)):
    """Inputs, labels and the parameters ``[w1, b1, w2, b2, w3, b3]`` (weights ``(in, out)``)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, sizes[0])).astype(np.float32)
    labels = rng.integers(0, sizes[-1], batch)
    params = []
    for fan_in, fan_out in zip(sizes, sizes[1:]):
        params.append((rng.standard_normal((fan_in, fan_out)) / fan_in ** 0.5).astype(np.float32))
        params.append((rng.standard_normal(fan_out) * 0.05).astype(np.float32))
    return x, labels, params


def numpy_mlp_step(params, x, labels, lr: float, linear_layout: bool = False) -> float:
    """Relu MLP, log_softmax + NLL loss (mean), backward by hand, SGD in place.

    Weights are ``(in, out)``; with ``linear_layout`` they are ``(out, in)``, as
    ``nn.Linear`` stores them, and the products are the ones ``nn.Linear`` computes (in
    PyTorch and here): ``h @ W.T`` forward, ``g.T @ h`` for the weight's gradient. That is
    W2-nn's reference: the same arithmetic, so the ratio measures the engine and not
    the BLAS's speed on another layout (on OpenBLAS ``x @ W.T`` is ~7% slower than
    ``x @ w`` for the first layer)."""
    if linear_layout:
        def product(h, w): return h @ w.T
        def weight_grad(h, g): return g.T @ h
        def input_grad(g, w): return g @ w
    else:
        def product(h, w): return h @ w
        def weight_grad(h, g): return h.T @ g
        def input_grad(g, w): return g @ w.T
    w1, b1, w2, b2, w3, b3 = params
    rows = array_module(x).arange(len(labels))
    z1 = product(x, w1) + b1
    h1 = np.maximum(z1, 0)
    z2 = product(h1, w2) + b2
    h2 = np.maximum(z2, 0)
    logits = product(h2, w3) + b3
    shifted = logits - logits.max(axis=1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))  # log_softmax
    loss = -logp[rows, labels].mean()  # NLL
    grad_logp = np.zeros_like(logp)  # NLL's backward
    grad_logp[rows, labels] = -1.0 / len(labels)
    g = grad_logp - np.exp(logp) * grad_logp.sum(axis=1, keepdims=True)  # log_softmax's backward
    grads = [None] * 6
    grads[4], grads[5] = weight_grad(h2, g), g.sum(axis=0)
    g = input_grad(g, w3) * (z2 > 0)
    grads[2], grads[3] = weight_grad(h1, g), g.sum(axis=0)
    g = input_grad(g, w2) * (z1 > 0)
    grads[0], grads[1] = weight_grad(x, g), g.sum(axis=0)
    for p, gp in zip(params, grads):
        p -= lr * gp
    return float(loss)


def framework_mlp_step(lib, x, labels, params, rows, lr: float):
    """The same code for ag_jupyter and PyTorch: tensors, ``log_softmax``, indexing, mean."""
    w1, b1, w2, b2, w3, b3 = params
    h = (x @ w1 + b1).relu()
    h = (h @ w2 + b2).relu()
    logits = h @ w3 + b3
    loss = -lib.log_softmax(logits, 1)[rows, labels].mean()
    loss.backward()
    with lib.no_grad():
        for p in params:
            p -= lr * p.grad
            p.grad = None
    return loss


def nn_mlp_step_fn(lib, x, labels, params, lr: float, place: Place = CPU):
    """``nn.Linear`` layers holding ``params`` (transposed to ``(out, in)``),
    ``F.cross_entropy`` and ``optim.SGD``: the same code for ag_jupyter and PyTorch.
    Returns ``(step, model)``."""
    layers = [lib.nn.Linear(w.shape[0], w.shape[1]) for w in params[::2]]
    with lib.no_grad():
        for layer, w, b in zip(layers, params[::2], params[1::2]):
            layer.weight.copy_(lib.tensor(np.ascontiguousarray(w.T)))
            layer.bias.copy_(lib.tensor(b))
    model = lib.nn.Sequential(layers[0], lib.nn.ReLU(), layers[1], lib.nn.ReLU(), layers[2]).to(place.device)
    opt = lib.optim.SGD(model.parameters(), lr=lr)
    inputs, targets = place.tensor(lib, x), place.tensor(lib, labels)

    def step():
        opt.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(inputs), targets)
        loss.backward()
        opt.step()
        return loss

    return step, model


def mlp_contenders(lr: float = 0.01, torch=None, nn: bool = False, place: Place = CPU, **sizes) -> dict:
    """W2 (``nn=False``: tensors and log_softmax by hand) or W2-nn (``nn.Linear``,
    ``F.cross_entropy``, ``optim.SGD``), each against the raw NumPy step that does its
    arithmetic (for W2-nn, with the weights in ``nn.Linear``'s layout)."""
    x, labels, params = mlp_data(**sizes)
    raw_params = [place.array(np.ascontiguousarray(p.T) if nn and p.ndim == 2 else p.copy()) for p in params]
    raw_x, raw_labels = place.array(x), place.array(labels)
    contenders = {place.raw: lambda: numpy_mlp_step(raw_params, raw_x, raw_labels, lr, linear_layout=nn)}
    for name, lib in (("ag_jupyter", ag), (place.torch, torch)):
        if lib is None:
            continue
        if nn:
            contenders[name] = nn_mlp_step_fn(lib, x, labels, params, lr, place)[0]
            continue
        tensors = [place.tensor(lib, p, requires_grad=True) for p in params]
        args = (place.tensor(lib, x), place.tensor(lib, labels), tensors,
                place.tensor(lib, np.arange(len(labels))), lr)
        contenders[name] = lambda lib=lib, args=args: framework_mlp_step(lib, *args)
    return contenders


# ----- W4: a big matmul -------------------------------------------------------------
def matmul_contenders(n: int = 1024, torch=None, place: Place = CPU) -> dict:
    rng = np.random.default_rng(0)
    a_host = rng.standard_normal((n, n)).astype(np.float32)
    b_host = rng.standard_normal((n, n)).astype(np.float32)
    ones_host = np.ones((n, n), dtype=np.float32)
    a, b, ones = place.array(a_host), place.array(b_host), place.array(ones_host)

    def raw():
        _out = a @ b
        return ones @ b.T, a.T @ ones

    def framework(lib):
        x, y = place.tensor(lib, a_host, requires_grad=True), place.tensor(lib, b_host, requires_grad=True)
        grad = place.tensor(lib, ones_host)

        def run():
            (x @ y).backward(grad)
            x.grad = y.grad = None
        return run

    contenders = {place.raw: raw, "ag_jupyter": framework(ag)}
    if torch is not None:
        contenders[place.torch] = framework(torch)
    return contenders


# ----- W5: micrograd's MLP, as a batch -------------------------------------------------
def moons(points: int = 100, seed: int = 0):
    """Two interleaved half circles with noise (scikit-learn's ``make_moons``, as in
    micrograd's demo), labels -1 and 1 as a column."""
    rng = np.random.default_rng(seed)
    half = points // 2
    angle = np.concatenate([np.linspace(0, np.pi, points - half), np.linspace(0, np.pi, half)])
    x = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    x[points - half:] = [1, 0.5] - x[points - half:] * [1, 1]
    x += rng.normal(scale=0.1, size=x.shape)
    y = np.where(np.arange(points) < points - half, -1.0, 1.0)[:, None]
    return x.astype(np.float32), y.astype(np.float32)


def micrograd_params(sizes=(2, 16, 16, 1), seed: int = 0):
    rng = np.random.default_rng(seed)
    params = []
    for fan_in, fan_out in zip(sizes, sizes[1:]):
        params.append(rng.uniform(-1, 1, (fan_in, fan_out)).astype(np.float32))
        params.append(np.zeros(fan_out, np.float32))
    return params


def numpy_micrograd_step(params, x, y, lr: float) -> float:
    """tanh MLP, micrograd's max-margin loss ``mean(relu(1 - y * score))`` (its demo's L2
    term left out), backward by hand, SGD in place."""
    w1, b1, w2, b2, w3, b3 = params
    h1 = np.tanh(x @ w1 + b1)
    h2 = np.tanh(h1 @ w2 + b2)
    score = h2 @ w3 + b3
    margin = 1 - y * score
    loss = np.maximum(margin, 0).mean()
    g = -y * (margin > 0) / margin.size
    grads = [None] * 6
    grads[4], grads[5] = h2.T @ g, g.sum(axis=0)
    g = (g @ w3.T) * (1 - h2 * h2)
    grads[2], grads[3] = h1.T @ g, g.sum(axis=0)
    g = (g @ w2.T) * (1 - h1 * h1)
    grads[0], grads[1] = x.T @ g, g.sum(axis=0)
    for p, gp in zip(params, grads):
        p -= lr * gp
    return float(loss)


def framework_micrograd_step(lib, x, y, params, lr: float):
    """The same code for ag_jupyter and PyTorch."""
    w1, b1, w2, b2, w3, b3 = params
    h = (x @ w1 + b1).tanh()
    h = (h @ w2 + b2).tanh()
    score = h @ w3 + b3
    loss = (1 - y * score).relu().mean()
    loss.backward()
    with lib.no_grad():
        for p in params:
            p -= lr * p.grad
            p.grad = None
    return loss


def micrograd_contenders(lr: float = 0.05, torch=None, points: int = 100) -> dict:
    x, y = moons(points)
    params = micrograd_params()
    numpy_params = [p.copy() for p in params]
    contenders = {"raw NumPy": lambda: numpy_micrograd_step(numpy_params, x, y, lr)}
    floor_params = [p.copy() for p in params]
    contenders[FLOOR] = lambda: floor.mlp_step(x, y, floor_params, lr)
    for name, lib in (("ag_jupyter", ag), ("PyTorch CPU", torch)):
        if lib is not None:
            args = (lib.tensor(x), lib.tensor(y), [lib.tensor(p, requires_grad=True) for p in params], lr)
            contenders[name] = lambda lib=lib, args=args: framework_micrograd_step(lib, *args)
    return contenders
