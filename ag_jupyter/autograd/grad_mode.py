"""no_grad, enable_grad and set_grad_enabled, as context managers and decorators."""
from __future__ import annotations

import functools

from . import state


class _GradMode:
    """Sets grad mode for a block, restoring the old mode after; also a decorator, with
    or without parentheses (``@ag.no_grad`` and ``@ag.no_grad()``), as in PyTorch."""

    _target = True

    # No __init__: ``with ag.no_grad():`` runs once per optimizer step, and each Python
    # call in it costs as much as the switch itself (object's __init__ ignores ``func``).
    def __new__(cls, func=None):
        if func is not None and callable(func):  # @no_grad without parentheses
            return cls()(func)
        return object.__new__(cls)

    def __enter__(self):
        self._previous = state.grad_enabled
        state.grad_enabled = self._target
        return self

    def __exit__(self, exc_type, exc, traceback):
        state.grad_enabled = self._previous
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return func(*args, **kwargs)

        return wrapper


class no_grad(_GradMode):
    """Run a block without recording the graph.

    >>> import ag_jupyter as ag
    >>> x = ag.ones(2, requires_grad=True)
    >>> with ag.no_grad():
    ...     y = x * 2
    >>> y.requires_grad
    False
    """

    _target = False


class enable_grad(_GradMode):
    """Record the graph again inside a ``no_grad`` block."""

    _target = True


class inference_mode(_GradMode):
    """``inference_mode()``: here the same as ``no_grad`` (PyTorch's also skips version
    counting, an optimisation with no effect on values); ``inference_mode(False)`` leaves
    grad mode as it is."""

    def __new__(cls, mode=True):
        if callable(mode):  # @inference_mode without parentheses
            return no_grad()(mode)
        return object.__new__(cls)

    def __init__(self, mode=True):
        self._mode = bool(mode)

    def __enter__(self):
        self._previous = state.grad_enabled
        if self._mode:
            state.grad_enabled = False
        return self

    def __call__(self, func):
        mode = self._mode

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return func(*args, **kwargs)

        return wrapper


class set_grad_enabled(_GradMode):
    """``set_grad_enabled(False)`` works as a call, a context manager or a decorator."""

    def __new__(cls, mode: bool):
        return object.__new__(cls)

    def __init__(self, mode: bool):
        self._previous = state.grad_enabled
        self._target = bool(mode)
        state.grad_enabled = self._target

    def __enter__(self):
        return self

    def __call__(self, func):
        state.grad_enabled = self._previous
        target = self._target

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(target):
                return func(*args, **kwargs)

        return wrapper


def is_grad_enabled() -> bool:
    return state.grad_enabled
