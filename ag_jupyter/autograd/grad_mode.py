"""no_grad, enable_grad and set_grad_enabled, as context managers and decorators."""
from __future__ import annotations

import functools

from . import state


class _GradMode:
    """Sets grad mode for a block, restoring the old mode after; also a decorator."""

    _target = True

    def __enter__(self):
        self._previous = state.grad_enabled
        state.grad_enabled = self._target
        return self

    def __exit__(self, *exc_info):
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


class set_grad_enabled(_GradMode):
    """``set_grad_enabled(False)`` works as a call, a context manager or a decorator."""

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
