"""Learning-rate schedulers against PyTorch: the lr (and momentum) of every param group
after each of 100 steps, equal bit for bit (the same float arithmetic in the same order), in
the warning-free order ``optimizer.step(); scheduler.step()``."""
import math
import warnings

import numpy
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

STEPS = 100


def sgd(lib, **kwargs):
    """Two groups (lr 0.1 and 0.02) of one weight each, their gradients fixed at 1."""
    weights = [lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(3))]
    optimizer = lib.optim.SGD([{"params": [weights[0]]}, {"params": [weights[1]], "lr": 0.02}], lr=0.1, **kwargs)
    for weight in weights:
        weight.grad = lib.ones(weight.shape)
    return optimizer, weights


def adam(lib):
    weight = lib.nn.Parameter(lib.ones(2))
    weight.grad = lib.ones(2)
    return lib.optim.Adam([weight], lr=0.01), [weight]


SCHEDULES = {
    "StepLR": (sgd, lambda s, o: s.StepLR(o, step_size=7, gamma=0.3)),
    "MultiStepLR": (sgd, lambda s, o: s.MultiStepLR(o, milestones=[10, 30, 30, 75], gamma=0.5)),
    "ExponentialLR": (sgd, lambda s, o: s.ExponentialLR(o, gamma=0.97)),
    "CosineAnnealingLR": (sgd, lambda s, o: s.CosineAnnealingLR(o, T_max=30, eta_min=0.001)),
    "LambdaLR": (sgd, lambda s, o: s.LambdaLR(o, [lambda e: 0.9 ** e, lambda e: 1 / (1 + e)])),
    "MultiplicativeLR": (sgd, lambda s, o: s.MultiplicativeLR(o, lambda e: 0.99)),
    "ConstantLR": (sgd, lambda s, o: s.ConstantLR(o, factor=0.25, total_iters=12)),
    "LinearLR": (sgd, lambda s, o: s.LinearLR(o, start_factor=0.1, end_factor=0.9, total_iters=40)),
    "PolynomialLR": (sgd, lambda s, o: s.PolynomialLR(o, total_iters=60, power=2.0)),
    "OneCycleLR-cos": (lambda lib: sgd(lib, momentum=0.9),
                       lambda s, o: s.OneCycleLR(o, max_lr=[1.0, 0.3], total_steps=STEPS + 1)),
    "OneCycleLR-linear-three-phase": (
        lambda lib: sgd(lib, momentum=0.9),
        lambda s, o: s.OneCycleLR(o, max_lr=0.5, epochs=4, steps_per_epoch=26, pct_start=0.25,
                                  anneal_strategy="linear", three_phase=True, div_factor=10.0,
                                  final_div_factor=100.0, base_momentum=0.8, max_momentum=0.99)),
    "OneCycleLR-adam-betas": (adam, lambda s, o: s.OneCycleLR(o, max_lr=0.1, total_steps=STEPS + 1, pct_start=0.4)),
    "OneCycleLR-no-momentum": (sgd, lambda s, o: s.OneCycleLR(o, max_lr=0.1, total_steps=STEPS + 1,
                                                              cycle_momentum=False)),
    "SequentialLR": (sgd, lambda s, o: s.SequentialLR(
        o, [s.LinearLR(o, start_factor=0.2, total_iters=10), s.CosineAnnealingLR(o, T_max=40),
            s.ExponentialLR(o, gamma=0.9)], milestones=[10, 50])),
    "ChainedScheduler": (sgd, lambda s, o: s.ChainedScheduler(
        [s.ConstantLR(o, factor=0.5, total_iters=20), s.ExponentialLR(o, gamma=0.98)])),
    "CyclicLR-triangular2": (lambda lib: sgd(lib, momentum=0.9),
                             lambda s, o: s.CyclicLR(o, base_lr=0.01, max_lr=[0.1, 0.05], step_size_up=7,
                                                     step_size_down=11, mode="triangular2")),
    "CyclicLR-exp-range-adam": (adam, lambda s, o: s.CyclicLR(o, base_lr=0.001, max_lr=0.01, step_size_up=9,
                                                              mode="exp_range", gamma=0.99)),
    "CyclicLR-scale-fn": (sgd, lambda s, o: s.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=5,
                                                       scale_fn=lambda x: 1 / x, cycle_momentum=False)),
    "CosineAnnealingWarmRestarts": (sgd, lambda s, o: s.CosineAnnealingWarmRestarts(o, T_0=5, T_mult=2,
                                                                                    eta_min=0.001)),
}


