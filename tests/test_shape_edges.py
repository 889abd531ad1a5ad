"""Shape ops and reductions at their edges (empty, 0-d, negative and out-of-range dims,
leading -1 in expand, empty lists) against PyTorch: the same shape, dtype and values, or
both refuse."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

SHAPE_CASES = {
    "expand_neg_lead": lambda lib: lib.ones(3).expand(-1, 3),
    "expand_ok": lambda lib: lib.ones(3).expand(2, -1),
    "reshape_empty_neg": lambda lib: lib.ones(0, 3).reshape(-1),
    "view_empty_ambiguous": lambda lib: lib.ones(0, 3).view(0, -1),
    "reshape_empty_ok": lambda lib: lib.ones(0, 3).reshape(3, 0),
    "squeeze_out": lambda lib: lib.ones(2, 1).squeeze(2),
    "unsqueeze_out": lambda lib: lib.ones(2).unsqueeze(3),
    "unsqueeze_neg": lambda lib: lib.ones(2).unsqueeze(-2),
    "transpose_out": lambda lib: lib.ones(2, 3).transpose(0, 2),
    "t_3d": lambda lib: lib.ones(2, 2, 2).t(),
    "t_0d": lambda lib: lib.tensor(1.).t(),
    "T_0d": lambda lib: lib.tensor(1.).T,
    "T_1d": lambda lib: lib.ones(3).T,
    "mT_like_permute_neg": lambda lib: lib.ones(2, 3).permute(-1, 0),
    "index_oob": lambda lib: lib.ones(3)[5],
    "flatten_start_after_end": lambda lib: lib.ones(2, 2).flatten(1, 0),
    "flatten_start_after_end_3d": lambda lib: lib.ones(2, 3, 4).flatten(-1, 0),
    "flatten_1d_dim_out": lambda lib: lib.ones(3).flatten(1),
    "flatten_one_dim": lambda lib: lib.ones(2, 3).flatten(1, 1),
    "flatten_0d_dims": lambda lib: lib.tensor(1.).flatten(0, -1),
    "index_neg": lambda lib: lib.arange(3.)[-1],
    "index_bool_tensor": lambda lib: lib.arange(3.)[lib.tensor([True, False, True])],
    "index_tensor_0d": lambda lib: lib.arange(3.)[lib.tensor(1)],
    "index_float": lambda lib: lib.arange(3.)[1.0],
    "slice_oob": lambda lib: lib.arange(3.)[5:9],
    "flatten_0d": lambda lib: lib.tensor(1.).flatten(),
    "squeeze_0d": lambda lib: lib.tensor(1.).squeeze(0),
    "sum_dims_tuple": lambda lib: lib.ones(2, 3, 4).sum((0, 2)),
    "sum_dup_dims": lambda lib: lib.ones(2, 3).sum((0, 0)),
    "sum_empty_tuple": lambda lib: lib.ones(2, 3).sum(()),
    "mean_empty": lambda lib: lib.ones(0).mean(),
    "max_empty": lambda lib: lib.ones(0).max(),
    "stack_empty": lambda lib: lib.stack([]),
    "cat_empty_tensor": lambda lib: lib.cat([lib.ones(0), lib.ones(3)]),
    "matmul_1d_1d": lambda lib: lib.ones(3) @ lib.ones(3),
    "matmul_empty": lambda lib: lib.ones(2, 0) @ lib.ones(0, 3),
    "expand_0": lambda lib: lib.ones(1).expand(0),
    "where_scalar_both": lambda lib: lib.where(lib.tensor([True, False]), 1.0, 0.0),
    "clamp_min_gt_max": lambda lib: lib.arange(4.).clamp(3, 1),
    "reshape_neg2": lambda lib: lib.ones(4).reshape(-2, 2),
    "softmax_dim_oob": lambda lib: lib.ones(3).softmax(1),
    "std_dim_list": lambda lib: lib.ones(2, 3).std((0, 1)),
    "norm_dim_tuple": lambda lib: lib.ones(2, 3).norm(dim=(0, 1)),
    "argmax_keepdim_none": lambda lib: lib.ones(2, 3).argmax(keepdim=True),
    "max_two_tensors": lambda lib: lib.max(lib.ones(2), lib.zeros(2)),
}


def _observe(lib, make):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = make(lib)
        except (RuntimeError, IndexError, ValueError, TypeError):
            return "refused"
    return tuple(r.shape), str(r.dtype).split(".")[-1], r.detach().numpy().astype(float)


@pytest.mark.parametrize("name", list(SHAPE_CASES))
def test_shape_edge_matches_torch(name):
    expected, got = _observe(torch, SHAPE_CASES[name]), _observe(ag, SHAPE_CASES[name])
    if expected == "refused" or got == "refused":
        assert expected == got
    else:
        assert expected[:2] == got[:2]
        np.testing.assert_allclose(got[2], expected[2], rtol=1e-6, equal_nan=True)



MIXED_KEYS = {  # ints beside index arrays: PyTorch selects with the ints first
    "int_slice_list": lambda lib: (0, slice(None), [1, 2]),
    "int_none_list": lambda lib: (1, None, [0, 2]),
    "list_slice_int": lambda lib: ([1, 0], slice(1, 3), 2),
    "ellipsis_int_tensor": lambda lib: (Ellipsis, 1, lib.tensor([0, 2])),
    "int_slice_mask": lambda lib: (1, slice(None), lib.tensor([True, False, True, True])),
    "tensor_int_slice_list": lambda lib: (lib.tensor(0), slice(None), [3, 1]),
    "adjacent_int_list": lambda lib: (0, [2, 1]),
    "two_lists_and_int": lambda lib: ([0, 1], 1, [3, 2]),
    # an Ellipsis that stands for no dimension does not separate the arrays (twelfth round's fuzz)
    "lists_around_empty_ellipsis": lambda lib: (slice(None), [0, 2], Ellipsis, [1, 3]),
    "int_list_empty_ellipsis": lambda lib: (slice(None), 1, Ellipsis, [1, 3]),
    "masks_around_empty_ellipsis": lambda lib: (slice(None), lib.tensor([True, False, True]), Ellipsis,
                                                lib.tensor([False, True, False, True])),
    "lists_around_full_ellipsis": lambda lib: ([0, 1], Ellipsis, [1, 3]),
}


@pytest.mark.parametrize("name", list(MIXED_KEYS))
def test_a_key_of_ints_and_index_arrays_reads_writes_and_differentiates_as_torch(name):
    seen = []
    for lib in (torch, ag):
        x = lib.arange(24.0).reshape(2, 3, 4).requires_grad_()
        key = MIXED_KEYS[name](lib)
        picked = x[key]
        (picked * lib.arange(float(picked.numel())).reshape(picked.shape)).sum().backward()
        written = lib.zeros(2, 3, 4)
        written[key] = -lib.ones(picked.shape)
        seen.append((list(picked.shape), picked.tolist(), x.grad.tolist(), written.tolist()))
    assert seen[1] == seen[0]
