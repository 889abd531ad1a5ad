"""The CuPy path: every registered op on the GPU against NumPy. Needs a GPU; skipped without."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from op_registry import CASES

import ag_jupyter as ag

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not ag.cuda.is_available(), reason="no usable GPU with CuPy here")]


class _OnGpu:
    """The ``ag`` module as a case sees it, except that the tensors a case makes of its
    parameters (a ``where`` condition, an NLL target) live on the GPU too."""

    def __getattr__(self, name):
        return getattr(ag, name)

    @staticmethod
    def as_tensor(data, **kwargs):
        return ag.as_tensor(data, device="cuda", **kwargs)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@given(data=st.data())
def test_op_on_gpu_matches_cpu(case, data):
    arrays, params = case.draw(data)
    cpu = [ag.tensor(a, dtype=ag.float64, requires_grad=True) for a in arrays]
    gpu = [ag.tensor(a, dtype=ag.float64, device="cuda", requires_grad=True) for a in arrays]
    out_cpu, out_gpu = case.run(ag, *cpu, **params), case.run(_OnGpu(), *gpu, **params)
    assert out_gpu.device == "cuda"
    np.testing.assert_allclose(out_gpu.detach().cpu().numpy(), out_cpu.detach().numpy(), rtol=1e-10, atol=1e-10)
    out_cpu.sum().backward()
    out_gpu.sum().backward()
    for c, g in zip(cpu, gpu):
        if c.grad is None:
            assert g.grad is None
            continue
        assert g.grad.device == "cuda"
        np.testing.assert_allclose(g.grad.cpu().numpy(), c.grad.numpy(), rtol=1e-10, atol=1e-10)


def test_moving_between_devices_is_differentiable():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = x.cuda() * 3
    assert y.device == "cuda" and y.grad_fn.name() == "MulBackward0"
    z = y.cpu().sum()
    z.backward()
    assert x.grad.device == "cpu" and x.grad.tolist() == [3.0, 3.0]


def test_numpy_refuses_a_cuda_tensor():
    with pytest.raises(TypeError, match=r"Use Tensor.cpu\(\)"):
        ag.ones(2, device="cuda").numpy()


def test_default_device_and_creation_on_gpu():
    ag.set_default_device("cuda")
    try:
        x = ag.randn(3)
        assert x.device == "cuda" and x.is_cuda
    finally:
        ag.set_default_device("cpu")


def test_training_step_on_gpu():
    ag.manual_seed(0)
    w = ag.randn(4, 3, device="cuda", requires_grad=True)
    x = ag.randn(8, 4, device="cuda")
    for _ in range(3):
        loss = (x @ w).tanh().pow(2).mean()
        loss.backward()
        with ag.no_grad():
            w -= 0.1 * w.grad
        w.grad = None
    assert np.isfinite(loss.item())
