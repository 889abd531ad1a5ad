"""Differentiable primitives (``Op``) and the user's custom ``Function``.

An ``Op`` subclass is one primitive: ``forward`` computes arrays, ``backward`` is
written once against an algebra ``F`` (see ``autograd/algebra.py``) so the same
formula runs on raw arrays in a plain backward and on tensors, recording a graph,
under ``create_graph=True``. ``apply`` is the per-op hot path: it runs forward,
and records a node only when grad mode is on and an input requires grad.
"""
from __future__ import annotations

import inspect

from .. import backend
from ..core import TENSOR_TYPES, _wrap
from ..dtypes import from_numpy
from . import devices, state, versions
from .algebra import sum_to
from .node import Node, next_sequence_number

_new = object.__new__


class Op(Node):
    """A built-in primitive. ``arity`` leading arguments are inputs; the rest are parameters."""

    __slots__ = ()
    arity = 1
    # The letters ``formula`` calls the inputs by, in order (``u`` is the output, ``L`` the
    # loss): the step panel puts the graph's own names in their place.
    formula_args = ("a", "b", "c")

    def forward(self, *args):  # pragma: no cover - every op defines it
        raise NotImplementedError

    @classmethod
    def explain(cls, args, error: Exception) -> Exception | None:
        """Turn a backend error into PyTorch's message naming the shapes; None keeps it."""
        return None

    @classmethod
    def apply(cls, *args):
        node = _new(cls)
        node.saved = ()
        try:
            data = node.forward(*args)
        except Exception as error:
            return _fail(cls, args, error)
        if state.grad_enabled:
            if cls.arity == 1:  # one input and parameters (sum, view, log_softmax): no map over inputs
                inputs, link = args[:1], _link(args[0])
                links = None if link is None else (link,)
            else:
                inputs = args[: cls.arity] if cls.arity is not None else args[:-1]
                links = _links(inputs)
            if links is not None:
                return record(node, links, inputs, _wrap(data, True, node))
        return _wrap(data, False, None)


class UnaryOp(Op):
    """An op called with exactly one argument, its input (exp, tanh, relu, ...): ``apply``
    as ``Op.apply`` without the argument tuples, which were a fifth of such an op."""

    __slots__ = ()

    @classmethod
    def apply(cls, a):
        node = _new(cls)
        node.saved = ()
        try:
            data = node.forward(a)
        except Exception as error:
            return _fail(cls, (a,), error)
        if state.grad_enabled:
            link = _link(a)
            if link is not None:
                return record(node, (link,), (a,), _wrap(data, True, node))
        return _wrap(data, False, None)


class BinaryOp(Op):
    """An op called with exactly two arguments, its inputs (``+ - * /`` ...): ``apply``
    as ``Op.apply`` without the argument tuples."""

    __slots__ = ()
    arity = 2

    @classmethod
    def apply(cls, a, b):
        node = _new(cls)
        node.saved = ()
        try:
            data = node.forward(a, b)
        except Exception as error:
            return _fail(cls, (a, b), error)
        if state.grad_enabled:
            link_a, link_b = _link(a), _link(b)
            if link_a is not None or link_b is not None:
                return record(node, (link_a, link_b), (a, b), _wrap(data, True, node))
        return _wrap(data, False, None)


def _link(arg):
    """An input's grad path: its node, itself if a leaf that requires grad, or None."""
    if arg.__class__ in TENSOR_TYPES:
        if arg.grad_fn is not None:
            return arg.grad_fn
        if arg._requires_grad:
            return arg
    return None


def _links(inputs):
    """Each input's grad path, or None when no input requires grad."""
    links = tuple(map(_link, inputs))
    for link in links:  # not ``count(None)``: it would compare tensors with ==
        if link is not None:
            return links
    return None


def record(node, links, inputs, out):
    """The one way a node joins the graph and the trace: its links to its inputs' nodes,
    its creation number and version stamp, then the listener hears of it (``on_op``) with
    the op's arguments and ``out``, the tensor whose grad_fn it is. Every op, view
    (``views.py``) and custom ``Function`` comes through here; the written-out operators
    (ops/number_operators.py, ops/float_methods.py) stamp the same fields themselves only
    while no listener is set, and call this when one is."""
    node._next = links
    node._seq = next_sequence_number()
    node._versions = versions.clock
    if state.listener is not None:
        state.listener.on_op(node, inputs, out)
    return out


def _fail(cls, args, error):
    """Raise the error the user should read; or, for a 0-d CPU tensor beside GPU tensors
    (a number to PyTorch), run the op again with it moved."""
    spread = devices.spread(args)
    moved = devices.numbers_to_gpu(args) if spread is None else None
    if moved is not None:
        return cls.apply(*moved)
    explained = backend.same_device_error(*spread) if spread is not None else cls.explain(args, error)
    if state.listener is not None:
        state.listener.on_op_error(cls.node_name, args, explained or error)
    if explained is not None:
        raise explained from None
    raise error


