"""Tensors on two devices in one op, with PyTorch on the same GPU as the oracle: where
PyTorch computes, the numbers are PyTorch's; where it refuses, ours refuses with its
message, and the failed op leaves nothing behind. Needs a GPU and PyTorch's CUDA build."""
import numpy as np
import pytest

import ag_jupyter as ag
import ag_jupyter.nn.functional as F

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not ag.cuda.is_available(), reason="no usable GPU with CuPy here")]

SAME_DEVICE = "Expected all tensors to be on the same device"
A = np.arange(6, dtype=np.float32).reshape(2, 3) / 7 + 0.1
B = np.arange(6, dtype=np.float32)[::-1].reshape(2, 3).copy() / 5 + 0.2
LABELS = np.array([2, 0])


def _functional(lib):
    return F if lib is ag else lib.nn.functional


# Each case: lib, a GPU tensor that requires grad, and the device of the other operand.
CASES = {
    "add": lambda lib, x, d: x + lib.tensor(B, device=d),
    "add a 0-d tensor": lambda lib, x, d: x + lib.tensor(2.0, device=d),
    "mul": lambda lib, x, d: x * lib.tensor(B, device=d),
    "matmul": lambda lib, x, d: x @ lib.tensor(B.T.copy(), device=d),
    "where": lambda lib, x, d: lib.where(lib.tensor(A > 0.5, device=d), x, x * 2),
    "cat": lambda lib, x, d: lib.cat([x, lib.tensor(B, device=d)]),
    "stack": lambda lib, x, d: lib.stack([x, lib.tensor(B, device=d)]),
    "maximum": lambda lib, x, d: lib.maximum(x, lib.tensor(B, device=d)),
    "nll_loss": lambda lib, x, d: _functional(lib).nll_loss(x, lib.tensor(LABELS, device=d)),
    "cross_entropy": lambda lib, x, d: _functional(lib).cross_entropy(x, lib.tensor(LABELS, device=d)),
    "mse_loss": lambda lib, x, d: _functional(lib).mse_loss(x, lib.tensor(B, device=d)),
    "index with a tensor": lambda lib, x, d: x[lib.tensor([1, 0, 1], device=d)],
}


@pytest.fixture(scope="module")
def torch_cuda():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch here has no CUDA")
    return torch


@pytest.mark.parametrize("name", CASES)
def test_an_op_across_devices_does_what_pytorch_does(name, torch_cuda):
    run = CASES[name]
    theirs = torch_cuda.tensor(A, device="cuda", requires_grad=True)
    ours = ag.tensor(A, device="cuda", requires_grad=True)
    try:
        expected = run(torch_cuda, theirs, "cpu")
    except RuntimeError as refusal:
        assert "device" in str(refusal)
        with pytest.raises(RuntimeError, match=SAME_DEVICE):
            run(ag, ours, "cpu")
        assert ours.grad is None and ours.grad_fn is None
        return
    got = run(ag, ours, "cpu")
    assert got.device == str(expected.device).split(":")[0]
    np.testing.assert_allclose(got.detach().cpu().numpy(), expected.detach().cpu().numpy(), rtol=1e-6)
    got.sum().backward()
    expected.sum().backward()
    np.testing.assert_allclose(ours.grad.cpu().numpy(), theirs.grad.cpu().numpy(), rtol=1e-6)


def test_the_refusal_names_both_devices():
    x = ag.ones(3, device="cuda")
    with pytest.raises(RuntimeError) as refusal:
        x + ag.ones(3)
    assert "cuda:0 and cpu" in str(refusal.value) or "cpu and cuda:0" in str(refusal.value)


@pytest.mark.parametrize("write", [False, True])
def test_an_index_out_of_range_on_the_gpu_raises_as_on_the_cpu(write):
    # CuPy alone wraps the index around and gives a number PyTorch never would. A write
    # raises at once; a read, checked on the GPU without a wait, at the latest when a value
    # comes back to the host, as PyTorch's device-side assert does (docs/design.md).
    for device in ("cpu", "cuda"):
        x = ag.zeros((2, 3), device=device, requires_grad=True) * 1
        key = (ag.tensor([0, 1], device=device), ag.tensor([1, 3], device=device))
        with pytest.raises(IndexError, match="out of bounds"):
            if write:
                x[key] = 1.0
            else:
                x[key].tolist()
    x = ag.zeros((2, 3), device="cuda")
    assert x[ag.tensor([-2, 1], device="cuda")].shape == (2, 3)  # negative but in range: fine
