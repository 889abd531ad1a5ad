"""The tutorials' first gradients, printed: run ``python examples/tutorial_gradients.py``.

Each example shows the graph PyTorch would build (the same node names) and the
gradients the chain rule gives, next to the numbers worked out by hand.
"""
from __future__ import annotations

import math

import ag_jupyter as ag


def graph_of(tensor) -> str:
    """The backward graph below ``tensor``, one node per line (like torchviz, in text)."""
    lines, stack, seen = [], [(tensor.grad_fn, 0)], {}
    while stack:
        node, depth = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen[id(node)] = node  # kept alive, so no later node can reuse its id
        lines.append("  " * depth + node.name())
        stack.extend((child, depth + 1) for child, _ in reversed(node.next_functions))
    return "\n".join(lines)


def computational_graph() -> None:
    a, b, c, d = (ag.tensor(v, requires_grad=True) for v in (2.0, -3.0, 10.0, 4.0))
    e = a * b + ag.log(d) * c
    e.backward()
    print("e = a*b + log(d)*c with a=2, b=-3, c=10, d=4")
    print(graph_of(e))
    print(f"  de/da = b     = {a.grad.item():+.4f}")
    print(f"  de/db = a     = {b.grad.item():+.4f}")
    print(f"  de/dc = log d = {c.grad.item():+.4f}   (log 4 = {math.log(4):.4f})")
    print(f"  de/dd = c/d   = {d.grad.item():+.4f}")


def matrix_gradient() -> None:
    X = ag.full((2, 2), 2.0, requires_grad=True)
    W = ag.full((2, 2), 0.5, requires_grad=True)
    b = ag.tensor([4.0], requires_grad=True)
    Y = X @ W + b
    Y.backward(ag.ones_like(Y))
    print("\nY = X @ W + b, X all 2s, W all 0.5s, b = [4], Y.backward(ones)")
    print(graph_of(Y))
    print(f"  W.grad = {W.grad.tolist()}   (each entry: sum of a column of X = 4)")
    print(f"  X.grad = {X.grad.tolist()}   (each entry: sum of a row of W = 1)")
    print(f"  b.grad = {b.grad.tolist()}           (b was broadcast to 4 entries: 1+1+1+1)")


def chain_rule() -> None:
    x = ag.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = 2 * x + 3
    z = 4 * y - 1
    z.sum().backward()
    print("\ny = 2x + 3, z = 4y - 1, z.sum().backward()")
    print(f"  x.grad = {x.grad.tolist()}   (dz/dy * dy/dx = 4 * 2 = 8)")


def main() -> None:
    computational_graph()
    matrix_gradient()
    chain_rule()


if __name__ == "__main__":
    main()
