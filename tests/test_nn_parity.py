"""Layers and losses against PyTorch, in float64 with identical weights: values, gradients,
second-order gradients and graph node names."""
import math

import numpy
import pytest

import ag_jupyter as ag
import ag_jupyter.nn.functional as F
from ag_jupyter import nn

torch = pytest.importorskip("torch")
TF = torch.nn.functional
RNG = numpy.random.default_rng(0)


def pair(array, requires_grad=True):
    """The same float64 numbers as an ag tensor and a torch tensor."""
    array = numpy.array(array, dtype=numpy.float64)
    return (ag.tensor(array, dtype=ag.float64, requires_grad=requires_grad),
            torch.tensor(array, dtype=torch.float64, requires_grad=requires_grad))


def labels(array):
    array = numpy.asarray(array, dtype=numpy.int64)
    return ag.tensor(array), torch.tensor(array)


def close(ours, theirs, rtol=1e-10, atol=1e-12):
    assert ours is not None and theirs is not None
    numpy.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=rtol, atol=atol)


def copy_weights(ours: nn.Module, theirs) -> None:
    theirs.load_state_dict({k: torch.from_numpy(v.numpy().copy()) for k, v in ours.state_dict().items()})


def check_grads(ours_out, theirs_out, ours_inputs, theirs_inputs):
    close(ours_out, theirs_out)
    upstream = RNG.normal(size=tuple(ours_out.shape))
    ours_out.backward(ag.tensor(upstream, dtype=ag.float64))
    theirs_out.backward(torch.tensor(upstream))
    for a, b in zip(ours_inputs, theirs_inputs):
        close(a.grad, b.grad)


@pytest.mark.parametrize("shape", [(5, 4), (4,), (2, 3, 4)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_matches_torch(shape, bias):
    layer = nn.Linear(4, 3, bias=bias).double()
    reference = torch.nn.Linear(4, 3, bias=bias).double()
    copy_weights(layer, reference)
    x, tx = pair(RNG.normal(size=shape))
    check_grads(layer(x), reference(tx), [x, *layer.parameters()], [tx, *reference.parameters()])


def test_sequential_matches_torch():
    ours = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 4),
                         nn.Sigmoid()).double()
    theirs = torch.nn.Sequential(torch.nn.Linear(6, 8), torch.nn.ReLU(), torch.nn.Linear(8, 8),
                                 torch.nn.Tanh(), torch.nn.Linear(8, 4), torch.nn.Sigmoid()).double()
    copy_weights(ours, theirs)
    x, tx = pair(RNG.normal(size=(7, 6)))
    check_grads(ours(x), theirs(tx), [x, *ours.parameters()], [tx, *theirs.parameters()])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_matches_torch(reduction):
    x, tx = pair(RNG.normal(size=(5, 3)))
    y, ty = pair(RNG.normal(size=(5, 3)))
    check_grads(nn.MSELoss(reduction=reduction)(x, y), torch.nn.MSELoss(reduction=reduction)(tx, ty),
                [x, y], [tx, ty])
    assert F.mse_loss(x, y).grad_fn.name() == "MseLossBackward0"


def test_mse_loss_broadcasts_with_torchs_warning():
    x, tx = pair(RNG.normal(size=(4, 3)))
    y, ty = pair(RNG.normal(size=(3,)))
    with pytest.warns(UserWarning, match="different to the input size"):
        ours = F.mse_loss(x, y)
    with pytest.warns(UserWarning):
        theirs = TF.mse_loss(tx, ty)
    check_grads(ours, theirs, [x, y], [tx, ty])


NLL_CASES = [
    dict(),
    dict(reduction="sum"),
    dict(reduction="none"),
    dict(weight=[0.2, 1.0, 3.0, 0.5]),
    dict(weight=[0.2, 1.0, 3.0, 0.5], reduction="none"),
    dict(ignore_index=1),
    dict(ignore_index=1, weight=[0.2, 1.0, 3.0, 0.5], reduction="sum"),
]


