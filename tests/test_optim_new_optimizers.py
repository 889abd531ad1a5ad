"""AdamW, RMSprop, Adagrad and Adadelta beyond the update formula (test_optim_step_for_step.py):
PyTorch's errors for invalid hyperparameters, param groups, state_dict layout, resuming
from a checkpoint, and state on the parameter's dtype."""
import numpy
import pytest

import ag_jupyter as ag
import ag_jupyter.nn.functional as F
from ag_jupyter import nn

torch = pytest.importorskip("torch")

NEW = {"AdamW": dict(lr=0.01, weight_decay=0.1, amsgrad=True),
       "RMSprop": dict(lr=0.01, momentum=0.9, centered=True, weight_decay=0.01),
       "Adagrad": dict(lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1),
       "Adadelta": dict(lr=2.0, rho=0.8, weight_decay=0.01)}


def models():
    ag.manual_seed(0)
    ours = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 3)).double()
    theirs = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.Tanh(), torch.nn.Linear(6, 3)).double()
    theirs.load_state_dict({k: torch.from_numpy(v.numpy().copy()) for k, v in ours.state_dict().items()})
    return ours, theirs


def batches(count=20):
    rng = numpy.random.default_rng(1)
    return [(rng.normal(size=(8, 4)), rng.normal(size=(8, 3))) for _ in range(count)]


def train(model, optimizer, data, lib):
    for x, y in data:
        optimizer.zero_grad()
        functional = F if lib is ag else torch.nn.functional
        functional.mse_loss(model(lib.tensor(x, dtype=lib.float64)), lib.tensor(y, dtype=lib.float64)).backward()
        optimizer.step()


@pytest.mark.parametrize("name", NEW)
def test_groups_with_their_own_hyperparameters_and_a_frozen_bias_match_torch(name):
    ours, theirs = models()
    for model in (ours, theirs):
        model[0].bias.requires_grad_(False)
    start = [p.detach().numpy().copy() for p in ours.parameters()]
    groups = [lambda m: {"params": m[0].parameters()}, lambda m: {"params": m[2].parameters(), "lr": 0.003}]
    opt = getattr(ag.optim, name)([g(ours) for g in groups], **NEW[name])
    topt = getattr(torch.optim, name)([g(theirs) for g in groups], **NEW[name])
    train(ours, opt, batches(), ag)
    train(theirs, topt, batches(), torch)
    for p, q, before in zip(ours.parameters(), theirs.parameters(), start):
        numpy.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-10, atol=1e-14)
        assert p.requires_grad is False or not numpy.array_equal(p.detach().numpy(), before)
    ours_state, theirs_state = opt.state_dict(), topt.state_dict()
    assert sorted(ours_state["state"]) == sorted(theirs_state["state"])  # Adagrad: even the frozen bias
    for index, entry in ours_state["state"].items():
        assert set(entry) == set(theirs_state["state"][index])
        for key, value in entry.items():
            numpy.testing.assert_allclose(value.numpy(), theirs_state["state"][index][key].numpy(), rtol=1e-10,
                                          atol=1e-14, err_msg=f"{index} {key}")
            assert value.dtype == (ag.float32 if key == "step" else ag.float64)
    for ours_group, theirs_group in zip(ours_state["param_groups"], theirs_state["param_groups"]):
        assert ours_group == theirs_group


@pytest.mark.parametrize("name", NEW)
def test_a_checkpoint_continues_the_same_run(name, tmp_path):
    straight, _ = models()
    make = lambda params: getattr(ag.optim, name)(params, **NEW[name])  # noqa: E731
    train(straight, make(straight.parameters()), batches(), ag)
    first, _ = models()
    opt_first = make(first.parameters())
    train(first, opt_first, batches()[:8], ag)
    ag.save({"model": first.state_dict(), "optimizer": opt_first.state_dict()}, tmp_path / "checkpoint.npz")
    resumed, _ = models()
    opt_resumed = make(resumed.parameters())
    checkpoint = ag.load(tmp_path / "checkpoint.npz")
    resumed.load_state_dict(checkpoint["model"])
    opt_resumed.load_state_dict(checkpoint["optimizer"])
    train(resumed, opt_resumed, batches()[8:], ag)
    for p, q, start in zip(straight.parameters(), resumed.parameters(), models()[0].parameters()):
        assert numpy.array_equal(p.detach().numpy(), q.detach().numpy())
        assert not numpy.allclose(p.detach().numpy(), start.detach().numpy())


def test_adagrad_gives_a_later_group_state_from_the_defaults_as_torch():
    results = []
    for lib in (ag, torch):
        first, second = lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(3))
        opt = lib.optim.Adagrad([first], lr=0.1, initial_accumulator_value=0.5)
        opt.add_param_group({"params": [second], "initial_accumulator_value": 2.0})
        for _ in range(3):
            opt.zero_grad()
            ((first * first).sum() + (second * second).sum()).backward()
            opt.step()
        results.append([first.detach().numpy().copy(), second.detach().numpy().copy(),
                        opt.state[second]["sum"].numpy().copy()])
    for mine, their in zip(*results):
        numpy.testing.assert_allclose(mine, their, rtol=1e-6)


