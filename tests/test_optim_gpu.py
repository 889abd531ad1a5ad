"""The optimizers of issue 30 and gradient clipping on an NVIDIA GPU (CuPy): state on the
parameter's device and the CPU's numbers, 0-d parameters included. Skipped cleanly where
no GPU answers."""
import numpy
import pytest

import ag_jupyter as ag
from ag_jupyter import nn

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not ag.cuda.is_available(), reason="needs an NVIDIA GPU with CuPy")]

MAKERS = [lambda p: ag.optim.SGD(p, lr=0.05, momentum=0.9),
          lambda p: ag.optim.AdamW(p, lr=0.01, amsgrad=True),
          lambda p: ag.optim.RMSprop(p, lr=0.01, momentum=0.5, centered=True, weight_decay=0.01),
          lambda p: ag.optim.Adagrad(p, lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1),
          lambda p: ag.optim.Adadelta(p, lr=1.0, weight_decay=0.01)]


def run(make, device):
    """Ten steps on a 0-d, a 1-d and a 2-d float64 parameter, clipped to norm 1 each step."""
    rng = numpy.random.default_rng(0)
    params = [nn.Parameter(ag.tensor(rng.normal(size=shape), dtype=ag.float64, device=device))
              for shape in [(), (3,), (2, 3)]]
    optimizer = make(params)
    for _ in range(10):
        optimizer.zero_grad()
        sum((p * p * 3.0 + p).sum() for p in params).backward()
        total = ag.nn.utils.clip_grad_norm_(params, 1.0)
        assert total.device.type == device
        optimizer.step()
    for state in optimizer.state.values():
        for key, value in state.items():
            if key != "step":
                assert value.device.type == device and value.dtype == ag.float64, key
    return [p.detach().cpu().numpy() for p in params]


@pytest.mark.parametrize("make", MAKERS)
def test_each_optimizer_matches_the_cpu_with_clipping(make):
    for on_gpu, on_cpu in zip(run(make, "cuda"), run(make, "cpu")):
        numpy.testing.assert_allclose(on_gpu, on_cpu, rtol=1e-9, atol=1e-12)


def test_clip_grad_value_on_the_gpu():
    weight = nn.Parameter(ag.zeros(3, device="cuda"))
    weight.grad = ag.tensor([-3.0, 0.5, 2.0], device="cuda")
    ag.nn.utils.clip_grad_value_(weight, 1.0)
    assert weight.grad.device.type == "cuda" and weight.grad.cpu().tolist() == [-1.0, 0.5, 1.0]
