"""The backward pass, as a generator of steps.

``steps(...)`` walks the graph from the roots in PyTorch's order (of the nodes whose
every consumer has delivered its gradient, the most recently created runs first)
and yields one ``BackwardStep`` per op node: the gradient that arrived, the
gradients it sent to its inputs, and the leaves whose ``.grad`` changed. A leaf's
gradient is stored as soon as all of its contributions are in, as PyTorch's
AccumulateGrad does. ``Tensor.backward`` runs the generator to the end; a live
stepper advances it one node at a time, so ``x.grad`` is always the truth so far.
"""
from __future__ import annotations

from operator import attrgetter
from sys import getrefcount

import numpy

from ..arrays import as_array
from ..backend import array_module
from ..core import TENSOR_TYPES, _wrap
from ..dtypes import default_float
from . import hooks, state, versions
from .algebra import ARRAYS, TENSORS
from .function import _freed_message
from .leaves import leaf
from .node import Node
from .views import RefusedView, gradless

_creation = attrgetter("_seq")  # a node's creation number


class BackwardStep:
    """One op node's turn in the backward pass."""

    __slots__ = ("node", "grad_output", "grad_inputs", "accumulated")

    def __init__(self, node, grad_output, grad_inputs, accumulated):
        self.node = node
        self.grad_output = grad_output  # an array, or a tensor under create_graph
        self.grad_inputs = grad_inputs  # one per entry of node.next_functions (None: no gradient)
        self.accumulated = accumulated  # [(leaf, its new .grad)] completed by this step

    def __repr__(self) -> str:
        return f"<BackwardStep {self.node.name()} -> {len(self.accumulated)} leaf grad(s)>"


def _key_of(tensor):
    return tensor.grad_fn if tensor.grad_fn is not None else tensor


def _root_gradient(index: int, root, gradient, create_graph: bool):
    if not root._requires_grad:
        raise RuntimeError(
            f"element {index} of tensors does not require grad and does not have a grad_fn"
        )
    if gradient is None:
        if root._data.size != 1:
            raise RuntimeError(
                f"grad can be implicitly created only for scalar outputs (this output has shape "
                f"{list(root.shape)}; pass a gradient of that shape, e.g. .backward(ag.ones_like(out)))"
            )
        # not root*0+1: a NaN loss still seeds 1. A NumPy scalar (what a full reduction
        # gives) seeds a 0-d array of its dtype: empty_like is 3x slower on a scalar; and
        # empty_like and fill, not ones_like (the same array; ones_like is Python around them)
        data = root._data
        if isinstance(data, numpy.generic):
            ones = numpy.array(1, data.dtype)
        else:
            ones = array_module(data).empty_like(data)
            ones.fill(1)
        return _wrap(ones, False, None) if create_graph else ones
    if gradient.__class__ not in TENSOR_TYPES:  # as ag.tensor(gradient, dtype=..., device=...)
        gradient = leaf(as_array(gradient, default_float().numpy, root.dtype), root.device)
    if tuple(gradient.shape) != tuple(root.shape):
        raise RuntimeError(
            f"Mismatch in shape: grad_output[{index}] has a shape of {gradient.shape} and "
            f"output[{index}] has a shape of {root.shape}."
        )
    if gradient._data.dtype != root._data.dtype:  # PyTorch's engine casts it to the output's dtype
        gradient = gradient.to(root.dtype)
    return gradient if create_graph else gradient._data


def _graph(starts):
    """The op nodes reachable from the roots in the order backward runs them, and how many
    gradients each leaf will receive (iterative: deep graphs are fine).

    PyTorch runs, of the nodes whose every consumer has delivered, the most recently
    created first. A node is always created after the nodes it links to, so the most
    recent node not yet run has had all its consumers run: that order is simply every
    reachable node by creation number, newest first, and needs no count per node."""
    nodes = []
    for key in starts:  # a loop, not a comprehension: that is a call of its own in 3.11
        if isinstance(key, Node):
            nodes.append(key)
    seen = set(nodes)
    leaf_counts: dict = {}
    stack = nodes[:]
    while stack:
        for follow in stack.pop()._next:
            if follow is None or follow in seen:
                continue
            if isinstance(follow, Node):
                if follow.__class__ is RefusedView:  # refuse before any .grad is touched
                    follow.backward(None, None)
                seen.add(follow)
                nodes.append(follow)
                stack.append(follow)
            else:
                leaf_counts[follow] = leaf_counts.get(follow, 0) + 1
    if len(nodes) > 1:
        nodes.sort(key=_creation, reverse=True)
    return nodes, leaf_counts


