"""Shape primitives: reshape/view, transpose, permute, squeeze, unsqueeze, expand,
cat, stack, clone and dtype conversion. Their backward only moves numbers around."""
from __future__ import annotations

from ..autograd.algebra import sum_to
from ..autograd.function import Op
from ..autograd.views import ViewOp
from ..backend import array_module
from ..promotion import result_type
from .dims import normalize_dim


def sizes_from(args) -> tuple:
    """``reshape(2, 3)`` and ``reshape((2, 3))`` both mean (2, 3)."""
    if len(args) == 1 and not isinstance(args[0], int):
        return tuple(args[0])
    return tuple(args)


def _check_shape(shape: tuple, size: int) -> None:
    """PyTorch's refusal of a shape that cannot hold ``size`` elements."""
    known = [s for s in shape if s != -1]
    total = 1
    for s in known:
        total *= s
    if shape.count(-1) > 1 or any(s < -1 for s in shape) or (
        total != size if -1 not in shape else (total == 0 or size % total)
    ):
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {size}")


class Reshape(ViewOp):
    """``reshape``/``view``: a view when the memory allows it (as PyTorch decides), else a
    copy; ``view`` (``must_view``) refuses to copy, as PyTorch's does."""

    __slots__ = ("in_shape",)
    node_name = "ViewBackward0"
    symbol = "view"
    formula = r"\frac{\partial u}{\partial a} = \text{the same numbers, in } a\text{'s shape}"

    def forward(self, a, shape, must_view=False):
        x = a._data
        self.in_shape = x.shape
        # NumPy refuses the shapes PyTorch refuses (the message is PyTorch's) but one: it
        # reads any negative size as -1
        try:
            out = x.reshape(shape)
        except (ValueError, TypeError):
            _check_shape(shape, x.size)
            raise
        if shape and min(shape) < -1:
            _check_shape(shape, x.size)
        # a view's ``base`` is the memory's owner; only a copy's is some other array
        if must_view and x.size > 1 and out.base is not (x if x.base is None else x.base) \
                and not array_module(x).may_share_memory(x, out):
            raise RuntimeError(
                f"view size is not compatible with input tensor's size and stride (at least one "
                f"dimension spans across two contiguous subspaces). Use .reshape(...) instead "
                f"(input shape {list(x.shape)}, requested {list(shape)})."
            )
        return out

    def backward(self, F, grad):
        return (F.reshape(grad, self.in_shape),)


class Permute(ViewOp):
    __slots__ = ("dims",)
    node_name = "PermuteBackward0"
    symbol = "permute"
    formula = r"\frac{\partial u}{\partial a} = \text{the inverse permutation}"

    def forward(self, a, dims):
        ndim = a._data.ndim
        dims = tuple(normalize_dim(d, ndim) for d in dims)
        if sorted(dims) != list(range(ndim)):
            raise RuntimeError(
                f"permute(sparse_coo): number of dimensions in the tensor input does not match "
                f"the length of the desired ordering of dimensions i.e. input.dim() = {ndim} "
                f"is not equal to len(dims) = {len(dims)}" if len(dims) != ndim
                else f"permute(): duplicate dims are not allowed, got {list(dims)}"
            )
        self.dims = dims
        return a._data.transpose(dims)

    def backward(self, F, grad):
        inverse = [0] * len(self.dims)
        for i, d in enumerate(self.dims):
            inverse[d] = i
        return (F.permute(grad, tuple(inverse)),)


class Transpose(ViewOp):
    __slots__ = ("pair",)
    node_name = "TransposeBackward0"
    symbol = "ᵀ"
    formula = r"\frac{\partial u}{\partial a} = \text{the transpose back}"

    def forward(self, a, dim0, dim1):
        ndim = a._data.ndim
        self.pair = (normalize_dim(dim0, ndim), normalize_dim(dim1, ndim)) if ndim else (0, 0)
        return a._data.swapaxes(*self.pair) if ndim else a._data

    def backward(self, F, grad):
        return (F.swapaxes(grad, *self.pair) if grad.ndim else grad,)


