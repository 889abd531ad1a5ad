"""The last names the curriculum survey lacked (issue 30, round 2), against PyTorch:
``histogram``/``histc``, ``distributions.Categorical``/``Multinomial``, the lazy layers and
``MultiheadAttention``: values, gradients, draws from one generator, and errors."""
from __future__ import annotations

import numpy as np
import pytest
from corpus_random import torch_random_source

import ag_jupyter as ag

torch = pytest.importorskip("torch")


def _same(ours, theirs, tolerance=1e-5):
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=tolerance, atol=tolerance)


def _both_raise(run_ours, run_theirs):
    with pytest.raises(Exception) as theirs:
        run_theirs()
    with pytest.raises(type(theirs.value)) as ours:
        run_ours()
    assert str(ours.value).splitlines()[0] == str(theirs.value).splitlines()[0].replace("torch.Size", "ag.Size")


DATA = [[1.0, 2.0, 1.0, 4.0, 2.5, -1.0], [2.0, 2.0], [0.5, -3.0, 7.25, 7.25, 0.0]]


@pytest.mark.parametrize("data", DATA)
@pytest.mark.parametrize("keywords", [{"bins": 4}, {"bins": 3, "range": (0.0, 3.0), "density": True}, {"bins": 1}])
def test_histogram_counts_and_edges_are_pytorchs(data, keywords):
    ours, theirs = ag.histogram(ag.tensor(data), **keywords), torch.histogram(torch.tensor(data), **keywords)
    _same(ours.hist, theirs.hist)
    _same(ours.bin_edges, theirs.bin_edges)
    _same(ag.tensor(data).histogram(**keywords)[0], theirs[0])


