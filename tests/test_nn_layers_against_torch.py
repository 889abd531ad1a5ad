"""The layers, activations, containers and losses of issue 30, as modules, against PyTorch:
the same initial weights (copied from torch), the same inputs; outputs, input and parameter
gradients, buffers and ``state_dict`` keys compared in float32 tolerances, in train and
eval modes; reprs and error messages as PyTorch's."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(30)


def _copy_weights(ours, theirs) -> None:
    ours.load_state_dict({k: ag.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()})


def _pair(build):
    theirs = build(torch)
    ours = build(ag)
    _copy_weights(ours, theirs)
    return ours, theirs


def _step(model, lib, x, *, grad_of_input=True):
    """Output, the input's gradient and each parameter's, for ``(out * w).sum()`` with a fixed ``w``."""
    inputs = lib.tensor(x, requires_grad=grad_of_input)
    out = model(inputs)
    weights = np.arange(out.numel(), dtype=np.float32).reshape(tuple(out.shape)) % 5 - 2
    (out * lib.tensor(weights)).sum().backward()
    grads = {k: p.grad.numpy().copy() for k, p in model.named_parameters() if p.grad is not None}
    model.zero_grad()
    return out, (inputs.grad.numpy() if grad_of_input else None), grads


def _assert_same(ours, theirs, x, modes=("train",), grad_of_input=True, tolerance=1e-4):
    for mode in modes:
        ours.train(mode == "train")
        theirs.train(mode == "train")
        a, b = _step(ours, ag, x, grad_of_input=grad_of_input), _step(theirs, torch, x, grad_of_input=grad_of_input)
        assert a[0].grad_fn.name() == b[0].grad_fn.name(), mode
        np.testing.assert_allclose(a[0].detach().numpy(), b[0].detach().numpy(), tolerance, tolerance, err_msg=mode)
        if grad_of_input:
            np.testing.assert_allclose(a[1], b[1], tolerance, tolerance, err_msg=f"{mode}: input gradient")
        assert sorted(a[2]) == sorted(b[2])
        for name in a[2]:
            np.testing.assert_allclose(a[2][name], b[2][name], tolerance, tolerance, err_msg=f"{mode}: {name}")
        ours_state, their_state = ours.state_dict(), theirs.state_dict()
        assert list(ours_state) == list(their_state)
        for name, value in their_state.items():
            assert str(ours_state[name].dtype).split(".")[-1] == str(value.dtype).split(".")[-1], name
            np.testing.assert_allclose(ours_state[name].numpy(), value.numpy(), tolerance, tolerance, err_msg=name)
    assert repr(ours) == repr(theirs)


ACTIVATIONS = [
    lambda m: m.nn.GELU(), lambda m: m.nn.GELU("tanh"), lambda m: m.nn.LeakyReLU(),
    lambda m: m.nn.LeakyReLU(0.2), lambda m: m.nn.SiLU(), lambda m: m.nn.ELU(), lambda m: m.nn.ELU(0.5),
    lambda m: m.nn.Softplus(), lambda m: m.nn.Softplus(2.0, 5.0), lambda m: m.nn.Softmax(dim=1),
    lambda m: m.nn.LogSoftmax(dim=-1), lambda m: m.nn.Identity(),
]


@pytest.mark.parametrize("build", ACTIVATIONS)
def test_activation_modules(build):
    x = (RNG.normal(size=(4, 5)) * 3).astype(np.float32)
    ours, theirs = build(ag), build(torch)
    if isinstance(theirs, torch.nn.Identity):  # the input itself, no node
        assert ours(ag.tensor(x)) is not None and repr(ours) == repr(theirs)
        return
    _assert_same(ours, theirs, x, modes=("train", "eval"))


@pytest.mark.parametrize("build, shape", [
    (lambda m: m.nn.BatchNorm1d(3), (6, 3)),
    (lambda m: m.nn.BatchNorm1d(3, momentum=None), (5, 3, 4)),
    (lambda m: m.nn.BatchNorm1d(3, affine=False), (5, 3)),
    (lambda m: m.nn.BatchNorm2d(4), (2, 4, 3, 3)),
    (lambda m: m.nn.BatchNorm2d(4, momentum=0.5, eps=1e-3), (3, 4, 2, 2)),
    (lambda m: m.nn.BatchNorm2d(4, track_running_stats=False), (2, 4, 3, 3)),
    (lambda m: m.nn.BatchNorm2d(4, bias=False), (2, 4, 3, 3)),
])
def test_batch_norm_trains_then_evaluates_as_pytorch(build, shape):
    ours, theirs = _pair(build)
    for _ in range(3):  # the running statistics move with each training batch
        x = (RNG.normal(size=shape) * 2 + 1).astype(np.float32)
        _assert_same(ours, theirs, x, modes=("train",))
    _assert_same(ours, theirs, (RNG.normal(size=shape) * 2).astype(np.float32), modes=("eval", "train", "eval"))


def test_batch_norm_buffers_and_state_dict():
    ours, theirs = _pair(lambda m: m.nn.BatchNorm1d(2))
    assert [n for n, _ in ours.named_buffers()] == [n for n, _ in theirs.named_buffers()]
    assert ours.num_batches_tracked.dtype == ag.int64
    before = ours.state_dict()["running_mean"]  # shares memory with the buffer, as in PyTorch
    ours(ag.tensor([[1.0, 2.0], [3.0, 5.0]]))
    assert before.tolist() == ours.running_mean.tolist() == pytest.approx([0.2, 0.35])
    assert ours.running_var.tolist() == pytest.approx([0.9 + 0.1 * 2.0, 0.9 + 0.1 * 4.5])  # unbiased
    with ag.no_grad():
        ours.eval()(ag.ones(3, 2))
    assert int(ours.num_batches_tracked) == 1  # eval leaves it
    with pytest.raises(RuntimeError, match="weight should contain 3 elements not 2"):
        ours.train()(ag.ones(4, 3))  # a refused input changes no buffer
    assert int(ours.num_batches_tracked) == 1 and before.tolist() == pytest.approx([0.2, 0.35])


@pytest.mark.parametrize("call, x", [
    (lambda m: m.nn.BatchNorm1d(3)(m.ones(1, 3)), None),
    (lambda m: m.nn.BatchNorm1d(3)(m.ones(2, 3, 4, 5)), None),
    (lambda m: m.nn.BatchNorm2d(3)(m.ones(2, 3, 4)), None),
    (lambda m: m.nn.LayerNorm(4)(m.ones(2, 3)), None),
    (lambda m: m.nn.functional.layer_norm(m.ones(2, 2), (3,)), None),
    (lambda m: m.nn.functional.batch_norm(m.ones(2, 3, dtype=m.int64), None, None, training=True), None),
])
def test_normalization_errors_are_pytorchs(call, x):
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value)) as ours:
        call(ag)
    message = str(theirs.value).replace("torch.", "ag.")
    if "normalized_shape" in message or "value per channel" in message or "input (got" in message:
        assert str(ours.value) == message


@pytest.mark.parametrize("build, shape", [
    (lambda m: m.nn.LayerNorm(5), (3, 5)),
    (lambda m: m.nn.LayerNorm((2, 5)), (3, 2, 5)),
    (lambda m: m.nn.LayerNorm(5, elementwise_affine=False), (4, 5)),
    (lambda m: m.nn.LayerNorm(5, bias=False, eps=1e-3), (2, 2, 5)),
])
def test_layer_norm(build, shape):
    ours, theirs = _pair(build)
    with torch.no_grad():  # weights other than the initial ones and zeros
        for p in theirs.parameters():
            p.copy_(torch.tensor(RNG.normal(size=tuple(p.shape)).astype(np.float32)))
    _copy_weights(ours, theirs)
    _assert_same(ours, theirs, (RNG.normal(size=shape) * 3).astype(np.float32), modes=("train", "eval"))


@pytest.mark.parametrize("kwargs", [{}, {"padding_idx": 0}, {"padding_idx": -2}, {"max_norm": 1.0},
                                    {"scale_grad_by_freq": True}, {"max_norm": 2.0, "norm_type": 1.0}])
def test_embedding(kwargs):
    ours, theirs = _pair(lambda m: m.nn.Embedding(7, 3, **kwargs))
    indices = np.array([[0, 1, 5], [5, 5, 2]])
    _assert_same(ours, theirs, indices, grad_of_input=False)
    np.testing.assert_allclose(ours.weight.detach().numpy(), theirs.weight.detach().numpy(), 1e-6)  # renormed


def test_embedding_initial_table_and_errors():
    table = ag.nn.Embedding(1000, 8, padding_idx=3)
    assert abs(float(table.weight.std()) - 1) < 0.05 and not table.weight[3].any()
    for bad in (ag.tensor([7]), ag.tensor([-1])):
        with pytest.raises(IndexError, match="index out of range in self"):
            ag.nn.Embedding(7, 2)(bad)
    with pytest.raises(RuntimeError, match="Long, Int; but got ag.FloatTensor"):
        ag.nn.Embedding(7, 2)(ag.tensor([1.0]))
    with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
        ag.nn.Embedding(7, 2, padding_idx=7)
    frozen = ag.nn.Embedding.from_pretrained(ag.eye(3))
    assert not frozen.weight.requires_grad and frozen(ag.tensor([2])).tolist() == [[0.0, 0.0, 1.0]]


@pytest.mark.parametrize("values, classes", [([0, 2], -1), ([[1], [3]], 5), ([], 3), (2, -1)])
def test_one_hot(values, classes):
    ours = ag.nn.functional.one_hot(ag.tensor(values, dtype=ag.int64), classes)
    theirs = torch.nn.functional.one_hot(torch.tensor(values, dtype=torch.int64), classes)
    assert ours.dtype == ag.int64 and ours.tolist() == theirs.tolist() and tuple(ours.shape) == tuple(theirs.shape)


@pytest.mark.parametrize("values, classes, dtype", [([0, 2], 2, "int64"), ([-1], -1, "int64"),
                                                    ([], -1, "int64"), ([1], 3, "int32")])
def test_one_hot_errors(values, classes, dtype):
    with pytest.raises(RuntimeError) as theirs:
        torch.nn.functional.one_hot(torch.tensor(values, dtype=getattr(torch, dtype)), classes)
    with pytest.raises(RuntimeError, match=str(theirs.value).replace(".", r"\.")):
        ag.nn.functional.one_hot(ag.tensor(values, dtype=getattr(ag, dtype)), classes)


LOSSES = [
    (lambda m: m.nn.L1Loss(), "any"), (lambda m: m.nn.L1Loss(reduction="sum"), "any"),
    (lambda m: m.nn.SmoothL1Loss(), "any"), (lambda m: m.nn.SmoothL1Loss(beta=0.5, reduction="none"), "any"),
    (lambda m: m.nn.SmoothL1Loss(beta=0.0), "any"),
    (lambda m: m.nn.HuberLoss(), "any"), (lambda m: m.nn.HuberLoss(delta=0.3, reduction="sum"), "any"),
    (lambda m: m.nn.BCELoss(), "probability"), (lambda m: m.nn.BCELoss(reduction="none"), "probability"),
    (lambda m: m.nn.BCELoss(weight=m.tensor([1.0, 2.0, 0.5])), "probability"),
    (lambda m: m.nn.BCEWithLogitsLoss(), "any"),
    (lambda m: m.nn.BCEWithLogitsLoss(pos_weight=m.tensor([3.0, 1.0, 0.2])), "any"),
    (lambda m: m.nn.BCEWithLogitsLoss(weight=m.tensor([1.0, 2.0, 0.5]), reduction="sum"), "any"),
    (lambda m: m.nn.CrossEntropyLoss(label_smoothing=0.1), "classes"),
    (lambda m: m.nn.CrossEntropyLoss(label_smoothing=0.2, ignore_index=1,
                                     weight=m.tensor([1.0, 2.0, 0.5])), "classes"),
    (lambda m: m.nn.CrossEntropyLoss(label_smoothing=0.3, reduction="sum"), "classes"),
    (lambda m: m.nn.CrossEntropyLoss(label_smoothing=0.1), "soft"),
]


@pytest.mark.parametrize("build, kind", LOSSES)
def test_loss_modules(build, kind):
    ours, theirs = build(ag), build(torch)
    x = (RNG.normal(size=(4, 3)) * 3).astype(np.float32)
    if kind == "probability":
        x = 1 / (1 + np.exp(-x))
        x[0, 0], x[1, 1] = 0.0, 1.0  # certainties: the log clamp at -100
    if kind == "classes":
        target = np.array([0, 2, 1, 2])
    elif kind == "soft":
        target = np.exp(x) / np.exp(x).sum(1, keepdims=True)
    else:
        target = (RNG.uniform(size=(4, 3)) > 0.5).astype(np.float32)
    results = []
    for model, lib in ((ours, ag), (theirs, torch)):
        inputs = lib.tensor(x, requires_grad=True)
        loss = model(inputs, lib.tensor(target))
        loss.sum().backward()
        results.append((loss.grad_fn.name(), loss.detach().numpy(), inputs.grad.numpy(), list(model.state_dict())))
    (name, value, grad, keys), (their_name, their_value, their_grad, their_keys) = results
    # soft targets end in a division by the batch size, PyTorch's DivBackward1 (by a number)
    assert name == their_name.replace("DivBackward1", "DivBackward0")
    assert keys == their_keys and repr(ours) == repr(theirs)
    np.testing.assert_allclose(value, their_value, 1e-5, 1e-4)
    np.testing.assert_allclose(grad, their_grad, 1e-5, 1e-5)


@pytest.mark.parametrize("call", [
    lambda m: m.nn.functional.binary_cross_entropy(m.tensor([1.5]), m.tensor([1.0])),
    lambda m: m.nn.functional.binary_cross_entropy(m.tensor([[0.5]]), m.tensor([1.0])),
    lambda m: m.nn.functional.binary_cross_entropy(m.tensor([0.5]), m.tensor([1])),
    lambda m: m.nn.functional.binary_cross_entropy_with_logits(m.tensor([[0.5]]), m.tensor([1.0])),
    lambda m: m.nn.functional.smooth_l1_loss(m.tensor([0.5]), m.tensor([1.0]), beta=-1.0),
    lambda m: m.nn.functional.huber_loss(m.tensor([0.5]), m.tensor([1.0]), delta=0.0),
    lambda m: m.nn.functional.gelu(m.tensor([1])),
    lambda m: m.nn.functional.leaky_relu(m.tensor([True])),
    lambda m: m.nn.functional.gelu(m.ones(2), approximate="erf"),
    lambda m: m.nn.functional.batch_norm(m.ones(2, 3), m.zeros(2), m.ones(2), training=True),
    lambda m: m.nn.functional.batch_norm(m.ones(2, 3), None, None, None, m.ones(2), training=True),
    lambda m: m.nn.functional.layer_norm(m.ones(2, 3), (3,), m.ones(2)),
    lambda m: m.nn.functional.binary_cross_entropy(m.tensor([0.5]), m.tensor([1.0]),
                                                   weight=m.ones(1, requires_grad=True)).backward(),
    lambda m: m.nn.functional.binary_cross_entropy_with_logits(m.tensor([0.5]), m.tensor([1.0]),
                                                               pos_weight=m.ones(1, requires_grad=True)),
    lambda m: m.nn.functional.binary_cross_entropy_with_logits(m.tensor([0.5]), m.tensor([1.0]),
                                                               weight=m.ones(1, requires_grad=True)),
])
def test_loss_and_activation_errors_are_pytorchs(call):
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value)) as ours:
        call(ag)
    assert str(ours.value) == str(theirs.value).replace("torch.Size", "ag.Size")


def test_containers():
    for lib in (ag, torch):
        heads = lib.nn.ModuleDict({"b": lib.nn.Linear(2, 2), "a": lib.nn.ReLU()})
        heads["c"] = lib.nn.Linear(2, 1)
        heads.update([("d", lib.nn.Tanh())])
        assert list(heads) == ["b", "a", "c", "d"] and len(heads) == 4 and "c" in heads
        assert [n for n, _ in heads.named_parameters()] == ["b.weight", "b.bias", "c.weight", "c.bias"]
        heads.pop("b")
        assert list(heads.keys()) == ["a", "c", "d"]
        layers = lib.nn.ModuleList([lib.nn.Linear(1, 1)])
        layers.append(lib.nn.Linear(1, 2)).extend([lib.nn.Linear(2, 1)])
        layers += [lib.nn.ReLU()]
        assert len(layers) == 4 and isinstance(layers[-1], lib.nn.ReLU) and len(layers[1:]) == 3
        assert [n for n, _ in layers.named_parameters()][-2:] == ["2.weight", "2.bias"]
        params = lib.nn.ParameterList([lib.ones(2)])
        params.append(lib.nn.Parameter(lib.zeros(3)))
        params.extend([lib.zeros(1)])
        assert [n for n, _ in params.named_parameters()] == ["0", "1", "2"]
        assert all(isinstance(p, lib.nn.Parameter) and p.requires_grad for p in params)
        assert [tuple(p.shape) for p in params] == [(2,), (3,), (1,)] and tuple(params[-1].shape) == (1,)
    assert repr(ag.nn.ModuleDict({"a": ag.nn.ReLU()})) == repr(torch.nn.ModuleDict({"a": torch.nn.ReLU()}))
    for build in (lambda m: m.nn.ModuleList([m.nn.Linear(2, 2) for _ in range(3)] + [m.nn.ReLU()]),
                  lambda m: m.nn.ModuleList(), lambda m: m.nn.ModuleList([m.nn.Sequential(m.nn.Tanh())] * 2)):
        assert repr(build(ag)) == repr(build(torch))  # runs of equal children: "(0-2): 3 x ..."
    for count in (0, 1, 2):
        assert repr(ag.nn.ParameterList([ag.ones(2, 3)] * count)) == \
            repr(torch.nn.ParameterList([torch.ones(2, 3)] * count)).replace("torch.", "ag.")


def test_dropout2d_drops_whole_channels_in_training_only():
    drop = ag.nn.Dropout2d(0.5)
    assert repr(drop) == repr(torch.nn.Dropout2d(0.5))
    ag.manual_seed(0)
    x = ag.ones(8, 16, 3, 3, requires_grad=True)
    out = drop(x)
    out.sum().backward()
    per_channel = out.detach().numpy().reshape(8, 16, 9)
    assert np.all(per_channel.min(-1) == per_channel.max(-1))  # a channel is kept or dropped whole
    assert set(np.unique(per_channel)) == {0.0, 2.0} and 0.3 < (per_channel == 0).mean() < 0.7
    np.testing.assert_array_equal(x.grad.numpy(), out.detach().numpy())
    assert drop.eval()(x) is x
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="Feature dropout requires at least 2 dimensions"):
            ag.nn.functional.dropout2d(ag.ones(3))


def _course_model(lib):
    """A makemore-style model with the issue's layers: embedding, norm, GELU, dropout off."""
    return lib.nn.Sequential(
        lib.nn.Embedding(27, 10), lib.nn.Flatten(), lib.nn.Linear(30, 64, bias=False),
        lib.nn.BatchNorm1d(64), lib.nn.GELU(), lib.nn.Linear(64, 32), lib.nn.LayerNorm(32),
        lib.nn.LeakyReLU(0.1), lib.nn.Linear(32, 27))


