"""Tensor hooks and retain_grad, kept off the tensor so the per-op path never sees them.

A leaf's hooks are keyed by the leaf; a computed tensor's by its ``grad_fn``, since
the engine meets the gradient of a computed tensor at that node. Entries go away
with the object they belong to.
"""
from __future__ import annotations

import weakref

from ..core import TENSOR_TYPES

leaf_hooks: dict[int, list] = {}
node_hooks: dict[int, list] = {}


class RemovableHandle:
    def __init__(self, table: dict, key: int, hook):
        self._table, self._key, self._hook = table, key, hook

    def remove(self) -> None:
        hooks = self._table.get(self._key)
        if hooks and self._hook in hooks:
            hooks.remove(self._hook)
            if not hooks:
                del self._table[self._key]


class _Retainer:
    """The hook retain_grad installs: store the gradient on the (weakly held) tensor."""

    def __init__(self, tensor):
        self.tensor = weakref.ref(tensor)

    def __call__(self, grad):
        tensor = self.tensor()
        if tensor is not None:
            tensor.grad = grad if tensor.grad is None else tensor.grad + grad
        return None


def _add(table: dict, owner, hook) -> RemovableHandle:
    key = id(owner)
    if key not in table:
        table[key] = []
        weakref.finalize(owner, table.pop, key, None)
    table[key].append(hook)
    return RemovableHandle(table, key, hook)


def register(tensor, hook) -> RemovableHandle:
    if tensor.grad_fn is None:
        return _add(leaf_hooks, tensor, hook)
    return _add(node_hooks, tensor.grad_fn, hook)


def retain(tensor) -> None:
    if not retains(tensor):
        _add(node_hooks, tensor.grad_fn, _Retainer(tensor))


def retains(tensor) -> bool:
    if tensor.grad_fn is None:
        return False
    return any(isinstance(h, _Retainer) and h.tensor() is tensor
               for h in node_hooks.get(id(tensor.grad_fn), ()))


def move_retainer(tensor, node) -> None:
    """``tensor`` now has ``node`` as its history (an in-place op): its retained grad is
    the gradient of the new value, as in PyTorch. Hooks registered before stay behind
    and see the old value's gradient, as PyTorch documents."""
    old = tensor.grad_fn
    if old is None or old is node:
        return
    table = node_hooks.get(id(old))
    if not table:
        return
    for hook in table:
        if isinstance(hook, _Retainer) and hook.tensor() is tensor:
            table.remove(hook)
            if not table:
                del node_hooks[id(old)]
            _add(node_hooks, node, hook)
            return


def run(hooks: list, grad, wrap, unwrap):
    """Call each hook with the gradient as a tensor; a returned tensor replaces it.
    Retainers run last, so a retained grad is the one after every hook, as in PyTorch."""
    ordered = [h for h in hooks if not isinstance(h, _Retainer)] + [h for h in hooks if isinstance(h, _Retainer)]
    for hook in ordered:
        if isinstance(hook, _Retainer):
            hook(wrap(grad, copy=True))
            continue
        replaced = hook(wrap(grad, copy=False))
        if replaced is not None:
            _check_replacement(hook, grad, replaced)
            grad = unwrap(replaced)
    return grad


def _check_replacement(hook, grad, replaced) -> None:
    """PyTorch refuses a hook's gradient of another kind, size or dtype than the one it got."""
    name = getattr(hook, "__name__", type(hook).__name__)
    if replaced.__class__ not in TENSOR_TYPES:
        raise TypeError(f"expected Tensor, but hook '{name}' returned '{type(replaced).__name__}'")
    before = grad._data if grad.__class__ in TENSOR_TYPES else grad
    after = replaced._data
    if tuple(after.shape) != tuple(before.shape):
        raise RuntimeError(f"hook '{name}' has changed the size of value (was {list(before.shape)}, "
                           f"got {list(after.shape)}): a hook must return a gradient of the same shape")
    if after.dtype != before.dtype:
        raise RuntimeError(f"hook '{name}' has changed the type of value (was {before.dtype}, got "
                           f"{after.dtype}): a hook must return a gradient of the same dtype")