def _pruned(order, only, captured):
    """With inputs named (``backward(inputs=...)``'s ids in ``only``, ``autograd.grad``'s leaves
    and nodes in ``captured``), the nodes backward visits, as PyTorch's engine: those on a
    path to one of them (``leads``, which run), and the inputs' own nodes, which only give up
    the gradient they receive. The others do not run and keep what they saved: another
    backward through them still works."""
    captured = captured or {}
    leads = set()
    for node in reversed(order):  # oldest first: a node comes after the nodes it links to
        for follow in node._next:
            if follow is None:
                continue
            if follow.__class__ in TENSOR_TYPES:
                wanted = follow in captured or (only is not None and id(follow) in only)
            else:
                wanted = follow in leads or follow in captured
            if wanted:
                leads.add(node)
                break
    return [n for n in order if n in leads or n in captured], leads


def steps(roots, gradients, retain_graph=None, create_graph=False, inputs=None, accumulate=True,
          captured=None, report=True):
    """Yield a ``BackwardStep`` per op node. ``inputs`` limits which leaves accumulate;
    with ``captured`` (a dict key -> slot), gradients of those keys are stored there
    instead of in ``.grad`` (``autograd.grad``). With ``report=False`` (a caller that only
    runs the pass to its end) it yields nothing, and builds a step only for a listener."""
    if retain_graph is None:
        retain_graph = create_graph
    F = TENSORS if create_graph else ARRAYS
    buffers: dict = {}
    shared: set = set()  # leaf keys whose buffered gradient may alias another array
    for index, (root, gradient) in enumerate(zip(roots, gradients)):
        grad = _root_gradient(index, root, gradient, create_graph)
        key = _key_of(root)
        buffers[key] = buffers[key] + grad if key in buffers else grad
        shared.add(key)
    only = None if inputs is None else {id(t) for t in inputs}
    order, leaf_counts = _graph(buffers)
    leads = None
    if only is not None or captured is not None:
        order, leads = _pruned(order, only, captured)
    listener = state.listener
    if listener is not None:
        listener.on_backward_begin(roots)

    wrap_grad = _grad_wrapper(create_graph)
    build_steps = report or listener is not None
    node_hooks = hooks.node_hooks
    completed = False
    # Grad mode is create_graph while the engine runs, hooks included (PyTorch's engine sets
    # it for the whole pass); a caller stepping through the pass runs in its own mode.
    outer = state.grad_enabled
    state.grad_enabled = create_graph
    try:
        for key in list(buffers):  # backward() called on a leaf itself
            if key.__class__ in TENSOR_TYPES and key not in leaf_counts:
                _finish_leaf(key, buffers.pop(key), True, accumulate, only, captured, F, listener)
        for node in order:
            grad_output = buffers.pop(node, None)
            accumulated = [] if build_steps else None
            if grad_output is None:
                grad_inputs = (None,) * len(node._next)
            else:
                if node_hooks and id(node) in node_hooks:
                    grad_output = hooks.run(node_hooks[id(node)], grad_output, wrap_grad, F.from_tensor)
                if captured is not None and node in captured:
                    captured[node] = grad_output
                    if node not in leads:
                        continue  # its gradient was wanted, not what it sends to its inputs
                if node.saved is None:
                    raise RuntimeError(_freed_message(node))
                if node._versions != versions.clock:
                    versions.check(node)
                grad_inputs = node.backward(F, grad_output)
                if not retain_graph and (node.saved or node.saves_output):
                    node.saved = None
                    if node.saves_output:
                        node.out = None
            for follow, grad in zip(node._next, grad_inputs):
                if follow is None:
                    continue
                if follow.__class__ not in TENSOR_TYPES:  # a node: it runs in its turn in ``order``
                    if grad is not None:
                        buffers[follow] = buffers[follow] + grad if follow in buffers else grad
                    continue
                # A leaf's gradient is buffered until its last contribution, then stored: most
                # leaves (a layer's weight) get one, stored at once without the buffer.
                left = leaf_counts[follow] - 1
                leaf_counts[follow] = left
                if grad is not None:
                    if follow in buffers:
                        grad, alias = buffers.pop(follow) + grad, False
                        shared.discard(follow)
                    else:
                        alias = getattr(grad, "base", None) is not None  # a view (a bool: no reference to the base)
                        if alias and not build_steps and _alone(grad, grad_output):
                            grad, alias = grad.base, False
                        alias = alias or grad is grad_output
                    if left:
                        buffers[follow] = grad
                        if alias:
                            shared.add(follow)
                        continue
                elif left or follow not in buffers:
                    continue
                else:
                    grad, alias = buffers.pop(follow), follow in shared
                new = _finish_leaf(follow, grad, alias, accumulate, only, captured, F, listener)
                if new is not None and build_steps:
                    accumulated.append((follow, new))
            if build_steps:
                step = BackwardStep(node, grad_output, grad_inputs, accumulated)
                if listener is not None:
                    listener.on_backward_step(step)
                if report:  # else the whole pass runs in one resume: no yield per node
                    state.grad_enabled = outer
                    try:
                        yield step
                    finally:
                        outer = state.grad_enabled
                        state.grad_enabled = create_graph
        completed = True
    finally:
        state.grad_enabled = outer
        if listener is not None:
            listener.on_backward_end(completed)