@pytest.mark.parametrize("kwargs", NLL_CASES)
@pytest.mark.parametrize("loss", ["nll_loss", "cross_entropy"])
def test_class_losses_match_torch(loss, kwargs):
    x, tx = pair(RNG.normal(size=(6, 4)) * 3)
    t, tt = labels([0, 1, 3, 2, 1, 3])
    if loss == "nll_loss":  # NLL takes log-probabilities
        x, tx = pair(torch.log_softmax(tx, 1).detach().numpy())
    options = dict(kwargs)
    if "weight" in options:
        w, tw = pair(options["weight"], requires_grad=False)
        ours = getattr(F, loss)(x, t, weight=w, **{k: v for k, v in options.items() if k != "weight"})
        theirs = getattr(TF, loss)(tx, tt, weight=tw, **{k: v for k, v in options.items() if k != "weight"})
    else:
        ours, theirs = getattr(F, loss)(x, t, **options), getattr(TF, loss)(tx, tt, **options)
    check_grads(ours, theirs, [x], [tx])


@pytest.mark.parametrize("Module,TorchModule", [(nn.CrossEntropyLoss, torch.nn.CrossEntropyLoss),
                                                (nn.NLLLoss, torch.nn.NLLLoss)])
def test_loss_modules_match_torch(Module, TorchModule):
    x, tx = pair(RNG.normal(size=(5, 3)))
    t, tt = labels([2, 0, 1, 1, 2])
    w, tw = pair([1.0, 2.0, 0.5], requires_grad=False)
    ours, theirs = Module(weight=w, reduction="sum"), TorchModule(weight=tw, reduction="sum")
    check_grads(ours(x, t), theirs(tx, tt), [x], [tx])
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["weight"]


def test_class_losses_on_more_dimensions_and_single_samples():
    x, tx = pair(RNG.normal(size=(2, 3, 4)))  # (N, C, d)
    t, tt = labels([[0, 1, 2, 1], [2, 2, 0, 1]])
    check_grads(F.cross_entropy(x, t), TF.cross_entropy(tx, tt), [x], [tx])
    x, tx = pair(RNG.normal(size=(5,)))  # one sample, no batch dimension
    t, tt = labels(3)
    check_grads(F.cross_entropy(x, t), TF.cross_entropy(tx, tt), [x], [tx])


@pytest.mark.parametrize("kwargs", [dict(label_smoothing=0.1), dict(label_smoothing=0.2, reduction="sum"),
                                    dict(label_smoothing=0.1, weight=[1.0, 2.0, 0.5, 1.5]),
                                    dict(label_smoothing=0.3, ignore_index=0, reduction="none")])
def test_cross_entropy_label_smoothing_matches_torch(kwargs):
    x, tx = pair(RNG.normal(size=(6, 4)))
    t, tt = labels([0, 1, 3, 2, 1, 0])
    options = dict(kwargs)
    weight = options.pop("weight", None)
    w, tw = pair(weight, requires_grad=False) if weight is not None else (None, None)
    check_grads(F.cross_entropy(x, t, weight=w, **options), TF.cross_entropy(tx, tt, weight=tw, **options),
                [x], [tx])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_with_probability_targets_matches_torch(reduction):
    x, tx = pair(RNG.normal(size=(5, 4)))
    p, tp = pair(torch.softmax(torch.tensor(RNG.normal(size=(5, 4))), 1).numpy())
    check_grads(F.cross_entropy(x, p, reduction=reduction), TF.cross_entropy(tx, tp, reduction=reduction),
                [x, p], [tx, tp])


def test_cross_entropy_is_stable_for_huge_logits():
    logits = [[1e4, 0.0, -1e4], [-1e4, 1e4, 5e3], [3e4, 3e4, -2e4]]
    x, tx = pair(logits)
    t, tt = labels([2, 1, 0])
    ours, theirs = F.cross_entropy(x, t), TF.cross_entropy(tx, tt)
    assert math.isfinite(ours.item())
    check_grads(ours, theirs, [x], [tx])
    assert numpy.isfinite(x.grad.numpy()).all()
    assert ours.grad_fn.name() == "NllLossBackward0"
    assert ours.grad_fn.next_functions[0][0].name() == "LogSoftmaxBackward0"
    x32 = ag.tensor(logits, requires_grad=True)  # float32 too
    assert math.isfinite(F.cross_entropy(x32, t).item())


