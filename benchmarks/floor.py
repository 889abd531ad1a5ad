"""The least a Python autograd on NumPy can cost: the floor that ag_jupyter's overhead is
measured against, beside raw NumPy, on the chains (W1, W3) and on micrograd's MLP (W5).

``run_chain`` and ``mlp_step`` record the workload as a graph and run backward the way
ag_jupyter's engine does (nodes that link to their inputs, creation numbers, every
reachable node by creation number newest first, a dict of gradient buffers), with nothing
else: no dtypes or broadcasting, no grad mode, no hooks, no version counters, no listener,
no error messages, no ``Tensor`` class with methods. What ag_jupyter costs above this line
is what its features cost; what this costs above raw NumPy is what a graph in Python costs.
"""
from __future__ import annotations

import itertools

import numpy as np

_new = object.__new__
_sequence = itertools.count().__next__


class Value:
    __slots__ = ("data", "node")


class Node:
    __slots__ = ("inputs", "saved", "seq")


class Add(Node):
    __slots__ = ()

    def backward(self, grad):
        return (grad,)


class Times(Node):  # y * c and y / c (saved: c or 1 / c), and exp (saved: its output)
    __slots__ = ()

    def backward(self, grad):
        return (grad * self.saved,)


class LogNode(Node):
    __slots__ = ()

    def backward(self, grad):
        return (grad / self.saved,)


class Sum(Node):
    __slots__ = ()

    def backward(self, grad):
        out = np.empty_like(self.saved)  # the gradient, at every entry of the summed array
        out.fill(grad)
        return (out,)


class TanhNode(Node):
    __slots__ = ()

    def backward(self, grad):
        out = self.saved
        return (grad * (1 - out * out),)


def _node(data, kind, inputs, saved):
    """A Value made by ``kind`` from ``inputs`` (nodes, leaf Values, or None for a constant)."""
    node = _new(kind)
    node.inputs, node.saved, node.seq = inputs, saved, _sequence()
    out = _new(Value)
    out.data, out.node = data, node
    return out


def _step(y, op):
    inputs = (y.node if y.node is not None else y,)
    if op == "add":
        return _node(y.data + 1.0, Add, inputs, None)
    if op == "mul":
        return _node(y.data * 0.5, Times, inputs, 0.5)
    if op == "exp":
        out = np.exp(y.data)
        return _node(out, Times, inputs, out)
    if op == "log":
        return _node(np.log(y.data), LogNode, inputs, y.data)
    if op == "tanh":
        out = np.tanh(y.data)
        return _node(out, TanhNode, inputs, out)
    if op == "div":
        return _node(y.data / 2.0, Times, inputs, 0.5)
    return _node(y.data - 0.1, Add, inputs, None)


def _backward(root) -> dict:
    """Backward from the scalar ``root``: ``{leaf Value: its gradient}``. An input that
    takes no gradient (a constant) is None."""
    order, seen, stack = [root.node], {root.node}, [root.node]
    while stack:
        for follow in stack.pop().inputs:
            if follow is not None and follow.__class__ is not Value and follow not in seen:
                seen.add(follow)
                order.append(follow)
                stack.append(follow)
    order.sort(key=lambda node: node.seq, reverse=True)
    buffers = {root.node: np.array(1, root.data.dtype)}
    for node in order:
        grads = node.backward(buffers.pop(node))
        node.saved = None
        for follow, grad in zip(node.inputs, grads):
            if follow is not None:
                buffers[follow] = buffers[follow] + grad if follow in buffers else grad
    return buffers


def run_chain(values: np.ndarray, ops) -> np.ndarray:
    """The chain of ``workloads.chain_framework`` (then a sum), forward and backward: the
    gradient with respect to ``values``."""
    leaf = _new(Value)
    leaf.data, leaf.node = values, None
    y = leaf
    for op in ops:
        y = _step(y, op)
    return _backward(_node(y.data.sum(), Sum, (y.node if y.node is not None else y,), y.data))[leaf]


# ----- W5: micrograd's MLP, as a batch (workloads.framework_micrograd_step) -------------
class MatMul(Node):  # a constant (None in inputs) or a node times a weight; saved: both arrays
    __slots__ = ()

    def backward(self, grad):
        a, w = self.saved
        return (grad @ w.T if self.inputs[0] is not None else None, a.T @ grad)


class AddBias(Node):
    __slots__ = ()

    def backward(self, grad):
        return (grad, grad.sum(axis=0))


class Negate(Node):  # 1 - s
    __slots__ = ()

    def backward(self, grad):
        return (-grad,)


class ReluNode(Node):
    __slots__ = ()

    def backward(self, grad):
        return (grad * (self.saved != 0),)


class Mean(Node):  # saved: the input's shape
    __slots__ = ()

    def backward(self, grad):
        out = np.empty(self.saved, grad.dtype)
        out.fill(grad)
        return (out / out.size,)


def _layer(h, w, b):
    """``h @ w + b``; ``h`` is a computed Value, or the input array (a constant)."""
    if h.__class__ is Value:
        product = _node(h.data @ w.data, MatMul, (h.node, w), (h.data, w.data))
    else:
        product = _node(h @ w.data, MatMul, (None, w), (h, w.data))
    return _node(product.data + b.data, AddBias, (product.node, b), None)


def _tanh(h):
    out = np.tanh(h.data)
    return _node(out, TanhNode, (h.node,), out)


def mlp_step(x, y, params, lr: float) -> float:
    """One step of ``workloads.numpy_micrograd_step`` (the same arithmetic) through this
    floor's graph: forward, backward, SGD on ``params`` in place. Returns the loss."""
    leaves = []
    for p in params:
        leaf = _new(Value)
        leaf.data, leaf.node = p, None
        leaves.append(leaf)
    w1, b1, w2, b2, w3, b3 = leaves
    score = _layer(_tanh(_layer(_tanh(_layer(x, w1, b1)), w2, b2)), w3, b3)
    scaled = _node(y * score.data, Times, (score.node,), y)
    margin = _node(1 - scaled.data, Negate, (scaled.node,), None)
    out = np.maximum(margin.data, 0)
    relu = _node(out, ReluNode, (margin.node,), out)
    loss = _node(relu.data.mean(), Mean, (relu.node,), relu.data.shape)
    grads = _backward(loss)
    for p, leaf in zip(params, leaves):
        p -= lr * grads[leaf]
    return float(loss.data)
