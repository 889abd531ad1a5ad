"""Fused CuPy kernels for the formulas a GPU training step runs most.

A step on the GPU is bound by the host: each CuPy call costs microseconds of Python and a
kernel launch, while the GPU finishes most kernels faster. These kernels do in one launch
what CuPy's ufuncs did in two to four (relu's backward was ``!=`` then ``where``;
log_softmax's was ``exp``, ``*``, ``-``; an SGD update ``*`` then ``-=``; NLL's backward
``arange``, ``zeros``, a scatter and ``*``). Each is built once, on first use, from the CuPy
``backend`` loaded; the NumPy path never comes here.

Every product and difference is rounded as the unfused ufuncs round it (``__fmul_rn`` and
friends: no fused multiply-add), so a fused result is the unfused one, bit for bit. Only
float32 and float64 are fused (``fusable``); other dtypes take the ufuncs.
"""
from __future__ import annotations

import numpy

from . import backend

FUSED_DTYPES = frozenset(map(numpy.dtype, ("float32", "float64")))

_ROUNDED = r"""
__device__ inline float ag_mul(float a, float b) { return __fmul_rn(a, b); }
__device__ inline double ag_mul(double a, double b) { return __dmul_rn(a, b); }
__device__ inline float ag_sub(float a, float b) { return __fsub_rn(a, b); }
__device__ inline double ag_sub(double a, double b) { return __dsub_rn(a, b); }
"""

# name: (inputs, outputs, body)
_SOURCES = {
    # max(a, 0)'s gradient: grad where the output is not 0 (a NaN output passes its gradient)
    "relu_backward": ("T grad, T out", "T result", "result = out != T(0) ? grad : T(0)"),
    # log_softmax's gradient, grad - exp(out) * sum(grad) (the sum along the dim given, broadcast)
    "log_softmax_backward": ("T grad, T out, T summed", "T result",
                             "result = ag_sub(grad, ag_mul(exp(out), summed))"),
    # SGD's update in place, p -= lr * g
    "sgd_step": ("T grad, T lr", "T param", "param = ag_sub(param, ag_mul(lr, grad))"),
    # NLL per row of (N, C) log-probabilities: -logp[i, t_i], 0 for an ignored (or out-of-range,
    # reported by deferred_checks) target; valid counts the targets that count
    "nll_pick": ("raw T logp, I target, int64 classes, int64 ignore", "T loss, int32 valid",
                 """
                 const long long t = (long long)target;
                 const bool counts = t != ignore && t >= 0 && t < classes;
                 loss = counts ? -logp[i * classes + t] : T(0);
                 valid = counts ? 1 : 0;
                 """),
    # a sum divided by a count, in the sum's dtype (the CPU path's sum / int)
    "divide_by_count": ("T total, I count", "T result", "result = total / T(count)"),
    # NLL's gradient on (N, C): grad * (-1 / count for mean, -1 otherwise) at each row's target,
    # grad one number or (per_row) one per row
    "nll_backward": ("raw I target, raw T grad, raw J count, int64 classes, int64 ignore, bool mean, "
                     "bool per_row", "T result",
                     """
                     const ptrdiff_t row = i / classes;
                     const long long t = (long long)target[row];
                     T value = T(0);
                     if (t == (long long)(i - row * classes) && t != ignore) {
                         const T scale = mean ? T(-1) / T(count[0]) : T(-1);
                         value = ag_mul(grad[per_row ? row : 0], scale);
                     }
                     result = value;
                     """),
    # x[rows, cols] of a 2-D x, the two index arrays broadcast together (negative indices count
    # from the end; an out-of-range one gives 0 here, reported by deferred_checks)
    "pick_pairs": ("raw T x, I rows, J cols, int64 height, int64 width", "T out",
                   """
                   long long r = (long long)rows, c = (long long)cols;
                   if (r < 0) r += height;
                   if (c < 0) c += width;
                   out = (r >= 0 && r < height && c >= 0 && c < width) ? x[r * width + c] : T(0);
                   """),
    # its gradient: grad added into zeros at [rows, cols], repeated pairs adding up
    "add_at_pairs": ("T grad, I rows, J cols, int64 height, int64 width", "raw T out",
                     """
                     long long r = (long long)rows, c = (long long)cols;
                     if (r < 0) r += height;
                     if (c < 0) c += width;
                     if (r >= 0 && r < height && c >= 0 && c < width) atomicAdd(&out[r * width + c], grad);
                     """),
}
_kernels: dict = {}


def _kernel(name: str):
    kernel = _kernels.get(name)
    if kernel is None:
        inputs, outputs, body = _SOURCES[name]
        kernel = _kernels[name] = backend.require_cupy().ElementwiseKernel(
            inputs, outputs, body, f"ag_{name}", preamble=_ROUNDED)
    return kernel


def fusable(*arrays) -> bool:
    """True for CuPy arrays of one dtype, float32 or float64: what the kernels here take."""
    first = arrays[0]
    return backend.is_cuda_array(first) and first.dtype in FUSED_DTYPES and \
        all(backend.is_cuda_array(a) and a.dtype == first.dtype for a in arrays[1:])


def pairs_key(x, key) -> bool:
    """True for ``x[rows, cols]`` of a 2-D float array on the GPU with two integer CuPy
    index arrays: what ``pick_pairs`` and ``add_at_pairs`` take."""
    if key.__class__ is not tuple or len(key) != 2 or x.ndim != 2 or not fusable(x):
        return False
    return all(backend.is_cuda_array(part) and part.dtype.kind in "iu" and part.device.id == x.device.id
               for part in key)


def pick_pairs(x, key):
    rows, cols = key
    return _kernel("pick_pairs")(x, rows, cols, x.shape[0], x.shape[1])


def add_at_pairs(grad, key, shape):
    rows, cols = key
    out = backend.require_cupy().zeros(shape, dtype=grad.dtype)
    _kernel("add_at_pairs")(grad, rows, cols, shape[0], shape[1], out)
    return out


def relu_backward(grad, out):
    return _kernel("relu_backward")(grad, out)


def log_softmax_backward(grad, out, summed):
    return _kernel("log_softmax_backward")(grad, out, summed)


def sgd_step(param, grad, lr: float) -> None:
    _kernel("sgd_step")(grad, lr, param)


def nll_pick(logp, target, ignore_index: int):
    """``(losses, valid)`` for (N, C) log-probabilities and N targets (out-of-range targets
    give 0 here; the caller queues their check)."""
    return _kernel("nll_pick")(logp, target, logp.shape[1], ignore_index)


def divide_by_count(total, count):
    return _kernel("divide_by_count")(total, count)


def nll_backward(target, grad, count, classes: int, ignore_index: int, mean: bool, per_row: bool):
    """The (N, C) gradient of NLL with respect to its log-probabilities."""
    out = backend.require_cupy().empty((target.shape[0], classes), dtype=grad.dtype)
    return _kernel("nll_backward")(target, grad, count, classes, ignore_index, mean, per_row, out)