@pytest.mark.parametrize("name", ["relu", "tanh", "sigmoid"])
def test_activation_functions_match_torch(name):
    x, tx = pair(RNG.normal(size=(4, 5)))
    check_grads(getattr(F, name)(x), getattr(TF, name)(tx), [x], [tx])


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_functions_match_torch(name, dim):
    x, tx = pair(RNG.normal(size=(3, 4)) * 10)
    check_grads(getattr(F, name)(x, dim=dim), getattr(TF, name)(tx, dim=dim), [x], [tx])
    module = {"softmax": nn.Softmax, "log_softmax": nn.LogSoftmax}[name](dim=dim)
    close(module(x), getattr(TF, name)(tx, dim=dim))


def test_second_order_gradients_through_the_new_primitives():
    """create_graph runs each backward formula on tensors: compare Hessian-vector products."""
    layer = nn.Linear(3, 2).double()
    reference = torch.nn.Linear(3, 2).double()
    copy_weights(layer, reference)
    x, tx = pair(RNG.normal(size=(4, 3)))
    y, ty = pair(RNG.normal(size=(4, 2)), requires_grad=False)
    t, tt = labels([0, 1, 1, 0])
    v = RNG.normal(size=(4, 3))
    for ours_loss, theirs_loss in [
        (lambda a: F.mse_loss(layer(a).tanh(), y), lambda a: TF.mse_loss(reference(a).tanh(), ty)),
        (lambda a: F.cross_entropy(layer(a) ** 2, t), lambda a: TF.cross_entropy(reference(a) ** 2, tt)),
        (lambda a: F.nll_loss(F.log_softmax(layer(a) * layer(a), 1), t, reduction="sum"),
         lambda a: TF.nll_loss(TF.log_softmax(reference(a) * reference(a), 1), tt, reduction="sum")),
    ]:
        (g,) = ag.autograd.grad(ours_loss(x), [x], create_graph=True)
        (tg,) = torch.autograd.grad(theirs_loss(tx), [tx], create_graph=True)
        close(g, tg)
        (h,) = ag.autograd.grad((g * ag.tensor(v, dtype=ag.float64)).sum(), [x])
        (th,) = torch.autograd.grad((tg * torch.tensor(v)).sum(), [tx])
        close(h, th, rtol=1e-9)


class AgDynamicNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_linear = nn.Linear(5, 4)
        self.middle_linear = nn.Linear(4, 4)
        self.output_linear = nn.Linear(4, 2)

    def forward(self, x, repeats):
        h = self.input_linear(x).clamp(min=0)
        for _ in range(repeats):
            h = self.middle_linear(h).clamp(min=0)
        return self.output_linear(h)


class TorchDynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.input_linear = torch.nn.Linear(5, 4)
        self.middle_linear = torch.nn.Linear(4, 4)
        self.output_linear = torch.nn.Linear(4, 2)

    def forward(self, x, repeats):
        h = self.input_linear(x).clamp(min=0)
        for _ in range(repeats):
            h = self.middle_linear(h).clamp(min=0)
        return self.output_linear(h)


@pytest.mark.parametrize("repeats", [0, 1, 3])
def test_dynamic_net_shared_layer_gradients_match_torch(repeats):
    ours, theirs = AgDynamicNet().double(), TorchDynamicNet().double()
    copy_weights(ours, theirs)
    x, tx = pair(RNG.normal(size=(8, 5)), requires_grad=False)
    y, ty = pair(RNG.normal(size=(8, 2)), requires_grad=False)
    loss = nn.MSELoss(reduction="sum")(ours(x, repeats), y)
    reference = torch.nn.MSELoss(reduction="sum")(theirs(tx, repeats), ty)
    loss.backward()
    reference.backward()
    close(loss, reference)
    for (name, p), (_, tp) in zip(ours.named_parameters(), theirs.named_parameters()):
        if tp.grad is None:
            assert p.grad is None, name  # an unused branch keeps grad=None
        else:
            close(p.grad, tp.grad)
    assert (ours.middle_linear.weight.grad is None) == (repeats == 0)
