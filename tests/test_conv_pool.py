"""Convolution and pooling beyond the op registry (which checks values, gradients and second
derivatives): PyTorch's errors word for word, the modules' parameters, initialisation and
repr, indices, and a LeNet-shaped model against PyTorch's numbers."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

import ag_jupyter as ag
import ag_jupyter.nn.functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional


def _both(call):
    """The error message each library gives for ``call(lib, functional)``."""
    messages = []
    for lib, functional in ((torch, TF), (ag, F)):
        with pytest.raises((RuntimeError, ValueError)) as caught:
            call(lib, functional)
        messages.append(str(caught.value))
    return messages


BAD_CALLS = {
    "channels": lambda m, f: f.conv2d(m.ones(2, 3, 8, 8), m.ones(4, 2, 3, 3)),
    "kernel too big": lambda m, f: f.conv2d(m.ones(2, 3, 8, 8), m.ones(4, 3, 9, 9)),
    "input dims": lambda m, f: f.conv2d(m.ones(8, 8), m.ones(4, 3, 3, 3)),
    "input dims 1d": lambda m, f: f.conv1d(m.ones(1, 2, 5, 5), m.ones(2, 2, 3)),
    "groups divide weight": lambda m, f: f.conv2d(m.ones(2, 3, 8, 8), m.ones(4, 1, 3, 3), groups=3),
    "groups channels": lambda m, f: f.conv2d(m.ones(2, 3, 8, 8), m.ones(4, 1, 3, 3), groups=2),
    "groups zero": lambda m, f: f.conv2d(m.ones(1, 2, 5, 5), m.ones(2, 2, 3, 3), groups=0),
    "bias size": lambda m, f: f.conv2d(m.ones(2, 3, 8, 8), m.ones(4, 3, 3, 3), m.ones(3)),
    "bias dtype": lambda m, f: f.conv2d(m.ones(1, 1, 3, 3), m.ones(1, 1, 2, 2), m.ones(1, dtype=m.float64)),
    "same strided": lambda m, f: f.conv2d(m.ones(2, 3, 8, 8), m.ones(4, 3, 3, 3), stride=2, padding="same"),
    "padding string": lambda m, f: f.conv2d(m.ones(2, 3, 8, 8), m.ones(4, 3, 3, 3), padding="foo"),
    "negative padding": lambda m, f: f.conv2d(m.ones(2, 3, 8, 8), m.ones(4, 3, 3, 3), padding=-1),
    "zero stride": lambda m, f: f.conv2d(m.ones(2, 3, 8, 8), m.ones(4, 3, 3, 3), stride=0),
    "zero dilation": lambda m, f: f.conv2d(m.ones(2, 3, 8, 8), m.ones(4, 3, 3, 3), dilation=0),
    "padding length": lambda m, f: f.conv2d(m.ones(1, 2, 5, 5), m.ones(2, 2, 3, 3), padding=(1, 1, 1)),
    "stride length": lambda m, f: f.conv2d(m.ones(1, 2, 5, 5), m.ones(2, 2, 3, 3), stride=(1, 1, 1)),
    "pool pad": lambda m, f: f.max_pool2d(m.ones(2, 3, 8, 8), 3, padding=2),
    "avg pool pad": lambda m, f: f.avg_pool2d(m.ones(2, 3, 8, 8), 3, padding=2),
    "pool too small": lambda m, f: f.max_pool2d(m.ones(2, 3, 8, 8), 9),
    "pool kernel length": lambda m, f: f.max_pool2d(m.ones(1, 1, 5, 5), (2, 2, 2)),
    "pool stride zero": lambda m, f: f.max_pool2d(m.ones(1, 1, 5, 5), 2, stride=0),
    "pool negative pad": lambda m, f: f.max_pool2d(m.ones(1, 1, 5, 5), 2, padding=-1),
    "pool 2-d input": lambda m, f: f.max_pool2d(m.ones(5, 5), 2),
    "adaptive length": lambda m, f: f.adaptive_avg_pool2d(m.ones(1, 1, 5, 5), (2, 2, 2)),
    "module groups": lambda m, f: m.nn.Conv2d(3, 6, 3, groups=2),
    "module out groups": lambda m, f: m.nn.Conv2d(4, 6, 3, groups=4),
    "module same strided": lambda m, f: m.nn.Conv2d(4, 6, 3, stride=2, padding="same"),
    "module padding mode": lambda m, f: m.nn.Conv2d(3, 6, 3, padding_mode="foo"),
}


def _sets_sorted(message: str) -> str:
    """A message with each ``{...}`` set's names in sorted order: a set prints in the order of
    its hash table, which differs between processes (and between .pyc files)."""
    return re.sub(r"\{([^{}]*)\}", lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}", message)


@pytest.mark.parametrize("name", list(BAD_CALLS))
def test_errors_are_pytorchs(name):
    theirs, ours = _both(BAD_CALLS[name])
    assert _sets_sorted(ours) == _sets_sorted(theirs)


def test_a_refused_call_leaves_the_graph_as_it_was():
    x = ag.ones(1, 2, 5, 5, requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError):
        F.conv2d(y, ag.ones(1, 3, 3, 3))
    y.sum().backward()
    assert x.grad.tolist() == np.full((1, 2, 5, 5), 2.0).tolist()


PADDED_CONVS = [
    (lambda m, mode: m.nn.Conv2d(2, 3, 3, padding=1, padding_mode=mode), (2, 2, 5, 6)),
    (lambda m, mode: m.nn.Conv2d(2, 3, (3, 4), padding="same", dilation=(1, 2), padding_mode=mode), (1, 2, 5, 7)),
    (lambda m, mode: m.nn.Conv1d(2, 3, 3, padding=2, padding_mode=mode), (1, 2, 5))]


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
@pytest.mark.parametrize("make,shape", PADDED_CONVS)
def test_a_padding_mode_pads_with_f_pad_first_as_pytorch(make, shape, mode):
    theirs = make(torch, mode).double()
    ours = make(ag, mode).double()
    ours.load_state_dict({k: ag.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()})
    assert repr(ours) == repr(theirs)
    x = np.random.default_rng(0).standard_normal(shape)
    a, t = ag.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    out, expected = ours(a), theirs(t)
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=1e-10, atol=1e-12)
    out.square().sum().backward()
    expected.square().sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), t.grad.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ours.weight.grad.numpy(), theirs.weight.grad.numpy(), rtol=1e-10, atol=1e-12)


MODULES = [
    lambda m: m.nn.Conv2d(1, 6, 5),
    lambda m: m.nn.Conv2d(1, 6, 5, padding=2, bias=False, dilation=2),
    lambda m: m.nn.Conv2d(4, 6, (3, 1), stride=(2, 1), groups=2),
    lambda m: m.nn.Conv1d(4, 6, 3, stride=2, padding=1, groups=2),
    lambda m: m.nn.Conv1d(2, 4, 3, padding="same"),
    lambda m: m.nn.MaxPool2d(2),
    lambda m: m.nn.MaxPool2d(3, 2, 1, ceil_mode=True),
    lambda m: m.nn.MaxPool2d((2, 3)),
    lambda m: m.nn.MaxPool1d(2),
    lambda m: m.nn.AvgPool2d(2),
    lambda m: m.nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False),
    lambda m: m.nn.AdaptiveAvgPool2d((5, 7)),
    lambda m: m.nn.AdaptiveAvgPool2d(1),
]


@pytest.mark.parametrize("make", MODULES)
def test_module_repr_and_parameters_are_pytorchs(make):
    ours, theirs = make(ag), make(torch)
    assert repr(ours) == repr(theirs)
    assert [(n, tuple(p.shape)) for n, p in ours.named_parameters()] == \
        [(n, tuple(p.shape)) for n, p in theirs.named_parameters()]


def test_conv_init_is_kaiming_uniform_with_bias_by_fan_in():
    ag.manual_seed(0)
    conv = ag.nn.Conv2d(3, 64, 5)
    bound = 1 / math.sqrt(3 * 5 * 5)  # kaiming_uniform with a=sqrt(5) gives the same bound as the bias
    for p in (conv.weight, conv.bias):
        values = p.detach().numpy()
        assert values.min() >= -bound and values.max() <= bound
        assert values.max() > 0.9 * bound and values.min() < -0.9 * bound  # drawn over the whole range
    assert conv.weight.requires_grad and conv.weight.is_leaf


def test_max_pool_indices_are_pytorchs_and_carry_no_grad():
    x = np.random.default_rng(1).standard_normal((2, 3, 7, 9))
    values, indices = F.max_pool2d(ag.tensor(x, requires_grad=True), 3, 2, 1, ceil_mode=True, return_indices=True)
    expected = TF.max_pool2d(torch.tensor(x), 3, 2, 1, ceil_mode=True, return_indices=True)
    assert indices.dtype == ag.int64 and not indices.requires_grad
    assert indices.tolist() == expected[1].tolist()
    assert np.allclose(values.detach().numpy(), expected[0].numpy())
    module = ag.nn.MaxPool2d(2, return_indices=True)
    assert module(ag.tensor(x))[1].tolist() == torch.nn.MaxPool2d(2, return_indices=True)(torch.tensor(x))[1].tolist()


def test_nan_wins_a_max_pool_window_as_in_pytorch():
    x = [[[[float("nan"), 1.0], [1.0, 0.0]]]]
    ours = F.max_pool2d(ag.tensor(x), 2, return_indices=True)
    theirs = TF.max_pool2d(torch.tensor(x), 2, return_indices=True)
    assert np.isnan(ours[0].item()) and ours[1].tolist() == theirs[1].tolist()


def test_integer_average_pooling_rounds_towards_zero_as_pytorch():
    x = [[[[-3, 1, 2], [1, 0, 5]]]]
    assert F.avg_pool2d(ag.tensor(x), 2, ceil_mode=True).tolist() == \
        TF.avg_pool2d(torch.tensor(x), 2, ceil_mode=True).tolist()


def _lenet(m):
    nn = m.nn
    return nn.Sequential(nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU(),
                         nn.AvgPool2d(2), nn.Flatten(), nn.Linear(400, 10))


def test_a_small_cnn_trains_as_pytorchs_step_for_step():
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((8, 1, 28, 28)).astype(np.float32), rng.integers(0, 10, 8)
    ours, theirs = _lenet(ag), _lenet(torch)
    theirs.load_state_dict({k: torch.from_numpy(v.numpy().copy()) for k, v in ours.state_dict().items()})
    opt_ours = ag.optim.SGD(ours.parameters(), lr=0.1, momentum=0.9)
    opt_theirs = torch.optim.SGD(theirs.parameters(), lr=0.1, momentum=0.9)
    for _ in range(3):
        for model, opt, lib, functional in ((ours, opt_ours, ag, F), (theirs, opt_theirs, torch, TF)):
            opt.zero_grad()
            loss = functional.cross_entropy(model(lib.tensor(x)), lib.tensor(y))
            loss.backward()
            opt.step()
            model.last = loss.item()
        assert abs(ours.last - theirs.last) < 1e-5
    for (name, p), q in zip(ours.named_parameters(), theirs.parameters()):
        assert np.allclose(p.detach().numpy(), q.detach().numpy(), atol=1e-5), name


def test_a_traced_conv_and_pool_show_their_window_settings_by_name():
    from trace_checks import ops, validate

    from ag_jupyter.widgets.static_values import op_text

    with ag.trace() as tr:
        x = ag.randn(1, 1, 8, 8, requires_grad=True)
        y = F.max_pool2d(F.conv2d(x, ag.randn(2, 1, 3, 3), padding=1), 2, ceil_mode=True)
        F.conv1d(y.flatten(2), ag.randn(4, 1, 3), stride=2, dilation=2, groups=2)
        F.conv2d(x, ag.randn(2, 1, 4, 4), padding="same")
    doc = tr.to_dict()
    validate(doc)
    settings = [{c["name"]: c["value"] for c in op.get("consts", [])} for op in ops(doc)]
    assert settings[0] == {"kernel_size": "(3, 3)", "stride": "(1, 1)", "padding": "(1, 1)"}
    assert settings[1] == {"kernel_size": "(2, 2)", "stride": "(2, 2)", "ceil_mode": "True"}
    conv1d = next(s for s in settings if s.get("kernel_size") == "(3,)")
    assert conv1d == {"kernel_size": "(3,)", "stride": "(2,)", "dilation": "(2,)", "groups": "2"}
    assert settings[-1]["padding"] == "same"
    assert [op_text(op) for op in ops(doc)][:2] == ["conv 3×3 stride 1 padding 1",
                                                    "max pool 2×2 stride 2 ceil mode True"]


def _max_pool_grad(lib, functional, x, stride, weights):
    leaf = lib.tensor(x, requires_grad=True)
    out = functional.max_pool2d(leaf, 2, stride)
    (out * lib.tensor(np.resize(weights, tuple(out.shape)))).sum().backward()
    return leaf.grad.numpy()


@pytest.mark.parametrize("stride", [2, 1], ids=["apart", "overlapping"])
def test_an_inf_gradient_reaches_only_the_chosen_entry_of_a_max_pool(stride):
    x = np.arange(32.0).reshape(1, 2, 4, 4)
    weights = np.array([float("inf"), 1.0, 2.0, 3.0, -1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(_max_pool_grad(ag, F, x, stride, weights),
                                  _max_pool_grad(torch, TF, x, stride, weights))


def test_unbatched_unfold_and_fold_are_pytorchs():
    x = np.random.default_rng(2).standard_normal((2, 5, 6))
    ours, theirs = F.unfold(ag.tensor(x), (2, 3), padding=1), TF.unfold(torch.tensor(x), (2, 3), padding=1)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy())
    back = F.fold(ours, (5, 6), (2, 3), padding=1), TF.fold(theirs, (5, 6), (2, 3), padding=1)
    np.testing.assert_allclose(back[0].numpy(), back[1].numpy())
    for call in (lambda m, f: f.unfold(m.ones(1, 1, 1, 5, 6), 2), lambda m, f: f.fold(m.ones(1, 4, 4, 1), (3, 3), 2)):
        theirs, ours = _both(call)
        assert ours == theirs
