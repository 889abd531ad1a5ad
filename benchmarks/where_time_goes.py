"""Where a training step's time goes, in the engine's own terms.

Run from the repository root:  python benchmarks/where_time_goes.py [W1|W3|W5|W2|W2-nn|LeNet|makemore] [--steps N]

cProfile charges each Python call a fixed cost comparable to the calls themselves (most of
the engine's take well under a microsecond), so its shares mislead here. This times the
step as it runs, with a clock around the backward pass and around each node's own
``backward``, and prints, per step: the whole step, the backward pass, each kind of node's
own arithmetic in it, and what the engine spends around them (ordering the graph, the
buffers, storing ``.grad``); the rest of the step is the forward pass and the update. The
clock's own cost is measured and taken off.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_cnn import lenet_contenders, makemore_contenders  # noqa: E402
from workloads import W1_CHAIN, W3_CHAIN, chain_contenders, micrograd_contenders, mlp_contenders  # noqa: E402

from ag_jupyter.autograd import engine  # noqa: E402
from ag_jupyter.autograd.node import Node  # noqa: E402

WORKLOADS = {
    "W1": lambda: chain_contenders(*W1_CHAIN)["ag_jupyter"],
    "W3": lambda: chain_contenders(*W3_CHAIN)["ag_jupyter"],
    "W5": lambda: micrograd_contenders()["ag_jupyter"],
    "W2": lambda: mlp_contenders()["ag_jupyter"],
    "W2-nn": lambda: mlp_contenders(nn=True)["ag_jupyter"],
    "LeNet": lambda: lenet_contenders()["ag_jupyter"],
    "makemore": lambda: makemore_contenders()["ag_jupyter"],
}


def _node_classes():
    found, stack = set(), list(Node.__subclasses__())
    while stack:
        cls = stack.pop()
        if cls not in found:
            found.add(cls)
            stack.extend(cls.__subclasses__())
    return [cls for cls in found if "backward" in cls.__dict__]


def _clock_costs(calls: int = 20000) -> tuple[float, float]:
    """Seconds a timed node adds: inside its own clock interval (one clock read), and in all
    (the wrapper below around a bare call, with its bookkeeping)."""
    clock = time.perf_counter_ns
    own: Counter = Counter()
    counted: Counter = Counter()

    class Bare:
        def name(self):
            return "bare"

        def backward(self, F, grad):
            return None

    node = Bare()

    def wrapped(node, F, grad):
        start = clock()
        result = Bare.backward(node, F, grad)
        own[node.name()] += clock() - start
        counted[node.name()] += 1
        return result

    def read(node, F, grad):
        return clock()

    costs = []
    for body in (Bare.backward, wrapped, read):
        start = clock()
        for _ in range(calls):
            body(node, None, None)
        costs.append((clock() - start) / calls)
    bare, timed, one_read = costs
    return max(one_read - bare, 0.0) / 1e9, max(timed - bare, 0.0) / 1e9


def profile(step, steps: int) -> dict:
    """Seconds per step: ``step``, ``backward``, ``nodes`` (per node name) and ``engine``."""
    clock = time.perf_counter_ns
    own: Counter = Counter()
    calls: Counter = Counter()
    passes = [0, 0]  # nanoseconds in backward passes, and how many
    originals = {cls: cls.__dict__["backward"] for cls in _node_classes()}
    run_backward = engine.run_backward
    # every module that took the name at import (``Tensor.backward``'s own reference)
    callers = [module for name, module in list(sys.modules.items())
               if name.startswith("ag_jupyter") and getattr(module, "run_backward", None) is run_backward]

    def timed_node(original):
        def backward(node, F, grad):
            start = clock()
            result = original(node, F, grad)
            own[node.name()] += clock() - start
            calls[node.name()] += 1
            return result
        return backward

    def timed_pass(*args, **kwargs):
        start = clock()
        run_backward(*args, **kwargs)
        passes[0] += clock() - start
        passes[1] += 1

    for cls, original in originals.items():
        cls.backward = timed_node(original)
    for module in callers:
        module.run_backward = timed_pass
    try:
        step()
        own.clear(), calls.clear()
        passes[:] = [0, 0]
        start = clock()
        for _ in range(steps):
            step()
        total = clock() - start
    finally:
        for cls, original in originals.items():
            cls.backward = original
        for module in callers:
            module.run_backward = run_backward
    inside, in_all = _clock_costs()
    node_calls = sum(calls.values())
    per_step = steps * 1e9
    nodes = {name: (ns / 1e9 - calls[name] * inside) / steps for name, ns in own.items()}
    backward = passes[0] / per_step - node_calls * in_all / steps
    return {"step": total / per_step - (node_calls + passes[1]) * in_all / steps, "backward": backward,
            "nodes": nodes, "node_calls": {name: count / steps for name, count in calls.items()},
            "engine": backward - sum(nodes.values())}


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workload", nargs="?", default="W5", choices=list(WORKLOADS))
    parser.add_argument("--steps", type=int, default=None, help="steps timed (default: about a second)")
    args = parser.parse_args(argv)
    step = WORKLOADS[args.workload]()
    steps = args.steps or {"W1": 20000, "W3": 200, "W5": 5000}.get(args.workload, 100)
    found = profile(step, steps)
    us = 1e6
    print(f"{args.workload}: one step {found['step'] * us:.1f} µs (the clock's cost taken off)")
    print(f"  forward, update and the rest  {(found['step'] - found['backward']) * us:9.1f} µs")
    print(f"  backward pass                 {found['backward'] * us:9.1f} µs")
    print(f"    the engine around the nodes {found['engine'] * us:9.1f} µs")
    for name, seconds in sorted(found["nodes"].items(), key=lambda item: -item[1]):
        count = found["node_calls"][name]
        print(f"    {name:<27} {seconds * us:9.1f} µs  ({count:g} per step, {seconds / count * us:.2f} µs each)")
    return found


if __name__ == "__main__":
    main()