class FunctionCtx(Node):
    """The ``ctx`` of a custom Function, and its node in the graph (``CubeBackward``)."""

    __slots__ = ("__dict__",)

    def save_for_backward(self, *tensors) -> None:
        for index, t in enumerate(tensors):
            if t is not None and t.__class__ not in TENSOR_TYPES:
                raise TypeError(f"save_for_backward can only save variables, but argument {index} is of "
                                f"type {type(t).__name__} (keep other values as attributes of ctx)")
        self.saved = tensors

    @property
    def saved_tensors(self) -> tuple:
        if self.saved is None:
            raise RuntimeError(_freed_message(self))
        return self.saved

    def mark_non_differentiable(self, *tensors) -> None:
        self._non_differentiable = {id(t) for t in tensors}

    def name(self) -> str:
        return self._function.__name__ + "Backward"

    def backward(self, F, grad):
        """Custom backward always sees tensors, as in PyTorch."""
        grad_tensor = F.as_tensor(grad)
        result = self._function.backward(self, grad_tensor)
        if not isinstance(result, tuple):
            result = (result,)
        if len(result) != len(self._next):
            raise RuntimeError(
                f"function {self.name()} returned an incorrect number of gradients "
                f"(expected {len(self._next)}, got {len(result)})"
            )
        return tuple(None if g is None else F.from_tensor(self._checked(F, index, g))
                     for index, g in enumerate(result))

    def _checked(self, F, index: int, grad):
        """PyTorch's checks on a custom backward's gradient: none for a non-tensor input; a
        tensor that sums down to the input's shape (broadcast undone) and takes its dtype."""
        expected = self._input_meta[index]
        if expected is None:
            raise RuntimeError(
                f"function {self.name()} returned a gradient different than None at position "
                f"{index + 1}, but the corresponding forward input was not a Variable"
            )
        if grad.__class__ not in TENSOR_TYPES:
            raise TypeError(f"function {self.name()} returned a {type(grad).__name__} as gradient "
                            f"{index}; return a tensor or None")
        shape, dtype = expected
        if tuple(grad.shape) != shape:
            if not _sums_to(tuple(grad.shape), shape):
                raise RuntimeError(
                    f"Function {self.name()} returned an invalid gradient at index {index} - got "
                    f"{list(grad.shape)} but expected shape compatible with {list(shape)}"
                )
            grad = F.as_tensor(sum_to(F, F.from_tensor(grad), shape))
        if grad._data.dtype != dtype:
            grad = grad.to(from_numpy(dtype))
        return grad


class Function:
    """Base for custom differentiable functions, with PyTorch's API.

    >>> import ag_jupyter as ag
    >>> class Cube(ag.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x ** 3
    ...     @staticmethod
    ...     def backward(ctx, grad):
    ...         (x,) = ctx.saved_tensors
    ...         return grad * 3 * x ** 2
    >>> x = ag.tensor(2.0, requires_grad=True)
    >>> y = Cube.apply(x); y.backward(); x.grad.item(), y.grad_fn.name()
    (12.0, 'CubeBackward')
    """

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("a Function subclass must define forward(ctx, ...)")

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError("a Function subclass must define backward(ctx, grad)")

    @classmethod
    def apply(cls, *args, **kwargs):
        if kwargs:
            args = _bind_keywords(cls, args, kwargs)
        ctx = FunctionCtx()
        ctx.saved = ()
        ctx._function = cls
        ctx.needs_input_grad = tuple(
            a.__class__ in TENSOR_TYPES and a.requires_grad for a in args
        )
        previous = state.grad_enabled
        state.grad_enabled = False
        try:
            result = cls.forward(ctx, *args)
        finally:
            state.grad_enabled = previous
        if result.__class__ not in TENSOR_TYPES:
            raise TypeError(f"{cls.__name__}.forward must return a tensor, got {type(result).__name__}")
        links = _links(args) if previous else None
        if links is None or id(result) in getattr(ctx, "_non_differentiable", ()):
            return result
        ctx._input_meta = tuple((a._data.shape, a._data.dtype) if a.__class__ in TENSOR_TYPES else None
                                for a in args)
        return record(ctx, links, args, _wrap(result._data, True, ctx))


_MISSING = object()  # a parameter no argument was bound to


def _bind_keywords(cls, args: tuple, kwargs: dict) -> tuple:
    """``apply``'s keyword arguments moved to their places among ``forward``'s positional
    parameters, as PyTorch does: they become inputs like positional ones (``backward``
    returns a gradient, or None, for each), and defaults are not filled in."""
    params = [p.name for p in list(inspect.signature(cls.forward).parameters.values())[1:]
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    placed = list(args)
    for name, value in kwargs.items():
        if name not in params:
            raise TypeError(f"forward() got an unexpected keyword argument '{name}'")
        position = params.index(name)
        if position < len(args):
            raise TypeError(f"forward() got multiple values for argument '{name}'")
        placed.extend([_MISSING] * (position + 1 - len(placed)))
        placed[position] = value
    for position, value in enumerate(placed):
        if value is _MISSING:
            raise TypeError(f"forward() missing required argument: '{params[position]}' (position {position})")
    return tuple(placed)


def _sums_to(grad_shape: tuple, shape: tuple) -> bool:
    """Whether ``shape`` broadcasts to ``grad_shape`` (so summing undoes the broadcast)."""
    if len(shape) > len(grad_shape):
        return False
    tail = grad_shape[len(grad_shape) - len(shape):]
    return all(s == g or s == 1 for s, g in zip(shape, tail))


def _freed_message(node) -> str:
    return (
        f"Trying to backward through the graph a second time (or directly access saved "
        f"tensors after they have already been freed) at {node.name()}. Saved intermediate "
        f"values of the graph are freed when you call .backward() or autograd.grad(). "
        f"Specify retain_graph=True if you need to backward through the graph a second "
        f"time or if you need to access saved tensors after calling backward."
    )
