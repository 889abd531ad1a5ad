"""The losses PyTorch draws as one node: ``mse_loss`` is ``MseLossBackward0`` and
``nll_loss`` is ``NllLossBackward0`` in its graphs, so each is one op here. (``linear``
on a batch, ``AddmmBackward0``, is in ``linalg.py``; everything else in ``nn`` is
composed from existing ops.)
"""
from __future__ import annotations

import numpy

from .. import deferred_checks, gpu_kernels
from ..autograd.algebra import sum_to
from ..autograd.function import Op
from ..backend import array_module, require_same_device
from ..core import TENSOR_TYPES
from ..dtypes import scalar_type_name
from ..promotion import require_floating, result_type


def _reduce(values, reduction: str):
    if reduction == "mean":
        return values.mean()
    if reduction == "sum":
        return values.sum()
    return values


def check_reduction(reduction: str) -> str:
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


class MseLoss(Op):
    """Mean (or sum, or each) of ``(input - target) ** 2``."""

    __slots__ = ("reduction", "count", "shapes", "dtypes")
    arity = 2
    node_name = "MseLossBackward0"
    symbol = "MSE"
    formula = (r"u = \tfrac{1}{n}\textstyle\sum_i (a_i - t_i)^2:\quad "
               r"\frac{\partial u}{\partial a_i} = \tfrac{2}{n}(a_i - t_i) = -\frac{\partial u}{\partial t_i}")
    formula_args = ("a", "t")  # the input, the target

    def forward(self, input, target, reduction):
        x, t = input._data, target._data
        common = result_type(x, t)
        require_floating(numpy.empty(0, common), "mse_loss")
        self.dtypes = (x.dtype, t.dtype) if x.dtype != t.dtype else None
        diff = x.astype(common, copy=False) - t.astype(common, copy=False)
        self.reduction = reduction
        self.count = diff.size
        self.shapes = (x.shape, t.shape) if x.shape != t.shape else None
        self.saved = (input, target)
        return _reduce(diff * diff, reduction)

    def backward(self, F, grad):
        input, target = self.saved
        diff = F.value(input) - F.value(target)
        # an empty input has a NaN mean and an empty gradient, as in PyTorch
        scale = 2.0 / max(self.count, 1) if self.reduction == "mean" else 2.0
        local = diff * (grad * scale)  # grad is a scalar unless reduction="none"
        follow_input, follow_target = self._next
        grad_input = local if follow_input is not None else None
        grad_target = -local if follow_target is not None else None
        if self.shapes is not None:
            grad_input = None if grad_input is None else sum_to(F, grad_input, self.shapes[0])
            grad_target = None if grad_target is None else sum_to(F, grad_target, self.shapes[1])
        if self.dtypes is not None:  # each input's gradient in its own dtype, as in PyTorch
            grad_input = None if grad_input is None else F.cast(grad_input, self.dtypes[0])
            grad_target = None if grad_target is None else F.cast(grad_target, self.dtypes[1])
        return grad_input, grad_target