def test_a_small_model_trains_as_pytorch_does():
    ours, theirs = _pair(_course_model)
    our_opt, their_opt = ag.optim.SGD(ours.parameters(), lr=0.1), torch.optim.SGD(theirs.parameters(), lr=0.1)
    for step in range(5):
        x, y = RNG.integers(0, 27, (32, 3)), RNG.integers(0, 27, (32,))
        losses = []
        for model, lib, opt in ((ours, ag, our_opt), (theirs, torch, their_opt)):
            loss = lib.nn.functional.cross_entropy(model(lib.tensor(x)), lib.tensor(y), label_smoothing=0.1)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        assert losses[0] == pytest.approx(losses[1], rel=1e-4, abs=1e-5), step
    for (name, mine), their in zip(ours.state_dict().items(), theirs.state_dict().values()):
        np.testing.assert_allclose(mine.numpy(), their.numpy(), 2e-4, 2e-4, err_msg=name)
    ours.eval()
    theirs.eval()
    x = RNG.integers(0, 27, (4, 3))
    np.testing.assert_allclose(ours(ag.tensor(x)).detach().numpy(), theirs(torch.tensor(x)).detach().numpy(),
                               2e-4, 2e-4)


def test_the_new_layers_trace_and_draw_with_pytorchs_node_names():
    """The tracer records each new layer as one node named as in PyTorch's own graph of the
    same model (``trace_torch`` of torch's run), in a valid document, scoped by module."""
    from trace_checks import validate

    ours, theirs = _pair(_course_model)
    x, y = RNG.integers(0, 27, (8, 3)), RNG.integers(0, 27, (8,))
    with ag.trace() as tr:
        ag.nn.functional.binary_cross_entropy_with_logits(
            ours(ag.tensor(x)), ag.nn.functional.one_hot(ag.tensor(y), 27).float()).backward()
    doc = tr.to_dict()
    validate(doc)
    names = [n["op"] for n in doc["nodes"] if n["kind"] == "op"]
    expected = ["EmbeddingBackward0", "NativeBatchNormBackward0", "GeluBackward0", "NativeLayerNormBackward0",
                "LeakyReluBackward0", "BinaryCrossEntropyWithLogitsBackward0"]
    assert all(name in names for name in expected), names
    with ag.trace_torch() as their_tr:
        torch.nn.functional.binary_cross_entropy_with_logits(
            theirs(torch.tensor(x)), torch.nn.functional.one_hot(torch.tensor(y), 27).float()).backward()
    their_names = [n["op"] for n in their_tr.to_dict()["nodes"] if n["kind"] == "op"]
    assert all(name in their_names for name in expected), their_names
    scopes = {n.get("scope") for n in doc["nodes"] if n["kind"] == "op" and n["op"] in expected[:5]}
    assert {"Sequential.0", "Sequential.3", "Sequential.4", "Sequential.6", "Sequential.7"} <= scopes, scopes


