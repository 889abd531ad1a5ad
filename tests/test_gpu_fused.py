"""The GPU step's fused kernels (gpu_kernels.py) and its deferred index checks
(deferred_checks.py): the numbers of the unfused CuPy path, bit for bit, and an
out-of-range index or target raised before any value is read. Needs a GPU with CuPy."""
import numpy as np
import pytest

import ag_jupyter as ag
import ag_jupyter.nn.functional as F
from ag_jupyter import deferred_checks, gpu_kernels

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not ag.cuda.is_available(), reason="needs an NVIDIA GPU with CuPy")]

SPECIAL = np.array([[1.5, 0.0, -2.0, np.nan], [np.inf, -np.inf, 3.0, -0.0]])


def cuda(array, dtype):
    return ag.tensor(np.asarray(array, dtype=dtype), device="cuda")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_each_fused_kernel_gives_the_unfused_numbers_bit_for_bit(dtype):
    import cupy as cp  # noqa: PLC0415 - only with a GPU

    rng = np.random.default_rng(0)
    grad = cp.asarray(np.concatenate([rng.standard_normal((3, 4)), SPECIAL]).astype(dtype))
    out = cp.asarray(np.concatenate([np.maximum(rng.standard_normal((3, 4)), 0), SPECIAL]).astype(dtype))
    unfused = cp.where(out != 0, grad, dtype(0))
    cp.testing.assert_array_equal(gpu_kernels.relu_backward(grad, out), unfused)
    logp = cp.asarray(rng.standard_normal((5, 4)).astype(dtype))
    g = grad[:5]
    summed = g.sum(axis=1, keepdims=True)
    cp.testing.assert_array_equal(gpu_kernels.log_softmax_backward(g, logp, summed), g - cp.exp(logp) * summed)
    param, step = cp.asarray(rng.standard_normal(7).astype(dtype)), cp.asarray(rng.standard_normal(7).astype(dtype))
    expected = param - 0.1 * step
    gpu_kernels.sgd_step(param, step, 0.1)
    cp.testing.assert_array_equal(param, expected)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("ignore_index", [-100, 2])
def test_nll_loss_on_the_gpu_matches_the_cpu_with_ignored_targets(reduction, ignore_index):
    rng = np.random.default_rng(1)
    scores, labels = rng.standard_normal((6, 4)), np.array([2, 0, 3, 2, 1, 2])
    results = []
    for device in ("cpu", "cuda"):
        x = ag.tensor(scores, device=device, requires_grad=True)
        loss = F.cross_entropy(x, ag.tensor(labels, device=device), ignore_index=ignore_index, reduction=reduction)
        loss.sum().backward()
        results.append((loss.detach().cpu().numpy(), x.grad.cpu().numpy()))
    np.testing.assert_allclose(results[1][0], results[0][0], rtol=1e-12)
    np.testing.assert_allclose(results[1][1], results[0][1], rtol=1e-12, atol=1e-15)


def test_every_target_ignored_gives_nan_and_a_zero_gradient_as_pytorch():
    x = ag.zeros((3, 4), device="cuda", requires_grad=True)
    loss = F.nll_loss(x, ag.tensor([1, 1, 1], device="cuda"), ignore_index=1)
    loss.backward()
    assert np.isnan(loss.item()) and x.grad.abs().sum().item() == 0


def test_nll_loss_gradient_of_the_gradient_on_the_gpu_matches_the_cpu():
    rng = np.random.default_rng(2)
    scores, labels = rng.standard_normal((4, 3)), np.array([2, 0, 1, 1])
    found = []
    for device in ("cpu", "cuda"):
        x = ag.tensor(scores, device=device, requires_grad=True)
        loss = F.cross_entropy(x * x, ag.tensor(labels, device=device))
        (grad,) = ag.autograd.grad(loss, x, create_graph=True)
        (grad * grad).sum().backward()
        found.append(x.grad.cpu().numpy())
    np.testing.assert_allclose(found[1], found[0], rtol=1e-12)


def test_an_out_of_range_target_raises_before_the_loss_is_read():
    x = ag.zeros((2, 3), device="cuda", requires_grad=True)
    loss = F.cross_entropy(x, ag.tensor([0, 3], device="cuda"))
    with pytest.raises(IndexError, match="Target 3 is out of bounds"):
        loss.item()
    assert F.cross_entropy(x, ag.tensor([0, 2], device="cuda")).item() == pytest.approx(np.log(3))


def test_a_deferred_index_error_raises_once_at_the_next_read_and_then_the_table_is_clean():
    x = ag.arange(5.0, device="cuda")
    y = x[ag.tensor([1, -7], device="cuda")] * 2  # wrapped by CuPy, never read
    with pytest.raises(IndexError, match="index -7 is out of bounds for dimension 0 with size 5"):
        print(x)  # any read of any tensor reports it, as CUDA does
    assert x[ag.tensor([4, -5], device="cuda")].tolist() == [4.0, 0.0]
    assert not deferred_checks.pending and y.shape == (2,)
    with pytest.raises(IndexError, match="out of bounds"):
        x[ag.tensor([5], device="cuda")]
        ag.cuda.synchronize()


def test_more_checks_than_slots_are_read_when_the_table_fills():
    x = ag.arange(3.0, device="cuda")
    index = ag.tensor([0, 2], device="cuda")
    for _ in range(deferred_checks.SLOTS * 2 + 3):
        x[index]
    assert x[index].tolist() == [0.0, 2.0]
    x[ag.tensor([3], device="cuda")]
    with pytest.raises(IndexError, match="index 3 is out of bounds"):
        for _ in range(deferred_checks.SLOTS):
            x[index]  # the table fills and is read here, where the earlier error surfaces
    assert x.tolist() == [0.0, 1.0, 2.0]


def test_picking_pairs_on_the_gpu_matches_the_cpu_with_negative_broadcast_and_repeated_indices():
    scores = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
    keys = [([0, 2, -1, 2], [3, -4, 1, 3]), ([[0], [2]], [1, 1, -1]), ([1, 1], [2, 2])]
    for rows, cols in keys:
        found = []
        for device in ("cpu", "cuda"):
            x = ag.tensor(scores, device=device, requires_grad=True)
            picked = x[ag.tensor(rows, device=device), ag.tensor(cols, device=device)]
            (picked * ag.arange(1.0, picked.shape[-1] + 1, device=device)).sum().backward()
            found.append((picked.tolist(), x.grad.tolist()))
        assert found[1] == found[0], (rows, cols)


def test_an_out_of_range_pair_raises_before_the_picked_values_are_read():
    x = ag.zeros((2, 3), device="cuda", requires_grad=True)
    picked = x[ag.tensor([0, 1], device="cuda"), ag.tensor([2, 3], device="cuda")]
    picked.sum().backward()  # the backward runs on the wrapped pair; its gradient is not read either
    with pytest.raises(IndexError, match="index 3 is out of bounds for dimension 1 with size 3"):
        x.grad.tolist()