def test_histogram_with_edges_and_weights():
    x, w = [0.1, 0.9, 1.5, 2.0, 4.99, 5.0, 6.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    edges = [0.0, 1.0, 2.0, 5.0]
    ours = ag.histogram(ag.tensor(x), ag.tensor(edges), weight=ag.tensor(w))
    theirs = torch.histogram(torch.tensor(x), torch.tensor(edges), weight=torch.tensor(w))
    _same(ours.hist, theirs.hist)


@pytest.mark.parametrize("data", DATA)
@pytest.mark.parametrize("bins,low,high", [(4, 0, 0), (4, 0, 3), (3, -1, 1)])
def test_histc_is_pytorchs(data, bins, low, high):
    _same(ag.histc(ag.tensor(data), bins, low, high), torch.histc(torch.tensor(data), bins, low, high))
    _same(ag.tensor(data).histc(bins, low, high), torch.tensor(data).histc(bins, low, high))


def test_histograms_refuse_integers_as_pytorch():
    _both_raise(lambda: ag.histogram(ag.tensor([1, 2]), 2), lambda: torch.histogram(torch.tensor([1, 2]), 2))
    _both_raise(lambda: ag.histc(ag.tensor([1, 2]), 2), lambda: torch.histc(torch.tensor([1, 2]), 2))


# ----- distributions ----------------------------------------------------------------------

PROBS = [[0.2, 0.3, 0.5], [[1.0, 1.0, 2.0, 0.0], [0.1, 5.0, 0.2, 3.0]]]


@pytest.mark.parametrize("probs", PROBS)
def test_categorical_probs_logits_log_prob_entropy(probs):
    for given in ("probs", "logits"):
        p = torch.tensor(probs, requires_grad=True)
        q = ag.tensor(probs, requires_grad=True)
        source = p if given == "probs" else (p + 1).log()
        mine = q if given == "probs" else (q + 1).log()
        theirs = torch.distributions.Categorical(**{given: source})
        ours = ag.distributions.Categorical(**{given: mine})
        _same(ours.probs, theirs.probs)
        _same(ours.logits, theirs.logits)
        value = [1, 2] if len(np.shape(probs)) == 1 else [[0, 3], [1, 2]]
        t_lp, o_lp = theirs.log_prob(torch.tensor(value)), ours.log_prob(ag.tensor(value))
        _same(o_lp, t_lp)
        _same(ours.entropy(), theirs.entropy())
        (t_lp.sum() + theirs.entropy().sum()).backward()
        (o_lp.sum() + ours.entropy().sum()).backward()
        _same(q.grad, p.grad)
        assert ours.batch_shape == tuple(theirs.batch_shape) and ours.event_shape == tuple(theirs.event_shape)


@pytest.mark.parametrize("probs", PROBS)
@pytest.mark.parametrize("sample_shape", [(), (5,), (2, 3)])
def test_samples_from_one_generator_are_pytorchs(probs, sample_shape):
    with torch_random_source():
        ag.manual_seed(3)
        ours = ag.distributions.Categorical(probs=ag.tensor(probs)).sample(sample_shape)
        counts = ag.distributions.multinomial.Multinomial(10, ag.tensor(probs)).sample(sample_shape)
    torch.manual_seed(3)
    theirs = torch.distributions.Categorical(probs=torch.tensor(probs)).sample(sample_shape)
    their_counts = torch.distributions.multinomial.Multinomial(10, torch.tensor(probs)).sample(sample_shape)
    assert ours.dtype == ag.int64 and counts.dtype == ag.float32
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    np.testing.assert_array_equal(counts.numpy(), their_counts.numpy())


def test_multinomial_log_prob_mean_variance():
    p = torch.tensor([1.0, 1.0, 2.0], requires_grad=True)
    q = ag.tensor([1.0, 1.0, 2.0], requires_grad=True)
    theirs = torch.distributions.multinomial.Multinomial(10, p)
    ours = ag.distributions.multinomial.Multinomial(10, q)
    value = [[3.0, 3.0, 4.0], [0.0, 0.0, 10.0]]
    t_lp, o_lp = theirs.log_prob(torch.tensor(value)), ours.log_prob(ag.tensor(value))
    _same(o_lp, t_lp)
    _same(ours.mean, theirs.mean)
    _same(ours.variance, theirs.variance)
    t_lp.sum().backward()
    o_lp.sum().backward()
    _same(q.grad, p.grad)


def test_distribution_errors_are_pytorchs():
    _both_raise(lambda: ag.distributions.Categorical(), lambda: torch.distributions.Categorical())
    _both_raise(lambda: ag.distributions.Categorical(probs=ag.tensor([-0.2, 0.3, 0.5])),
                lambda: torch.distributions.Categorical(probs=torch.tensor([-0.2, 0.3, 0.5])))
    with pytest.raises(ValueError, match="within the support"):
        ag.distributions.Categorical(probs=ag.tensor([0.2, 0.8])).log_prob(ag.tensor(2))
    with pytest.raises(ValueError, match="within the support"):
        ag.distributions.Multinomial(3, ag.tensor([0.2, 0.8])).log_prob(ag.tensor([2.0, 2.0]))


# ----- lazy layers ------------------------------------------------------------------------

@pytest.mark.parametrize("make,shape", [(lambda nn: nn.LazyLinear(4), (2, 3)),
                                        (lambda nn: nn.LazyLinear(4, bias=False), (5, 2, 6)),
                                        (lambda nn: nn.LazyConv2d(6, 3, padding=1), (2, 3, 5, 5)),
                                        (lambda nn: nn.LazyConv1d(3, 2, stride=2), (2, 4, 7)),
                                        (lambda nn: nn.LazyConv2d(4, 2, stride=2, groups=2, bias=False), (2, 6, 4))])
def test_a_lazy_layer_initializes_at_its_first_call_as_pytorch(make, shape):
    with torch_random_source():
        ag.manual_seed(0)
        layer = make(ag.nn)
        assert repr(layer.weight) == "<UninitializedParameter>"
        optimizer = ag.optim.SGD(layer.parameters(), lr=0.1)  # made before the call, as d2l does
        x = ag.randn(*shape)
        out = layer(x)
    torch.manual_seed(0)
    their_layer = make(torch.nn)
    their_optimizer = torch.optim.SGD(their_layer.parameters(), lr=0.1)
    their_out = their_layer(torch.randn(*shape))
    assert repr(layer) == repr(their_layer) and type(layer).__name__ == type(their_layer).__name__
    _same(out, their_out)
    out.square().sum().backward()
    their_out.square().sum().backward()
    optimizer.step()
    their_optimizer.step()
    for (name, ours), (their_name, theirs) in zip(layer.named_parameters(), their_layer.named_parameters()):
        assert name == their_name
        _same(ours, theirs)


@pytest.mark.parametrize("make,state,shape", [
    (lambda nn: nn.LazyLinear(4), {"weight": (4, 3), "bias": (4,)}, (2, 3)),
    (lambda nn: nn.LazyConv2d(4, 2), {"weight": (4, 3, 2, 2), "bias": (4,)}, (1, 3, 3, 3))])
def test_a_lazy_layer_loads_a_state_dict_before_its_first_call(make, state, shape):
    rng = np.random.default_rng(2)
    arrays = {name: rng.standard_normal(size) for name, size in state.items()}
    ours, theirs = make(ag.nn), make(torch.nn)
    ours.load_state_dict({name: ag.tensor(a, dtype=ag.float32) for name, a in arrays.items()})
    theirs.load_state_dict({name: torch.tensor(a, dtype=torch.float32) for name, a in arrays.items()})
    assert repr(ours) == repr(theirs)
    x = rng.standard_normal(shape)
    _same(ours(ag.tensor(x, dtype=ag.float32)), theirs(torch.tensor(x, dtype=torch.float32)))
    assert repr(ours) == repr(theirs)


def test_an_uninitialized_parameter_refuses_its_shape_as_pytorch():
    _both_raise(lambda: ag.nn.LazyLinear(3).weight.shape, lambda: torch.nn.LazyLinear(3).weight.shape)
    _both_raise(lambda: ag.nn.LazyConv2d(3, 2)(ag.ones(2, 2)), lambda: torch.nn.LazyConv2d(3, 2)(torch.ones(2, 2)))
    assert repr(ag.nn.LazyLinear(3)) == repr(torch.nn.LazyLinear(3))


# ----- MultiheadAttention -----------------------------------------------------------------

def _attention_pair(embed, heads, **settings):
    theirs = torch.nn.MultiheadAttention(embed, heads, **settings).double()
    ours = ag.nn.MultiheadAttention(embed, heads, dtype=ag.float64, **settings)
    ours.load_state_dict({name: ag.tensor(value.detach().numpy()) for name, value in theirs.state_dict().items()})
    return ours, theirs


def _leaf(array, module):
    return (ag.tensor(array, dtype=ag.float64, requires_grad=True) if module is ag else
            torch.tensor(array, dtype=torch.float64, requires_grad=True))


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("self_attention", [True, False])
@pytest.mark.parametrize("masks", ["none", "padding", "causal_bool", "float_3d", "both"])
@pytest.mark.parametrize("need_weights,average", [(True, True), (True, False), (False, True)])
def test_multihead_attention_outputs_weights_and_gradients_are_pytorchs(batch_first, self_attention, masks,
                                                                        need_weights, average):
    rng = np.random.default_rng(7)
    embed, heads, n, length, source = 6, 2, 3, 4, 4 if self_attention else 5
    ours, theirs = _attention_pair(embed, heads, batch_first=batch_first)
    lead = (n, length) if batch_first else (length, n)
    query = rng.standard_normal(lead + (embed,))
    other = rng.standard_normal(((n, source) if batch_first else (source, n)) + (embed,))
    padding = np.zeros((n, source), bool)
    padding[0, -1] = padding[2, 1:3] = True  # no query left with nothing to attend to
    causal = np.triu(np.ones((length, source), bool), 1)
    float_3d = rng.standard_normal((n * heads, length, source))
    results = []
    for module, layer in ((ag, ours), (torch, theirs)):
        q = _leaf(query, module)
        k = q if self_attention else _leaf(other, module)
        v = q if self_attention else _leaf(other * 2, module)
        keywords = {"need_weights": need_weights, "average_attn_weights": average}
        if masks in ("padding", "both"):
            keywords["key_padding_mask"] = module.tensor(padding)
        if masks in ("causal_bool", "both"):
            keywords["attn_mask"] = module.tensor(causal)
        if masks == "float_3d":
            keywords["attn_mask"] = module.tensor(float_3d)
        output, weights = layer(q, k, v, **keywords)
        (output.square().sum() + (weights.sum() if weights is not None else 0)).backward()
        results.append((output, weights, [q.grad] + [p.grad for p in layer.parameters()]))
    (output, weights, grads), (their_output, their_weights, their_grads) = results
    _same(output, their_output, 1e-10)
    assert (weights is None) == (their_weights is None)
    if weights is not None:
        _same(weights, their_weights, 1e-10)
    for grad, their_grad in zip(grads, their_grads):
        _same(grad, their_grad, 1e-10)


def test_multihead_attention_on_one_sequence_without_bias_and_its_parameters():
    ours, theirs = _attention_pair(4, 4, bias=False)
    assert [name for name, _ in ours.named_parameters()] == [name for name, _ in theirs.named_parameters()]
    assert repr(ours) == repr(theirs)
    x = np.random.default_rng(1).standard_normal((5, 4))
    output, weights = ours(*[ag.tensor(x)] * 3)
    their_output, their_weights = theirs(*[torch.tensor(x)] * 3)
    _same(output, their_output, 1e-10)
    _same(weights, their_weights, 1e-10)


def test_multihead_attention_initializes_as_pytorch_from_one_generator():
    with torch_random_source():
        ag.manual_seed(5)
        ours = ag.nn.MultiheadAttention(8, 2)
    torch.manual_seed(5)
    theirs = torch.nn.MultiheadAttention(8, 2)
    for (_, mine), (_, their) in zip(ours.named_parameters(), theirs.named_parameters()):
        _same(mine, their)


def test_multihead_attention_errors_are_pytorchs():
    _both_raise(lambda: ag.nn.MultiheadAttention(6, 4), lambda: torch.nn.MultiheadAttention(6, 4))
    ours, theirs = _attention_pair(4, 2)
    _both_raise(lambda: ours(ag.ones(2, 3, 5), ag.ones(2, 3, 5), ag.ones(2, 3, 5)),
                lambda: theirs(torch.ones(2, 3, 5), torch.ones(2, 3, 5), torch.ones(2, 3, 5)))
    _both_raise(lambda: ours(ag.ones(1, 2, 3, 4), ag.ones(1, 2, 3, 4), ag.ones(1, 2, 3, 4)),
                lambda: theirs(torch.ones(1, 2, 3, 4), torch.ones(1, 2, 3, 4), torch.ones(1, 2, 3, 4)))