class T(Transpose):
    """``t()`` of a matrix: PyTorch names its node TBackward0."""

    __slots__ = ()
    node_name = "TBackward0"

    def forward(self, a):
        return Transpose.forward(self, a, 0, 1)


class Squeeze(Reshape):
    __slots__ = ("all_dims",)
    node_name = "SqueezeBackward0"
    symbol = "squeeze"

    def forward(self, a, dim=None):
        x = a._data
        self.in_shape = x.shape
        self.all_dims = dim is None
        if dim is None:
            return x.reshape(tuple(s for s in x.shape if s != 1))
        dims = {normalize_dim(d, x.ndim) for d in ((dim,) if isinstance(dim, int) else dim)}
        return x.reshape(tuple(s for i, s in enumerate(x.shape) if not (i in dims and s == 1)))

    def name(self) -> str:
        return "SqueezeBackward0" if self.all_dims else "SqueezeBackward1"


class Unsqueeze(Reshape):
    __slots__ = ()
    node_name = "UnsqueezeBackward0"
    symbol = "unsqueeze"

    def forward(self, a, dim):
        x = a._data
        self.in_shape = x.shape
        axis = normalize_dim(dim, x.ndim + 1)
        return x.reshape(x.shape[:axis] + (1,) + x.shape[axis:])


class Expand(ViewOp):
    __slots__ = ("in_shape",)
    node_name = "ExpandBackward0"
    symbol = "expand"
    formula = r"\frac{\partial u}{\partial a} = \text{sum over the repeated dimensions}"

    def forward(self, a, sizes):
        x = a._data
        self.in_shape = x.shape
        if len(sizes) < x.ndim:
            raise RuntimeError(
                f"expand: the number of sizes provided ({len(sizes)}) must be greater or equal to "
                f"the number of dimensions in the tensor ({x.ndim})"
            )
        lead = len(sizes) - x.ndim
        for i in range(lead):
            if sizes[i] < 0:
                raise RuntimeError(f"The expanded size of the tensor ({sizes[i]}) isn't allowed in a "
                                   f"leading, non-existing dimension {i}")
        target = list(sizes)
        for i, size in enumerate(x.shape):
            want = sizes[lead + i]
            if want == -1:
                target[lead + i] = size
            elif size != 1 and want != size:
                raise RuntimeError(
                    f"The expanded size of the tensor ({want}) must match the existing size ({size}) "
                    f"at non-singleton dimension {lead + i}.  Target sizes: {list(sizes)}.  "
                    f"Tensor sizes: {list(x.shape)}"
                )
        if all(t == 1 for t in target[:lead]) and tuple(target[lead:]) == x.shape:
            return x.reshape(tuple(target))  # nothing repeats: a writable view, as in PyTorch
        return array_module(x).broadcast_to(x, tuple(target))

    def backward(self, F, grad):
        return (sum_to(F, grad, self.in_shape),)


class Clone(Op):
    __slots__ = ()
    node_name = "CloneBackward0"
    symbol = "clone"
    formula = r"\frac{\partial u}{\partial a} = 1"

    def forward(self, a):
        return a._data.copy()

    def backward(self, F, grad):
        return (grad,)