def schedule(lib, name):
    make_optimizer, make_scheduler = SCHEDULES[name]
    optimizer, weights = make_optimizer(lib)
    scheduler = make_scheduler(lib.optim.lr_scheduler, optimizer)
    seen = [_rates(scheduler, optimizer)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the documented order warns about nothing
        for _ in range(STEPS):
            optimizer.step()
            scheduler.step()
            seen.append(_rates(scheduler, optimizer))
    return seen, scheduler, weights


def _rates(scheduler, optimizer):
    groups = optimizer.param_groups
    return (scheduler.get_last_lr(), [g["lr"] for g in groups], [g.get("momentum") for g in groups],
            [g.get("betas") for g in groups], getattr(scheduler, "last_epoch", None))


@pytest.mark.parametrize("name", SCHEDULES)
def test_every_step_matches_torch(name):
    ours, scheduler, weights = schedule(ag, name)
    theirs, their_scheduler, their_weights = schedule(torch, name)
    assert len(ours) == STEPS + 1
    for step, (mine, their) in enumerate(zip(ours, theirs)):
        assert mine == their, f"{name}, step {step}: {mine} != {their}"
    assert len({tuple(rates[0]) for rates in ours}) > 1, "the learning rate never changed"
    for weight, their_weight in zip(weights, their_weights):  # the optimizer used each step's lr
        assert not numpy.allclose(weight.detach().numpy(), 1.0)
        numpy.testing.assert_allclose(weight.detach().numpy(), their_weight.detach().numpy(), rtol=1e-6)
    ours_state, theirs_state = scheduler.state_dict(), their_scheduler.state_dict()
    assert set(ours_state) == set(theirs_state)
    assert ours_state.get("last_epoch") == theirs_state.get("last_epoch")


CLOSED_FORMS = ["StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR", "ConstantLR", "LinearLR",
                "PolynomialLR"]


@pytest.mark.parametrize("name", CLOSED_FORMS)
def test_step_with_an_epoch_takes_the_closed_form_as_torch(name):
    """``step(epoch)`` (deprecated) jumps by PyTorch's closed form, with its warning."""
    rates = []
    for lib in (ag, torch):
        optimizer, _ = SCHEDULES[name][0](lib)
        scheduler = SCHEDULES[name][1](lib.optim.lr_scheduler, optimizer)
        seen = []
        for epoch in [3, 17, 5, 40, 90, 30]:
            optimizer.step()
            with pytest.warns(UserWarning, match="The epoch parameter in `scheduler.step\\(\\)` was not necessary"):
                scheduler.step(epoch)
            seen.append((scheduler.get_last_lr(), scheduler.last_epoch))
        rates.append(seen)
    assert rates[0] == rates[1]


def test_warm_restarts_with_fractional_epochs_match_torch():
    rates = []
    for lib in (ag, torch):
        optimizer, _ = sgd(lib)
        scheduler = lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(optimizer, T_0=3, T_mult=2)
        seen = []
        for epoch in range(12):
            for batch in range(4):
                optimizer.step()
                scheduler.step(epoch + batch / 4)
                seen.append((scheduler.get_last_lr(), scheduler.T_cur, scheduler.T_i, scheduler.last_epoch))
        rates.append(seen)
    assert rates[0] == rates[1]


def test_reduce_lr_on_plateau_matches_torch():
    metrics = [5.0, 4.0, 4.0, 3.9999, 4.2, 4.1, 4.0, 3.0, 3.0, 3.0, 3.0, 3.0, 2.5] * 8
    configs = [dict(), dict(mode="max", factor=0.5, patience=1, threshold=0.01, threshold_mode="abs"),
               dict(factor=0.5, patience=2, cooldown=3, min_lr=[0.01, 0.015]),
               dict(factor=0.2, patience=0, threshold=0.1, eps=0.0005, min_lr=1e-4)]
    for config in configs:
        runs = []
        for lib in (ag, torch):
            optimizer, _ = sgd(lib)
            scheduler = lib.optim.lr_scheduler.ReduceLROnPlateau(optimizer, **config)
            seen = []
            for metric in metrics:
                optimizer.step()
                scheduler.step(lib.tensor(metric))  # a 0-d loss tensor, as training loops pass it
                seen.append((scheduler.get_last_lr(), scheduler.num_bad_epochs, scheduler.cooldown_counter,
                             scheduler.best, scheduler.last_epoch))
            runs.append(seen)
        assert runs[0] == runs[1], config
        assert runs[0][0][0] != runs[0][-1][0], config


def test_state_dict_resumes_the_same_schedule():
    optimizer, _ = sgd(ag, momentum=0.9)
    straight = ag.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=1.0, total_steps=50)
    expected = []
    for _ in range(40):
        optimizer.step()
        straight.step()
        expected.append(straight.get_last_lr())
    optimizer, _ = sgd(ag, momentum=0.9)
    first = ag.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=1.0, total_steps=50)
    for _ in range(15):
        optimizer.step()
        first.step()
    saved_optimizer, saved = optimizer.state_dict(), first.state_dict()
    resumed_optimizer, _ = sgd(ag, momentum=0.9)
    resumed = ag.optim.lr_scheduler.OneCycleLR(resumed_optimizer, max_lr=1.0, total_steps=50)
    resumed_optimizer.load_state_dict(saved_optimizer)
    resumed.load_state_dict(saved)
    rates = []
    for _ in range(25):
        resumed_optimizer.step()
        resumed.step()
        rates.append(resumed.get_last_lr())
    assert rates == expected[15:]