class NllLoss(Op):
    """Negative log-likelihood of class indices: ``-input[i, target[i]]``, weighted.

    ``input`` is ``(C,)``, ``(N, C)`` or ``(N, C, d1, ...)`` (classes on dim 1);
    ``target`` holds class indices, ``ignore_index`` entries contribute nothing, and
    ``mean`` divides by the total weight of the targets that count, as PyTorch does.
    Internally every case is a table of rows ``(M, C)`` with one target per row.
    """

    __slots__ = ("target", "weights", "total", "reduction", "in_shape", "dtype", "ignore_index")
    node_name = "NllLossBackward0"
    symbol = "NLL"
    formula = (r"u = -\frac{\sum_i w_{t_i}\, a_{i,t_i}}{\sum_i w_{t_i}}:\quad "
               r"\frac{\partial u}{\partial a_{i,c}} = -\frac{w_{t_i}\,[c = t_i]}{\sum_j w_{t_j}}")
    formula_args = ("a", "t", "w")  # the input, the targets, the class weights

    def forward(self, input, target, weight, ignore_index, reduction):
        x = input._data
        require_floating(x, "nll_loss")
        t = target._data if target.__class__ in TENSOR_TYPES else target
        require_same_device(x, t)
        if weight is not None:
            require_same_device(x, weight._data)
        xp = array_module(x)
        _check_target(x, t)
        self.ignore_index = None  # set only on the fused GPU path, which its backward follows
        if weight is None and x.ndim == 2 and gpu_kernels.fusable(x):
            return self._forward_fused(xp, x, t, ignore_index, reduction)
        rows, classes = _rows(x), x.shape[0 if x.ndim == 1 else 1]
        flat = t.reshape(-1)
        # a negative ignore_index (the default) is absent when no target is negative: one
        # reduction then tells both, where a comparison and any() cost ~2.5 us a call
        low = int(_least(flat)) if flat.size and ignore_index < 0 else -1
        ignored = None if low >= 0 else flat == ignore_index
        any_ignored = ignored is not None and bool(ignored.any())
        safe = xp.where(ignored, 0, flat) if any_ignored else flat
        # NumPy's own indexing below refuses a target past the classes (none is negative by
        # then); CuPy's wraps, so it is checked first
        if safe.size and ((low < 0 and int(_least(safe)) < 0) or (xp is not numpy and int(_most(safe)) >= classes)):
            raise _out_of_bounds(safe, classes)
        w = None  # None: every target weighs 1 (the common case, kept cheap)
        if weight is not None or any_ignored:
            w = weight._data[safe] if weight is not None else xp.ones(safe.shape, x.dtype)
            if any_ignored:
                w = w * ~ignored
        try:
            picked = rows[xp.arange(safe.size), safe]
        except IndexError:
            raise _out_of_bounds(safe, classes) from None
        self.target, self.weights, self.reduction = safe, w, reduction
        self.in_shape, self.dtype = x.shape, x.dtype
        # minus the sum of picked is the sum of -picked, exactly, and one array fewer
        if w is None and reduction != "none" and safe.size:
            total = -(numpy.add.reduce(picked) if picked.__class__ is numpy.ndarray else picked.sum())
            if reduction == "mean":
                self.total = safe.size
                return total / self.total
            return total
        losses = -picked if w is None else -picked * w
        if reduction == "mean":
            self.total = safe.size if w is None else w.sum()
            return losses.sum() / self.total
        if reduction == "sum":
            return losses.sum()
        return losses.reshape(t.shape)

    def _forward_fused(self, xp, x, t, ignore_index: int, reduction: str):
        """(N, C) scores on the GPU, no class weights: one kernel picks the losses, with no wait
        for the GPU (the targets' range is checked by ``deferred_checks``, an ignored target
        counted on the device)."""
        classes = x.shape[1]
        deferred_checks.defer(xp, t, 0, classes - 1, "Target {} is out of bounds.", skipped=ignore_index)
        losses, valid = gpu_kernels.nll_pick(x, t, ignore_index)
        self.target, self.weights, self.reduction = t, None, reduction
        self.in_shape, self.dtype, self.ignore_index = x.shape, x.dtype, ignore_index
        if reduction == "mean":
            self.total = valid.sum()
            return gpu_kernels.divide_by_count(losses.sum(), self.total)
        self.total = None
        return losses.sum() if reduction == "sum" else losses

    def _backward_fused(self, F, grad):
        per_row = self.reduction == "none"
        mean = self.reduction == "mean"
        classes = self.in_shape[1]
        if not F.records:
            return (gpu_kernels.nll_backward(self.target, grad, self.total if mean else self.target,
                                             classes, self.ignore_index, mean, per_row),)
        # under create_graph: the local gradient as a constant, times grad as a recorded product
        one = array_module(self.target).ones((), self.dtype)
        local = gpu_kernels.nll_backward(self.target, one, self.total if mean else self.target, classes,
                                         self.ignore_index, mean, False)
        if per_row:
            grad = F.reshape(grad, (self.in_shape[0], 1))
        return (grad * F.constant(local),)

    def backward(self, F, grad):
        if self.ignore_index is not None:
            return self._backward_fused(F, grad)
        xp = array_module(self.target)
        count = self.target.size
        scale = -1.0 if self.weights is None else -self.weights
        if self.reduction == "mean" and count:  # no targets: an empty gradient, nothing to scale
            # every target ignored: the loss is NaN (0/0) but PyTorch's gradient is 0
            scale = scale / self.total if float(self.total) != 0 else scale * 0
        local = xp.zeros((count, self.in_shape[0 if len(self.in_shape) == 1 else 1]), self.dtype)
        local[xp.arange(count), self.target] = scale
        local = _unrows(local, self.in_shape)
        if self.reduction == "none":  # one gradient per sample, spread over its classes
            dim = 0 if len(self.in_shape) == 1 else 1
            grad = F.reshape(grad, tuple(1 if i == dim else s for i, s in enumerate(self.in_shape)))
        return (grad * F.constant(local),)


def _out_of_bounds(targets, classes: int) -> IndexError:
    bad = targets[(targets < 0) | (targets >= classes)][0]
    return IndexError(f"Target {int(bad)} is out of bounds.")


def _least(x):
    """``x.min()`` without NumPy's Python wrapper (``_methods._amin``) for a NumPy array."""
    return numpy.minimum.reduce(x) if x.__class__ is numpy.ndarray else x.min()


def _most(x):
    return numpy.maximum.reduce(x) if x.__class__ is numpy.ndarray else x.max()


def _rows(x):
    """``x`` as ``(M, C)``: one row of class scores per target."""
    if x.ndim == 1:
        return x.reshape(1, -1)
    if x.ndim == 2:
        return x
    return array_module(x).moveaxis(x, 1, -1).reshape(-1, x.shape[1])


def _unrows(rows, shape: tuple):
    """Undo ``_rows``: back to ``shape``, classes on dim 1 (or 0 for one sample)."""
    if len(shape) <= 2:
        return rows.reshape(shape)
    moved = rows.reshape((shape[0],) + tuple(shape[2:]) + (shape[1],))
    return array_module(rows).moveaxis(moved, -1, 1)


_TARGET_DTYPES = (numpy.dtype("int64"), numpy.dtype("uint8"))  # compared, not by .name (a Python property)


def _check_target(x, t) -> None:
    if t.dtype not in _TARGET_DTYPES:  # int32 too is refused, as in PyTorch
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {scalar_type_name(t)} "
                           f"(make the class indices int64 with .long())")
    if x.ndim == 1:
        if t.ndim != 0:
            raise ValueError(f"Expected target of shape [] for input of shape {list(x.shape)}, "
                             f"got {list(t.shape)}")
        return
    if x.shape[0] != (t.shape[0] if t.ndim else -1):
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target batch_size "
                         f"({t.shape[0] if t.ndim else 0}).")
    expected = (x.shape[0],) + x.shape[2:]
    if t.shape != expected:
        raise RuntimeError(f"Expected target of shape {list(expected)} for input of shape "
                           f"{list(x.shape)}, got {list(t.shape)}")
