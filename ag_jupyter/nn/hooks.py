"""Calling a module with hooks or a listener: forward hooks, and the scope path.

**Scope paths.** While a tracer listens (``autograd.state.listener`` is set), each
call of a module tells it ``on_module_enter(path, module)`` before ``forward`` (and
before the pre-hooks) and ``on_module_exit(path, module)`` after the forward hooks,
also when forward raises. ``path`` is dotted:

- the module called from outside any other module's forward is the root and is
  named after its class: ``DynamicNet``;
- a module called inside another's forward adds the name under which that module
  holds it: ``DynamicNet.middle_linear``, ``Sequential.0``, or ``Net.block.fc``
  when it is a grandchild;
- a module run inside a forward that does not hold it gets its class name:
  ``Net.Linear``.

A listener that knows the user's variable name for the root (the magics do) can
swap the first segment. A layer reused in one forward gets the same path each time.
With no listener, no path is computed.
"""
from __future__ import annotations

from ..autograd import state

_running: list = []  # (path, module) of each forward now running, while a listener listens
# id(parent) -> {id(descendant): its dotted name}: for the modules a forward calls that it
# holds deeper than its own children (a ModuleList's blocks), built once per parent while the
# outermost call runs, not walked again per call (1,250 blocks made that walk quadratic:
# seconds). Emptied when the outermost call ends, so no id outlives its module here.
_descendants: dict = {}


class RemovableHandle:
    """Returned by ``register_forward_hook``: ``remove()`` unregisters the hook.
    It is also a context manager that removes the hook on exit."""

    _next_id = 0

    def __init__(self, table: dict):
        self._table = table
        self.id = RemovableHandle._next_id
        RemovableHandle._next_id += 1

    def remove(self) -> None:
        self._table.pop(self.id, None)

    def __enter__(self) -> "RemovableHandle":
        return self

    def __exit__(self, *exc_info) -> None:
        self.remove()


def observed_call(module, args: tuple, kwargs: dict):
    """``module(*args, **kwargs)`` with its hooks run and the listener told."""
    listener = state.listener
    path = None
    if listener is not None:
        path = path_of(module)
        _running.append((path, module))
        listener.on_module_enter(path, module)
    try:
        for hook in list(module._forward_pre_hooks.values()):
            result = hook(module, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        output = module.forward(*args, **kwargs)
        for hook in list(module._forward_hooks.values()):
            result = hook(module, args, output)
            if result is not None:
                output = result
        return output
    finally:
        if path is not None:
            _running.pop()
            if not _running:
                _descendants.clear()
            listener.on_module_exit(path, module)


def path_of(module) -> str:
    """The dotted scope path ``module`` gets if it is called now."""
    if not _running:
        return type(module).__name__
    parent_path, parent = _running[-1]
    for name, child in parent._modules.items():
        if child is module:
            return f"{parent_path}.{name}"
    name = _descendant_name(parent, module, fresh=False)
    if name is None:  # a module the forward added to its tree since the names were gathered
        name = _descendant_name(parent, module, fresh=True)
    return f"{parent_path}.{name if name is not None else type(module).__name__}"


def _descendant_name(parent, module, fresh: bool):
    names = None if fresh else _descendants.get(id(parent))
    if names is None:
        names = {}
        for name, child in parent.named_modules():
            if name:
                names.setdefault(id(child), name)  # a shared module keeps its first name, as named_modules gives it
        _descendants[id(parent)] = names
    return names.get(id(module))