def test_lambda_lr_saves_a_callable_objects_attributes_not_a_function():
    class Decay:
        def __init__(self, rate):
            self.rate = rate

        def __call__(self, epoch):
            return self.rate ** epoch

    optimizer, _ = sgd(ag)
    scheduler = ag.optim.lr_scheduler.LambdaLR(optimizer, [Decay(0.5), lambda epoch: 1.0])
    assert scheduler.state_dict()["lr_lambdas"] == [{"rate": 0.5}, None]
    other = ag.optim.lr_scheduler.LambdaLR(sgd(ag)[0], [Decay(0.9), lambda epoch: 1.0])
    other.load_state_dict(scheduler.state_dict())
    assert other.lr_lambdas[0].rate == 0.5


def messages(make):
    """The error each library raises for the same mistake."""
    found = []
    for lib in (ag, torch):
        with pytest.raises(Exception) as error:
            make(lib)
        found.append((type(error.value).__name__, str(error.value)))
    return found


@pytest.mark.parametrize("make", [
    lambda lib: lib.optim.lr_scheduler.StepLR(object(), step_size=2),
    lambda lib: lib.optim.lr_scheduler.ConstantLR(sgd(lib)[0], factor=1.5),
    lambda lib: lib.optim.lr_scheduler.LinearLR(sgd(lib)[0], start_factor=0),
    lambda lib: lib.optim.lr_scheduler.LinearLR(sgd(lib)[0], end_factor=2),
    lambda lib: lib.optim.lr_scheduler.LambdaLR(sgd(lib)[0], [lambda e: 1.0]),
    lambda lib: lib.optim.lr_scheduler.ReduceLROnPlateau(sgd(lib)[0], factor=1.0),
    lambda lib: lib.optim.lr_scheduler.ReduceLROnPlateau(sgd(lib)[0], mode="lowest"),
    lambda lib: lib.optim.lr_scheduler.ReduceLROnPlateau(sgd(lib)[0], threshold_mode="ratio"),
    lambda lib: lib.optim.lr_scheduler.ReduceLROnPlateau(sgd(lib)[0], min_lr=[0.1]),
    lambda lib: lib.optim.lr_scheduler.OneCycleLR(sgd(lib)[0], max_lr=1.0),
    lambda lib: lib.optim.lr_scheduler.OneCycleLR(sgd(lib)[0], max_lr=1.0, total_steps=0),
    lambda lib: lib.optim.lr_scheduler.OneCycleLR(sgd(lib)[0], max_lr=1.0, epochs=2, steps_per_epoch=-1),
    lambda lib: lib.optim.lr_scheduler.OneCycleLR(sgd(lib)[0], max_lr=1.0, total_steps=10, pct_start=1),
    lambda lib: lib.optim.lr_scheduler.OneCycleLR(sgd(lib)[0], max_lr=1.0, total_steps=10, anneal_strategy="exp"),
    lambda lib: lib.optim.lr_scheduler.OneCycleLR(sgd(lib)[0], max_lr=[1.0], total_steps=10),
    lambda lib: lib.optim.lr_scheduler.OneCycleLR(lib.optim.Adagrad([lib.nn.Parameter(lib.ones(1))]), max_lr=1.0,
                                                  total_steps=10),  # neither momentum nor betas to cycle
    lambda lib: _past_the_end(lib),
    lambda lib: lib.optim.lr_scheduler.StepLR(sgd(lib)[0], step_size=2, last_epoch=5),
    lambda lib: lib.optim.lr_scheduler.SequentialLR(sgd(lib)[0], [], milestones=[]),
    lambda lib: _sequential_with(lib, lambda s, o: s.ReduceLROnPlateau(o)),
    lambda lib: _sequential_with(lib, lambda s, o: s.ExponentialLR(o, 0.5), milestones=[]),
    lambda lib: lib.optim.lr_scheduler.CyclicLR(sgd(lib)[0], 0.01, 0.1, mode="sawtooth"),
    lambda lib: lib.optim.lr_scheduler.CyclicLR(lib.optim.Adagrad([lib.nn.Parameter(lib.ones(1))]), 0.01, 0.1),
    lambda lib: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(sgd(lib)[0], T_0=0),
    lambda lib: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(sgd(lib)[0], T_0=2, T_mult=0),
    lambda lib: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(sgd(lib)[0], T_0=2).step(-1),
], ids=lambda make: "")
def test_errors_are_torchs(make):
    ours, theirs = messages(make)
    assert ours == theirs