class Cat(Op):
    """All arguments but the last are inputs; the last is ``dim``."""

    __slots__ = ("sizes", "axis", "dtypes")
    arity = None
    node_name = "CatBackward0"
    symbol = "cat"
    formula = r"\frac{\partial u}{\partial a_k} = \text{the slice of } u \text{ that } a_k \text{ filled}"

    def forward(self, *args):
        *tensors, dim = args
        if not tensors:
            raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
        arrays = [t._data for t in tensors]
        for k, x in enumerate(arrays):
            if x.ndim == 0:
                raise RuntimeError(f"zero-dimensional tensor (at position {k}) cannot be concatenated "
                                   f"(use stack, or reshape it to one element first)")
        self.axis = normalize_dim(dim, arrays[0].ndim)
        first = arrays[0].shape
        for k, x in enumerate(arrays):
            if x.ndim != len(first) or any(
                s != f for i, (s, f) in enumerate(zip(x.shape, first)) if i != self.axis
            ):
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {self.axis}. Expected size "
                    f"{list(first)} but got size {list(x.shape)} for tensor number {k} in the list."
                )
        self.sizes = [x.shape[self.axis] for x in arrays]
        arrays = self.promote(arrays)
        return array_module(arrays[0]).concatenate(arrays, axis=self.axis)

    def promote(self, arrays):
        """Mixed dtypes are promoted as PyTorch promotes them (not as NumPy's concatenate)."""
        self.dtypes = None
        if any(x.dtype != arrays[0].dtype for x in arrays):
            common = result_type(*[x if x.ndim else x.reshape(1) for x in arrays])
            self.dtypes = [x.dtype for x in arrays]
            arrays = [x.astype(common) for x in arrays]
        return arrays

    def cast_back(self, F, grads):
        if self.dtypes is None:
            return tuple(grads)
        return tuple(F.cast(g, d) if d.kind == "f" else g for g, d in zip(grads, self.dtypes))

    def backward(self, F, grad):
        grads, start = [], 0
        lead = (slice(None),) * self.axis
        for size in self.sizes:
            grads.append(grad[lead + (slice(start, start + size),)])
            start += size
        return self.cast_back(F, grads)


class Stack(Cat):
    __slots__ = ()
    node_name = "StackBackward0"
    symbol = "stack"
    formula = r"\frac{\partial u}{\partial a_k} = u_k"

    def forward(self, *args):
        *tensors, dim = args
        if not tensors:
            raise RuntimeError("stack expects a non-empty TensorList")
        arrays = [t._data for t in tensors]
        for k, x in enumerate(arrays):
            if x.shape != arrays[0].shape:
                raise RuntimeError(
                    f"stack expects each tensor to be equal size, but got {list(arrays[0].shape)} "
                    f"at entry 0 and {list(x.shape)} at entry {k}"
                )
        self.axis = normalize_dim(dim, arrays[0].ndim + 1)
        self.sizes = [1] * len(arrays)
        arrays = self.promote(arrays)
        return array_module(arrays[0]).stack(arrays, axis=self.axis)

    def backward(self, F, grad):
        lead = (slice(None),) * self.axis
        return self.cast_back(F, [grad[lead + (k,)] for k in range(len(self.sizes))])


# ----- the functions users call ----------------------------------------------------

def reshape(input, *shape):
    return Reshape.apply(input, sizes_from(shape))


def flatten(input, start_dim=0, end_dim=-1):
    shape = input.shape
    start, end = normalize_dim(start_dim, len(shape)), normalize_dim(end_dim, len(shape))
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim "
                           f"(start_dim={start_dim}, end_dim={end_dim} of a tensor of shape {list(shape)})")
    if not shape:
        return Reshape.apply(input, (1,))
    if start == end:
        return input  # nothing to merge: PyTorch returns the tensor itself
    size = 1
    for s in shape[start:end + 1]:
        size *= s
    return Reshape.apply(input, tuple(shape[:start]) + (size,) + tuple(shape[end + 1:]))


def transpose(input, dim0, dim1):
    return Transpose.apply(input, dim0, dim1)


def t(input):
    """``torch.t``: the transpose of a matrix (a vector or a scalar as it is)."""
    return input.t()


def permute(input, *dims):
    return Permute.apply(input, sizes_from(dims))


def squeeze(input, dim=None):
    return Squeeze.apply(input, dim)


def unsqueeze(input, dim):
    return Unsqueeze.apply(input, dim)


def cat(tensors, dim=0):
    return Cat.apply(*tensors, dim)


def stack(tensors, dim=0):
    return Stack.apply(*tensors, dim)
