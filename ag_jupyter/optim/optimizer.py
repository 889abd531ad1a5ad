"""``Optimizer``: parameter groups, per-parameter state, and saving both.

A subclass defines ``step()``. Updates work on the parameters' arrays in place,
under no_grad, and bump their version counters as PyTorch's do, so a graph that
saved a weight before the step refuses to backward through the changed value.
State tensors (momentum and the like) are made with the parameter's own array
module, so they live on the parameter's device.
"""
from __future__ import annotations

import itertools
import warnings
from collections import defaultdict

import numpy

from ..autograd import state as autograd_state
from ..autograd import versions
from ..autograd.grad_mode import enable_grad, no_grad
from ..backend import array_module, move
from ..nn.module import forget_grads
from ..tensor import TENSOR_TYPES, Tensor, _wrap


class Optimizer:
    """Base class: holds ``param_groups`` (dicts with ``'params'`` and hyperparameters)
    and ``state`` (parameter -> dict of its buffers)."""

    def __init__(self, params, defaults: dict) -> None:
        self.defaults = defaults
        self.state: dict = defaultdict(dict)  # as PyTorch: opt.state[p] is {} before p's first step
        self.param_groups: list[dict] = []
        if params.__class__ in TENSOR_TYPES:
            raise TypeError(f"params argument given to the optimizer should be an iterable of Tensors "
                            f"or dicts, but got ag.{params.dtype.tensor_type}")
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict) -> None:
        """Add a group of parameters with its own hyperparameters (missing ones take the defaults)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if params.__class__ in TENSOR_TYPES:
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the "
                            "ordering of tensors in sets will change between runs. Please use a list instead.")
        params = list(params)
        for param in params:
            if param.__class__ not in TENSOR_TYPES:
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is "
                                f"{type(param).__name__}")
            if param.grad_fn is not None:
                raise ValueError("can't optimize a non-leaf Tensor")
        if len({id(p) for p in params}) != len(params):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; "
                          "in future, this will cause an error", stacklevel=3)
        group = dict(param_group, params=params)
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        taken = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in taken for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget every parameter's gradient (``None``, or zeros with ``set_to_none=False``)."""
        listener = autograd_state.listener
        if listener is not None:  # a trace shows the gradients going
            listener.on_grads_cleared([p for g in self.param_groups for p in g["params"] if p.grad is not None],
                                      set_to_none)
        for group in self.param_groups:
            forget_grads(group["params"], set_to_none)

    def step(self, closure=None):
        """Update every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                self._update_group(group)
        return loss

    def _update_group(self, group: dict) -> None:  # pragma: no cover - every optimizer defines it
        raise NotImplementedError

    @staticmethod
    def _gradients(group: dict, decay_into_gradient: bool = True):
        """(param, gradient) for each parameter with a grad, after ``maximize`` and (unless
        the optimizer decays the weights themselves, as AdamW) weight decay, as PyTorch's
        optimizers start their update. The parameter's array is an ndarray by then, so the
        update writes into it."""
        for param in group["params"]:
            if param.grad is None:
                continue
            own_array(param)
            grad = param.grad._data
            if group["maximize"]:
                grad = -grad
            if decay_into_gradient and group["weight_decay"] != 0:
                grad = grad + group["weight_decay"] * param._data
            yield param, grad

    # ----- saving ---------------------------------------------------------------------
    def state_dict(self) -> dict:
        """``{'state': {index: {...}}, 'param_groups': [{..., 'params': [index, ...]}]}``,
        parameters numbered in group order, as PyTorch does. Tensors are shared, not copied."""
        numbering: dict = {}
        groups = []
        for group in self.param_groups:
            for param in group["params"]:
                numbering.setdefault(id(param), len(numbering))
            packed = {k: v for k, v in group.items() if k != "params"}
            packed["params"] = [numbering[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {numbering[id(p)]: dict(s) for p, s in self.state.items() if id(p) in numbering}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict) -> None:
        """Take the hyperparameters and state of ``state_dict`` (from ``state_dict()``,
        possibly through ``ag.save``/``ag.load``). Checks everything before changing anything."""
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(self.param_groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the "
                             "size of optimizer's group")
        by_index = dict(zip(itertools.chain.from_iterable(s["params"] for s in saved_groups),
                            itertools.chain.from_iterable(g["params"] for g in self.param_groups)))
        new_state = {}
        for index, saved in state_dict["state"].items():
            param = by_index.get(index)
            if param is not None:
                new_state[param] = {k: _state_value(k, v, param, index) for k, v in saved.items()}
        self.state = defaultdict(dict, new_state)
        self.param_groups = [dict(saved, params=group["params"])
                             for group, saved in zip(self.param_groups, saved_groups)]

    def __repr__(self) -> str:
        lines = [type(self).__name__ + " ("]
        for i, group in enumerate(self.param_groups):
            if i:
                lines.append("")
            lines.append(f"Parameter Group {i}")
            lines.extend(f"    {key}: {group[key]}" for key in sorted(group) if key != "params")
        return "\n".join(lines + [")"])


def _state_value(key: str, value, param: Tensor, index):
    """A saved state entry on the parameter's device and (floats) dtype. As PyTorch's
    ``.to()``, the tensor itself when it is there already: an optimizer loaded from another's
    ``state_dict()`` in the same process shares its state tensors, and stepping one moves
    the other's (through ``ag.save``/``ag.load`` they are new tensors)."""
    if value.__class__ not in TENSOR_TYPES:
        return value
    own_array(value)  # a tensor shared with another optimizer stays shared, and takes writes
    if key == "step":  # step stays a float32 CPU tensor
        return value
    array = value._data
    if tuple(array.shape) != tuple(param.shape):
        raise ValueError(f"optimizer state '{key}' of parameter {index} has shape {list(array.shape)}, "
                         f"but the parameter has shape {list(param.shape)}")
    target_dtype = param._data.dtype if array.dtype.kind == "f" else array.dtype
    if array.dtype == target_dtype and value.device == param.device:
        return value
    return _wrap(move(array.astype(target_dtype), param.device), False, None)


