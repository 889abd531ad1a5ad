"""``Module``: the base of every layer and model, with PyTorch's API.

Assigning a ``Parameter``, a ``Module`` or a registered buffer to an attribute
registers it, so ``parameters()``, ``state_dict()`` and ``to()`` find it.

While a tracer listens, calling a module reports its dotted scope path through the
observer seam; ``nn/hooks.py`` says how paths are named.
"""
from __future__ import annotations

from collections import OrderedDict

from .. import backend, dtypes
from ..autograd import state
from ..tensor import TENSOR_TYPES
from . import state_dict as state_dicts  # the module: Module's methods share its functions' names
from .hooks import RemovableHandle, observed_call
from .parameter import Parameter


class Module:
    """Base class of every layer and model. Subclass it, call ``super().__init__()``,
    assign layers and parameters as attributes, and define ``forward``.

    >>> import ag_jupyter as ag
    >>> class Net(ag.nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.fc_1 = ag.nn.Linear(3, 2)
    ...     def forward(self, x):
    ...         return self.fc_1(x).relu()
    >>> [name for name, _ in Net().named_parameters()]
    ['fc_1.weight', 'fc_1.bias']
    """

    training: bool

    def __init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "training", True)
        set_(self, "_parameters", OrderedDict())
        set_(self, "_buffers", OrderedDict())
        set_(self, "_non_persistent_buffers", set())
        set_(self, "_modules", OrderedDict())
        set_(self, "_forward_pre_hooks", OrderedDict())
        set_(self, "_forward_hooks", OrderedDict())

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    # ----- calling ------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if state.listener is None and not self._forward_pre_hooks and not self._forward_hooks:
            return self.forward(*args, **kwargs)
        return observed_call(self, args, kwargs)

    def register_forward_pre_hook(self, hook) -> RemovableHandle:
        """``hook(module, args)`` runs before ``forward``; a returned value replaces the args."""
        handle = RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        return handle

    def register_forward_hook(self, hook) -> RemovableHandle:
        """``hook(module, args, output)`` runs after ``forward``; a returned value replaces the output."""
        handle = RemovableHandle(self._forward_hooks)
        self._forward_hooks[handle.id] = hook
        return handle

    # ----- registration -------------------------------------------------------------
    def __setattr__(self, name: str, value) -> None:
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep=params)
            params[name] = value
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as parameter '{name}' "
                                f"(ag.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            modules = self.__dict__.get("_modules")
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep=modules)
            modules[name] = value
        elif self.__dict__.get("_modules") is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as child module '{name}' "
                                f"(ag.nn.Module or None expected)")
            self._modules[name] = None
        elif self.__dict__.get("_buffers") is not None and name in self._buffers:
            if value is not None and value.__class__ not in TENSOR_TYPES:
                raise TypeError(f"cannot assign '{_type_name(value)}' as buffer '{name}' "
                                f"(ag.Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name: str, keep: OrderedDict | None = None) -> None:
        """Drop ``name`` from every table but ``keep``, the one it is about to be stored in:
        a re-assigned parameter (or module, or buffer) keeps its first place in
        ``named_parameters()`` and ``state_dict()``, as in PyTorch."""
        self.__dict__.pop(name, None)
        for table in (self._parameters, self._buffers, self._modules):
            if table is not keep:
                table.pop(name, None)
        if keep is not self._buffers:
            self._non_persistent_buffers.discard(name)

    def __getattr__(self, name: str):
        # Called only when normal lookup fails: parameters, buffers and children live here.
        found = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            entries = found.get(table)
            if entries is not None and name in entries:
                return entries[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for table in (self._parameters, self._buffers, self._modules):
            if name in table:
                del table[name]
                self._non_persistent_buffers.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        names = list(super().__dir__()) + list(self._parameters) + list(self._buffers) + list(self._modules)
        return sorted(n for n in set(names) if not n[0].isdigit())

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        _check_name(self, name, "parameter")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_type_name(param)}' object to parameter '{name}' "
                            f"(ag.nn.Parameter or None required)")
        self._forget(name, keep=self._parameters)
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor, persistent: bool = True) -> None:
        """A tensor that is state but not a parameter (saved in ``state_dict`` if persistent)."""
        _check_name(self, name, "buffer")
        if tensor is not None and tensor.__class__ not in TENSOR_TYPES:
            raise TypeError(f"cannot assign '{_type_name(tensor)}' object to buffer '{name}' "
                            f"(ag.Tensor or None required)")
        self._forget(name, keep=self._buffers)
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers.discard(name)
        else:
            self._non_persistent_buffers.add(name)

    def add_module(self, name: str, module: "Module | None") -> None:
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_type_name(module)} is not a Module subclass")
        _check_name(self, name, "module")
        self._forget(name, keep=self._modules)
        self._modules[name] = module

    register_module = add_module

    # ----- traversal ------------------------------------------------------------------
    def named_modules(self, memo: set | None = None, prefix: str = "", remove_duplicate: bool = True):
        """This module and every descendant, depth first, each once: ``('', self)``,
        ``('fc_1', ...)``, ``('block.0', ...)``."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if id(self) in memo:
                return
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            yield from module.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in seen:
                seen.add(id(module))
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, table: str, prefix: str, recurse: bool, remove_duplicate: bool = True):
        seen = set()
        owners = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for owner_name, owner in owners:
            for name, value in getattr(owner, table).items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield owner_name + ("." if owner_name else "") + name, value

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        """``(dotted_name, parameter)`` in PyTorch's order: each module's own, then its
        children's, depth first; a shared parameter appears once, under its first name."""
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True):
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def get_submodule(self, target: str) -> "Module":
        module = self
        for part in target.split(".") if target else ():
            if part not in module._modules:
                raise AttributeError(f"{type(module).__name__} has no attribute `{part}`")
            module = module._modules[part]
        return module

    def apply(self, fn) -> "Module":
        """Call ``fn`` on every child (recursively), then on this module: ``model.apply(init)``."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ----- modes and gradients -------------------------------------------------------
    def train(self, mode: bool = True) -> "Module":
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> "Module":
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> "Module":
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget every parameter's gradient (``None``, or zeros with ``set_to_none=False``)."""
        forget_grads(self.parameters(), set_to_none)

    # ----- state ----------------------------------------------------------------------
    def state_dict(self, destination=None, prefix: str = "", keep_vars: bool = False) -> OrderedDict:
        """Every parameter and persistent buffer by dotted name. The values share memory
        with the model (detached unless ``keep_vars``), as in PyTorch."""
        return state_dicts.state_dict(self, destination, prefix, keep_vars)

    def load_state_dict(self, state_dict, strict: bool = True):
        """Copy values from ``state_dict``. Every key and shape is checked first: a refused
        load raises and changes nothing. Returns ``(missing_keys, unexpected_keys)``."""
        return state_dicts.load_state_dict(self, state_dict, strict)

    # ----- devices and dtypes ---------------------------------------------------------
    def _apply(self, convert) -> "Module":
        """Replace each parameter's and buffer's array in place (the objects stay the same,
        so an optimizer built before ``to()`` keeps working, as in PyTorch)."""
        for module in self.modules():
            for param in module._parameters.values():
                if param is None:
                    continue
                param._data = convert(param._data)
                if param.grad is not None:
                    param.grad._data = convert(param.grad._data)
            for buffer in module._buffers.values():
                if buffer is not None:
                    buffer._data = convert(buffer._data)
        return self

    def to(self, *args, **kwargs) -> "Module":
        """``to(device)``, ``to(dtype)`` or both: moves parameters and buffers; a dtype
        applies to floating-point ones only."""
        target_device, target_dtype = kwargs.get("device"), kwargs.get("dtype")
        for arg in args:
            if isinstance(arg, dtypes.dtype):
                target_dtype = arg
            elif arg.__class__ in TENSOR_TYPES:
                target_device, target_dtype = arg.device, arg.dtype
            elif arg is not None:
                target_device = arg
        device = None if target_device is None else backend.as_device(target_device)
        numpy_dtype = None if target_dtype is None else dtypes.to_numpy(target_dtype)
        if numpy_dtype is not None and numpy_dtype.kind != "f":
            raise TypeError(f"nn.Module.to only accepts floating point dtypes, but got desired "
                            f"dtype={target_dtype!r}")

        def convert(array):
            if numpy_dtype is not None and array.dtype.kind == "f" and array.dtype != numpy_dtype:
                array = array.astype(numpy_dtype)
            return array if device is None else backend.move(array, device)

        return self._apply(convert)

    def cpu(self) -> "Module":
        return self.to("cpu")

    def cuda(self, device=None) -> "Module":
        return self.to("cuda" if device is None else f"cuda:{device}" if isinstance(device, int) else device)

    def float(self) -> "Module":
        return self.to(dtypes.float32)

    def double(self) -> "Module":
        return self.to(dtypes.float64)

    def half(self) -> "Module":
        return self.to(dtypes.float16)

    # ----- printing -------------------------------------------------------------------
    def extra_repr(self) -> str:
        """What goes inside the parentheses of this module's repr line."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): " + _indent(repr(module), 2) for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        if not lines:
            return self._get_name() + "()"
        if len(extra_lines) == 1 and not child_lines:
            return f"{self._get_name()}({extra_lines[0]})"
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


def forget_grads(params, set_to_none: bool) -> None:
    """``zero_grad`` for modules and optimizers alike."""
    for param in params:
        if param.grad is None:
            continue
        if set_to_none:
            param.grad = None
        else:
            zero_in_place(param.grad)


def zero_in_place(grad) -> None:
    """``grad.zero_()`` for a gradient, cut from any graph (``set_to_none=False``)."""
    grad.grad_fn = None
    grad._requires_grad = False
    array = grad._data
    xp = backend.array_module(array)
    if isinstance(array, xp.ndarray) and getattr(array.flags, "writeable", True):  # CuPy has no flag
        array[...] = 0
    else:  # a NumPy scalar or a read-only view: replace it
        grad._data = xp.zeros_like(array)


def _indent(text: str, spaces: int) -> str:
    first, *rest = text.split("\n")
    return "\n".join([first] + [" " * spaces + line for line in rest])


def _type_name(value) -> str:
    if value.__class__ in TENSOR_TYPES:
        return f"ag.{value.dtype.tensor_type}"
    return type(value).__name__


def _check_name(module: Module, name: str, kind: str) -> None:
    if "_parameters" not in module.__dict__:
        raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')
    if "." in name:
        raise KeyError(f'{kind} name can\'t contain ".", got: {name}')
    if hasattr(module, name) and name not in module._parameters and name not in module._buffers \
            and name not in module._modules:
        raise KeyError(f"attribute '{name}' already exists")