def test_adamw_decays_by_default_and_adam_decoupled_is_adamw():
    w = nn.Parameter(ag.tensor([1.0, -2.0], dtype=ag.float64))
    v = nn.Parameter(ag.tensor([1.0, -2.0], dtype=ag.float64))
    adamw = ag.optim.AdamW([w], lr=0.1)
    adam = ag.optim.Adam([v], lr=0.1, weight_decay=0.01, decoupled_weight_decay=True)
    assert adamw.defaults["weight_decay"] == 0.01 and adamw.param_groups[0]["decoupled_weight_decay"] is True
    for opt, p in ((adamw, w), (adam, v)):
        (p * p).sum().backward()
        opt.step()
    assert w.tolist() == v.tolist() == pytest.approx([1.0 * 0.999 - 0.1, -2.0 * 0.999 + 0.1])


def messages(make):
    found = []
    for lib in (ag, torch):
        with pytest.raises(Exception) as error:
            make(lib, [lib.nn.Parameter(lib.ones(2))])
        found.append((type(error.value).__name__, str(error.value)))
    return found


@pytest.mark.parametrize("make", [
    lambda lib, p: lib.optim.AdamW(p, lr=-0.1),
    lambda lib, p: lib.optim.AdamW(p, eps=-1.0),
    lambda lib, p: lib.optim.AdamW(p, betas=(0.9, 1.0)),
    lambda lib, p: lib.optim.AdamW(p, weight_decay=-0.1),
    lambda lib, p: lib.optim.RMSprop(p, lr=-1),
    lambda lib, p: lib.optim.RMSprop(p, eps=-1e-8),
    lambda lib, p: lib.optim.RMSprop(p, momentum=-0.5),
    lambda lib, p: lib.optim.RMSprop(p, weight_decay=-1),
    lambda lib, p: lib.optim.RMSprop(p, alpha=-0.99),
    lambda lib, p: lib.optim.Adagrad(p, lr=-0.01),
    lambda lib, p: lib.optim.Adagrad(p, lr_decay=-1),
    lambda lib, p: lib.optim.Adagrad(p, weight_decay=-1),
    lambda lib, p: lib.optim.Adagrad(p, initial_accumulator_value=-0.1),
    lambda lib, p: lib.optim.Adagrad(p, eps=-1e-10),
    lambda lib, p: lib.optim.Adadelta(p, lr=-1.0),
    lambda lib, p: lib.optim.Adadelta(p, rho=1.5),
    lambda lib, p: lib.optim.Adadelta(p, eps=-1.0),
    lambda lib, p: lib.optim.Adadelta(p, weight_decay=-1.0),
    lambda lib, p: lib.optim.RMSprop([], lr=0.1),
    lambda lib, p: lib.optim.Adagrad(p[0]),
    lambda lib, p: lib.optim.SGD(p, lr=0.1, momentum=-0.9),
    lambda lib, p: lib.optim.Adam(p, lr=float("nan")),
], ids=lambda make: "")
def test_invalid_hyperparameters_raise_torchs_errors(make):
    ours, theirs = messages(make)
    assert ours == (theirs[0], theirs[1].replace("torch.", "ag."))


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta"])
def test_pytorchs_implementation_switches_are_accepted_or_refused_clearly(name):
    """foreach/fused pick a kernel for the same update: accepted, kept in the groups as in
    PyTorch, same numbers; differentiable/capturable would change what a step is: refused."""
    kwargs = {"lr": 0.1}
    if name not in ("RMSprop", "Adadelta"):
        kwargs["fused"] = False
    groups = []
    for lib in (ag, torch):
        optimizer = getattr(lib.optim, name)([lib.nn.Parameter(lib.ones(2))], foreach=False, **kwargs)
        groups.append({k: v for k, v in optimizer.param_groups[0].items() if k != "params"})
    assert groups[0] == groups[1]
    with pytest.raises(NotImplementedError, match=rf"ag.optim.{name}\(differentiable=True\): a step that autograd"):
        getattr(ag.optim, name)([nn.Parameter(ag.ones(2))], differentiable=True)
    if name in ("Adam", "AdamW", "RMSprop", "Adadelta"):
        with pytest.raises(NotImplementedError, match="capturable=True"):
            getattr(ag.optim, name)([nn.Parameter(ag.ones(2))], capturable=True)
    if name not in ("RMSprop", "Adadelta"):
        with pytest.raises(RuntimeError, match="`fused` and `foreach` cannot be `True` together."):
            getattr(ag.optim, name)([nn.Parameter(ag.ones(2))], fused=True, foreach=True)


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta"])
def test_repr_is_torchs(name):
    reprs = []
    for lib in (ag, torch):
        first, second = lib.nn.Parameter(lib.ones(1)), lib.nn.Parameter(lib.ones(2))
        reprs.append(repr(getattr(lib.optim, name)([{"params": [first]}, {"params": [second], "lr": 0.5}], lr=0.1)))
    assert reprs[0] == reprs[1]