@pytest.mark.parametrize("call", [
    lambda m, x, w: m.layer_norm(x, (4,), w, w * 0.5),
    lambda m, x, w: m.batch_norm(x, w, w * 0.5, None, None, True, 0.1, 1e-5, True),
    lambda m, x, w: m.embedding(x * 0 + w, m.tensor([[0, 2], [1, 1]])),
    lambda m, x, w: m.embedding(x * 0 + w, m.tensor([[0, 2], [1, 1]]), 1),
    lambda m, x, w: m.dropout(x, 0.5, False),
    lambda m, x, w: m.binary_cross_entropy_with_logits(x, x.detach().sigmoid(), None, w.detach(), 0),
    lambda m, x, w: m.binary_cross_entropy_with_logits(x, x.detach().sigmoid(), None, None, 2),
])
def test_top_level_forms_take_pytorchs_arguments(call):
    x = RNG.normal(size=(3, 4)).astype(np.float32)
    w = RNG.uniform(0.5, 2, size=(4,)).astype(np.float32)
    results = []
    for lib in (ag, torch):
        inputs, weight = lib.tensor(x, requires_grad=True), lib.tensor(w, requires_grad=True)
        out = call(lib, inputs, weight)
        out.sum().backward()
        results.append([out.detach().numpy()] + [t.grad.numpy() for t in (inputs, weight) if t.grad is not None])
    assert len(results[0]) == len(results[1])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, 1e-5, 1e-5)