def implementation_options(optimizer: str, **options) -> dict:
    """PyTorch's switches between implementations of one update, accepted so that pasted
    code runs, and kept in the param groups as PyTorch keeps them: ``foreach`` and
    ``fused`` pick among kernels that compute the same update (here there is one), so
    they change nothing; ``capturable`` (CUDA graphs) and ``differentiable`` (a step that
    autograd records) are refused when asked for, never silently ignored."""
    if options.get("fused") and options.get("differentiable"):
        raise RuntimeError("`fused` does not support `differentiable`")
    if options.get("fused") and options.get("foreach"):
        raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
    for name, what in (("differentiable", "a step that autograd records, to differentiate through"),
                       ("capturable", "a step for CUDA graphs")):
        if options.get(name):
            raise NotImplementedError(f"ag.optim.{optimizer}({name}=True): {what}, is not supported here; "
                                      f"leave {name}=False (the update's numbers are the same)")
    return options


def report_update(listener, optimizer: str, param: Tensor, old, lr, grad, direction, **numbers) -> None:
    """Tell a trace's ``listener`` what one parameter's update was, in the optimizer's own
    numbers: ``new = old - lr * direction`` (after AdamW's ``old * (1 - lr * weight_decay)``),
    ``grad`` the gradient as the update used it (after ``maximize`` and coupled weight decay),
    ``numbers`` the state and settings the rule read (arrays are summarized at once)."""
    listener.on_update(param, dict(numbers, optimizer=optimizer, old=old, lr=lr, grad=grad, direction=direction,
                                   new=param._data))


def updated(param: Tensor) -> None:
    """Record that an optimizer changed ``param`` in place."""
    versions.bump(param._data)


def own_array(tensor: Tensor) -> None:
    """Make ``tensor``'s data an ndarray if it is a NumPy scalar (what a whole reduction
    gives: every 0-d gradient is one). A scalar is immutable: ``data *= 0.9`` on it makes a
    new scalar and rebinds the name, so an update written in place would be lost."""
    if tensor._data.__class__ is numpy.ndarray:  # nearly always: one check on the step's path
        return
    xp = array_module(tensor._data)
    if not isinstance(tensor._data, xp.ndarray):
        tensor._data = xp.array(tensor._data)


def new_state_tensor(array) -> Tensor:
    """A state buffer (momentum, running averages) holding its own copy of ``array``, always
    an ndarray: a copy of a NumPy scalar, or arithmetic on one, is a scalar again, and the
    buffer's in-place updates would never reach it (SGD's momentum of a 0-d parameter did
    not move). Made with the array's own module, so the state lives on its device."""
    return _wrap(array_module(array).array(array, copy=True), False, None)


def filled_state_tensor(param: Tensor, value: float = 0) -> Tensor:
    """A state buffer of ``param``'s shape, dtype and device, every entry ``value``."""
    xp = array_module(param._data)
    return _wrap(xp.full(param._data.shape, value, dtype=param._data.dtype), False, None)


def lerp_into(start, end, weight: float) -> None:
    """``start.lerp_(end, weight)`` in place, with PyTorch's two formulas (the one with the
    smaller rounding error on each side of 1/2), so running averages match it bit for bit."""
    if weight < 0.5:
        start += weight * (end - start)
    else:
        start[...] = end - (end - start) * (1 - weight)
