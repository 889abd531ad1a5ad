"""In-place writes as people write them (``+=`` on a slice, masked assignment, an RNN-style
loop over rows, in-place activations on a view, dtype rules of in-place ops), against
PyTorch: values, gradients of the leaves, and whether it is refused."""
from __future__ import annotations

import warnings

import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")


def _loop(lib, x, w):
    y = x * 1
    for i in range(1, 4):
        y[i] = y[i - 1] * w + y[i]
    return y


def _dropout_view(lib, x, w):
    y = x * 1
    lib.nn.functional.dropout(y[1:], p=0.0, training=True, inplace=True)
    return y


def _relu_view(lib, x, w):
    y = x - 2.5
    lib.nn.functional.relu(y[1:], inplace=True)
    return y


def _retained_view_then_base(lib, x, w):
    y = x * 1
    v = y[1:]
    v.retain_grad()
    y.mul_(w)
    return v


SCENARIOS = {
    "slice_iadd": lambda lib, x, w: _apply(x * 1, lambda y: y[1:].__iadd__(w)),
    "advanced_index_iadd": lambda lib, x, w: _setitem_iadd(x * 1, [0, 2], w),
    "masked_assign": lambda lib, x, w: _apply(x * 1, lambda y: y.__setitem__(y > 2, 0.0)),
    "rnn_loop": _loop,
    "row_from_other_row": lambda lib, x, w: _apply((x * 1).reshape(2, 2), lambda y: y.__setitem__(0, y[1] * w)),
    "clamp_view": lambda lib, x, w: _apply(x * 1, lambda y: y[1:3].clamp_(0, 2.5)),
    "fill_strided_view": lambda lib, x, w: _apply(x * 1, lambda y: y[::2].fill_(0)),
    "zero_view": lambda lib, x, w: _apply(x * w, lambda y: y[1:].zero_()),
    "dropout_inplace_view": _dropout_view,
    "relu_inplace_view": _relu_view,
    "two_overlapping_views": lambda lib, x, w: _apply(x * 1, lambda y: y[0:3].mul_(w), keep=lambda y: y[1:4]),
    "base_written_twice": lambda lib, x, w: _apply(x * 1, lambda y: (y.mul_(w), y.add_(1)), keep=lambda y: y.view(2, 2),
                                                   keep_first=True),
    # PyTorch drops a written value's leading 1s (a (1, 2) row into y[0], of shape (2,)); its
    # gradient keeps the value's own shape
    # a 0-d int tensor selects a row as its int does: the written row alone, not the whole
    # tensor, is checked against the value's memory
    "row_from_other_row_by_tensor_index": lambda lib, x, w: _apply(
        (x * w).reshape(2, 2), lambda y: y.__setitem__(lib.tensor(0), y[1])),
    "row_with_leading_one": lambda lib, x, w: _apply((x * 1).reshape(2, 2),
                                                     lambda y: y.__setitem__(0, (y[1] * w).reshape(1, 2))),
    "column_assign_broadcast": lambda lib, x, w: _apply((x * 1).reshape(2, 2),
                                                        lambda y: y.__setitem__((slice(None), 0), w)),
    "copy_broadcast": lambda lib, x, w: _apply((x * 1).reshape(2, 2), lambda y: y.copy_(lib.tensor([1.0, 2.0]) * w)),
    "unsqueezed_write": lambda lib, x, w: _apply(x * 1, lambda y: y.unsqueeze(0).__setitem__((0, 1), w)),
    "none_index_write": lambda lib, x, w: _apply(x * 1, lambda y: y[None, 1:].mul_(w)),
    "ellipsis_write": lambda lib, x, w: _apply((x * 1).reshape(2, 2), lambda y: y[..., 1].mul_(w)),
    "view_of_a_sum": lambda lib, x, w: _apply((x * 1).sum(), lambda s: s.view(1).mul_(w)),
    "detached_view_write": lambda lib, x, w: _apply(x * 1, lambda y: y.detach()[1:].mul_(2), then=lambda y: y * w),
    "retain_view_then_write_base": _retained_view_then_base,
    "int_add_float": lambda lib, x, w: lib.tensor([1, 2]).add_(1.5),
    "int32_add_int64": lambda lib, x, w: lib.tensor([1, 2], dtype=lib.int32).add_(lib.tensor([1, 2])),
    "bool_add_int": lambda lib, x, w: lib.tensor([True, False]).add_(1),
    "int_div_": lambda lib, x, w: lib.tensor([1, 2]).div_(2),
    "float16_mul_float32": lambda lib, x, w: lib.tensor([1.0, 2.0], dtype=lib.float16).mul_(lib.tensor([1.5, 2.5])),
    "float_into_int_setitem": lambda lib, x, w: _apply(lib.tensor([1, 2]), lambda t: t.__setitem__(0, 2.7)),
    "negative_step": lambda lib, x, w: (x * 1)[::-1],
}


def _apply(y, write, keep=None, keep_first=False, then=None):
    kept = keep(y) if keep is not None and keep_first else None
    write(y)
    if keep is not None and not keep_first:
        kept = keep(y)
    result = kept if kept is not None else y
    return then(result) if then is not None else result


def _setitem_iadd(y, index, w):
    y[index] += w
    return y


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_inplace_scenario_matches_torch(name):
    outcomes = []
    for lib in (torch, ag):
        x = lib.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
        w = lib.tensor(0.5, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:  # refusing the write, or its backward ("modified by an inplace operation")
                out = SCENARIOS[name](lib, x, w)
                if out.requires_grad:
                    (out * out).sum().backward()
            except (RuntimeError, ValueError) as error:
                outcomes.append(type(error).__name__)
                continue
            grad_of_view = out.grad if name == "retain_view_then_write_base" else None
        outcomes.append((str(out.dtype).split(".")[-1], _rounded(out), _rounded(x.grad), _rounded(w.grad),
                         _rounded(grad_of_view)))
    assert outcomes[0] == outcomes[1]


def _rounded(t):
    return None if t is None else [round(float(v), 4) for v in t.detach().reshape(-1).tolist()]