def _past_the_end(lib):
    optimizer = sgd(lib, momentum=0.9)[0]
    scheduler = lib.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=1.0, total_steps=3)
    for _ in range(4):
        optimizer.step()
        scheduler.step()


def _sequential_with(lib, make_second, milestones=(5,)):
    optimizer = sgd(lib)[0]
    schedulers = lib.optim.lr_scheduler
    return schedulers.SequentialLR(optimizer, [schedulers.ExponentialLR(optimizer, 0.5),
                                               make_second(schedulers, optimizer)], milestones=list(milestones))


def test_call_order_warnings_are_torchs():
    for lib in (ag, torch):
        optimizer, _ = sgd(lib)
        scheduler = lib.optim.lr_scheduler.StepLR(optimizer, step_size=3)
        with pytest.warns(UserWarning, match=r"Detected call of `lr_scheduler.step\(\)` before `optimizer.step\(\)`"):
            scheduler.step()
        with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
            scheduler.get_lr()
        optimizer, _ = sgd(lib)
        scheduler = lib.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.5)
        optimizer.step = lambda: None  # replaced after the scheduler wrapped it
        with pytest.warns(UserWarning, match="Seems like `optimizer.step\\(\\)` has been overridden"):
            scheduler.step()


def test_cosine_keeps_going_past_t_max_as_torch():
    optimizer, _ = sgd(ag)
    scheduler = ag.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=10)
    rates = []
    for _ in range(25):
        optimizer.step()
        scheduler.step()
        rates.append(scheduler.get_last_lr()[0])
    assert rates[9] == pytest.approx(0.0, abs=1e-15) and rates[19] == pytest.approx(0.1)
    assert math.isclose(rates[4], 0.05)


def test_a_schedule_saved_with_ag_save_resumes(tmp_path):
    """Through ag.save/ag.load (no pickle): MultiStepLR's Counter comes back a dict and still works."""
    optimizer, _ = sgd(ag)
    scheduler = ag.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[3, 5, 5], gamma=0.5)
    ag.save({"scheduler": scheduler.state_dict(), "optimizer": optimizer.state_dict()}, tmp_path / "s.npz")
    loaded = ag.load(tmp_path / "s.npz")
    resumed_optimizer, _ = sgd(ag)
    resumed = ag.optim.lr_scheduler.MultiStepLR(resumed_optimizer, milestones=[1])
    resumed_optimizer.load_state_dict(loaded["optimizer"])
    resumed.load_state_dict(loaded["scheduler"])
    for _ in range(6):
        for opt, sched in ((optimizer, scheduler), (resumed_optimizer, resumed)):
            opt.step()
            sched.step()
        assert resumed.get_last_lr() == scheduler.get_last_lr()
    with pytest.warns(UserWarning, match="The epoch parameter"):
        resumed.step(4)
    assert resumed.get_last_lr() == [0.1 * 0.5, 0.02 * 0.5]