def _alone(view, grad_output) -> bool:
    """Whether ``view`` is all of the array it views, laid out as that array is, and nothing
    but this pass refers to that array: ``view`` itself and, when the node received it as a
    view too, ``grad_output`` (held by the engine alone, no hook keeping it). Then the array
    is a gradient made for this leaf alone and is stored without a copy: nn.Linear's weight
    gets ``(gᵀA)ᵀ`` through ``.t()`` and its transpose back. PyTorch's AccumulateGrad steals
    a gradient by its use count the same way."""
    base = view.base
    if view.shape != base.shape or view.strides != base.strides or view.dtype != base.dtype or \
            getattr(base, "base", None) is not None:
        return False
    # base is held here by: ``base``, getrefcount's argument, ``view`` (and ``grad_output``)
    if getattr(grad_output, "base", None) is base:
        # grad_output is held by: the engine's loop, this call, getrefcount's argument
        return getrefcount(grad_output) == 3 and getrefcount(base) == 4
    return getrefcount(base) == 3


def _grad_as_is(grad, copy=False):
    return grad


def _grad_as_tensor(grad, copy=False):
    return _wrap(grad.copy() if copy else grad, False, None)


def _grad_wrapper(create_graph: bool):
    """How a hook is handed a gradient: as it is (a tensor, under create_graph), or wrapped."""
    return _grad_as_is if create_graph else _grad_as_tensor


def _finish_leaf(leaf, grad, maybe_shared: bool, accumulate: bool, only, captured, F, listener):
    """All of a leaf's gradient is in: run its hooks, then store it. Returns the new .grad."""
    if gradless and id(leaf) in gradless:  # a no_grad view: PyTorch sends this nowhere
        return None
    if hooks.leaf_hooks and id(leaf) in hooks.leaf_hooks:
        grad = hooks.run(hooks.leaf_hooks[id(leaf)], grad, _grad_wrapper(F.records), F.from_tensor)
        maybe_shared = True  # a hook may keep the tensor it was given: .grad must not alias it
    if captured is not None and leaf in captured:
        captured[leaf] = grad
    if not accumulate or (only is not None and id(leaf) not in only):
        return None
    if grad.__class__ in TENSOR_TYPES:  # create_graph: keep the graph of the gradient
        if grad._data.dtype != leaf._data.dtype:
            grad = grad.to(leaf.dtype)
        leaf.grad = grad if leaf.grad is None else leaf.grad + grad
    else:
        if grad.dtype != leaf._data.dtype:
            grad = grad.astype(leaf._data.dtype)
            maybe_shared = False
        if grad.shape != leaf._data.shape:  # as PyTorch's engine validates a node's outputs
            raise RuntimeError(f"the gradient computed for a tensor of shape {list(leaf._data.shape)} "
                               f"has shape {list(grad.shape)}: this is a bug in ag_jupyter, please report it")
        # Stored directly, not through the .grad setter: its checks are for what a user assigns,
        # and a gradient computed here already has the leaf's dtype and device.
        held = leaf._grad
        if held is None:
            leaf._grad = _wrap(grad.copy() if maybe_shared else grad, False, None)
        else:
            held._data = held._data + grad
    if listener is not None:
        listener.on_accumulate(leaf, leaf._grad)
    return leaf._grad


def run_backward(roots, gradients, retain_graph=None, create_graph=False, inputs=None) -> None:
    captured = None
    if inputs is not None:
        inputs = [inputs] if inputs.__class__ in TENSOR_TYPES else list(inputs)
        if not inputs:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
        # A computed tensor named in inputs gets its .grad too, as in PyTorch.
        captured = {t.grad_fn: None for t in inputs if t.grad_fn is not None} or None
    for _ in steps(roots, gradients, retain_graph, create_graph, inputs, captured=captured, report=False):
        pass
    if captured:
        for tensor in inputs:
            grad = captured.get(tensor.grad_fn) if tensor.grad_fn is not None else None
            if grad is None:
                continue
            if grad.__class__ not in TENSOR_TYPES:
                grad = _wrap(grad.copy(), False, None)
            tensor.grad = grad if tensor.grad is None else tensor.grad + grad
