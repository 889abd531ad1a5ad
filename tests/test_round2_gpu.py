"""Round 2's names on an NVIDIA GPU (CuPy), against the same code on the CPU: lazy layers made
on the GPU, multi-head attention, the distributions, histograms and out=. Skipped cleanly where
no GPU answers (the registry's cases of pad, adaptive max pooling and attention run in
test_gpu.py)."""
import numpy
import pytest

import ag_jupyter as ag
from ag_jupyter import nn

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not ag.cuda.is_available(), reason="needs an NVIDIA GPU with CuPy")]


def close(a, b, rtol=1e-9):
    numpy.testing.assert_allclose(a.detach().cpu().numpy(), b.detach().cpu().numpy(), rtol=rtol, atol=1e-12)


def test_a_lazy_layer_materializes_on_its_device():
    for make, shape in ((lambda: nn.LazyLinear(4, device="cuda", dtype=ag.float64), (2, 3)),
                        (lambda: nn.LazyConv2d(3, 2, device="cuda", dtype=ag.float64), (1, 2, 4, 4))):
        layer = make()
        optimizer = ag.optim.SGD(layer.parameters(), lr=0.1)
        out = layer(ag.randn(*shape, dtype=ag.float64, device="cuda"))
        out.sum().backward()
        optimizer.step()
        assert out.device == "cuda" and all(p.device == "cuda" for p in layer.parameters())


def test_multihead_attention_on_the_gpu_is_the_cpus():
    cpu = nn.MultiheadAttention(6, 2, batch_first=True).double()
    gpu = nn.MultiheadAttention(6, 2, batch_first=True, device="cuda", dtype=ag.float64)
    gpu.load_state_dict(cpu.state_dict())
    x = numpy.random.default_rng(0).normal(size=(2, 4, 6))
    mask = numpy.zeros((2, 4), bool)
    mask[1, 3] = True
    outputs = []
    for layer, device in ((cpu, "cpu"), (gpu, "cuda")):
        q = ag.tensor(x, device=device, requires_grad=True)
        output, weights = layer(q, q, q, key_padding_mask=ag.tensor(mask, device=device),
                                attn_mask=ag.tensor(numpy.triu(numpy.ones((4, 4), bool), 1), device=device))
        (output.sum() + weights.square().sum()).backward()
        outputs.append((output, weights, q.grad, layer.in_proj_weight.grad))
    for ours, theirs in zip(*outputs):
        close(theirs, ours)


def test_distributions_histograms_and_out_on_the_gpu():
    probs = ag.tensor([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]], device="cuda")
    drawn = ag.distributions.Categorical(probs=probs).sample((50,))
    assert drawn.device == "cuda" and drawn.shape == (50, 2) and int(drawn[:, 1].max()) <= 1
    counts = ag.distributions.Multinomial(20, probs).sample()
    assert counts.device == "cuda" and counts.sum(-1).tolist() == [20.0, 20.0]
    value = ag.tensor([[2.0, 3.0, 15.0], [10.0, 10.0, 0.0]])
    # float32 lgamma: CuPy's and SciPy's differ in the last bit (seen on an H100), so float32's tolerance
    close(ag.distributions.Multinomial(20, probs).log_prob(value.cuda()),
          ag.distributions.Multinomial(20, probs.cpu()).log_prob(value), rtol=1e-6)
    x = ag.randn(100)
    close(ag.histc(x.cuda(), 7), ag.histc(x, 7))
    close(ag.histogram(x.cuda(), 5).hist, ag.histogram(x, 5).hist)
    out = ag.empty(0, device="cuda")
    assert ag.add(x.cuda(), 1, out=out) is out and out.device == "cuda"
    close(out, x + 1)
