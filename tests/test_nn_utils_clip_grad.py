"""``ag.nn.utils`` against PyTorch: clip_grad_norm_ (every norm type, the returned total,
gradients after clipping, non-finite norms), clip_grad_value_, and parameters as a vector."""
import math
import warnings

import numpy
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

SHAPES = [(), (3,), (2, 4)]


def parameters(lib, dtype="float32", scale=1.0, skip_one=False):
    """Three parameters with fixed gradients (one without a gradient if ``skip_one``)."""
    rng = numpy.random.default_rng(0)
    made = []
    for i, shape in enumerate(SHAPES + [(5,)]):
        param = lib.nn.Parameter(lib.tensor(rng.normal(size=shape), dtype=getattr(lib, dtype)))
        if not (skip_one and i == 3):
            param.grad = lib.tensor(scale * rng.normal(size=shape), dtype=getattr(lib, dtype))
        made.append(param)
    return made


def grads(params):
    return [None if p.grad is None else p.grad.numpy().copy() for p in params]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("norm_type", [2.0, 1, 3.5, math.inf, -math.inf, 0, "inf"])
@pytest.mark.parametrize("max_norm", [0.5, 100.0])
def test_clip_grad_norm_matches_torch(norm_type, max_norm, dtype):
    tolerance = dict(rtol=1e-6 if dtype == "float32" else 1e-12)
    norm_type = float(norm_type)
    ours, theirs = parameters(ag, dtype, skip_one=True), parameters(torch, dtype, skip_one=True)
    before = grads(ours)
    total = ag.nn.utils.clip_grad_norm_(ours, max_norm, norm_type=norm_type)
    their_total = torch.nn.utils.clip_grad_norm_(theirs, max_norm, norm_type=norm_type)
    assert isinstance(total, ag.Tensor) and total.shape == () and total.dtype == getattr(ag, dtype)
    numpy.testing.assert_allclose(total.item(), their_total.item(), **tolerance)
    for mine, their in zip(grads(ours), grads(theirs)):
        if their is None:
            assert mine is None
        else:
            numpy.testing.assert_allclose(mine, their, **tolerance)
    clipped = any(g is not None and not numpy.array_equal(g, b) for g, b in zip(grads(ours), before))
    assert clipped == (their_total.item() > max_norm)


def test_clip_grad_norm_of_one_tensor_a_generator_and_nothing():
    for lib in (ag, torch):
        weight = lib.nn.Parameter(lib.tensor(2.0))
        (weight * weight * 3).backward()  # a 0-d gradient: 12
        total = lib.nn.utils.clip_grad_norm_(weight, 3.0)
        assert total.item() == pytest.approx(12.0) and weight.grad.item() == pytest.approx(3.0, rel=1e-6)
        with pytest.warns(UserWarning, match="`parameters` is an empty generator, no gradient clipping will occur."):
            empty = lib.nn.utils.clip_grad_norm_((p for p in []), 1.0)
        assert empty.item() == 0.0 and empty.dtype == lib.float32
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert lib.nn.utils.clip_grad_norm_([], 1.0).item() == 0.0


def test_float16_gradients_are_summed_in_float32_as_torch():
    totals = []
    for lib in (ag, torch):
        half = lib.nn.Parameter(lib.zeros(4, dtype=lib.float16))
        half.grad = lib.full((4,), 300.0, dtype=lib.float16)
        single = lib.nn.Parameter(lib.zeros(2))
        single.grad = lib.ones(2)
        alone = lib.nn.utils.clip_grad_norm_([half], 1.0)
        half.grad = lib.full((4,), 300.0, dtype=lib.float16)
        mixed = lib.nn.utils.clip_grad_norm_([half, single], 1.0)
        totals.append((alone.item(), str(alone.dtype), mixed.item(), str(mixed.dtype), half.grad.tolist()))
    assert totals[0][0] == 600.0
    assert totals[0] == tuple(v.replace("torch.", "ag.") if isinstance(v, str) else v for v in totals[1])


@pytest.mark.parametrize("bad", [math.inf, math.nan])
def test_nonfinite_norm_raises_torchs_error_only_when_asked(bad):
    found = []
    for lib in (ag, torch):
        params = parameters(lib)
        params[1].grad[0] = bad
        with pytest.raises(RuntimeError) as error:
            lib.nn.utils.clip_grad_norm_(params, 1.0, error_if_nonfinite=True)
        found.append(str(error.value))
        total = lib.nn.utils.clip_grad_norm_(params, 1.0)
        assert not math.isfinite(total.item())
    assert found[0] == found[1]


@pytest.mark.parametrize("clip_value", [0.3, 2, 10.0])
def test_clip_grad_value_matches_torch(clip_value):
    ours, theirs = parameters(ag, scale=2.0, skip_one=True), parameters(torch, scale=2.0, skip_one=True)
    assert ag.nn.utils.clip_grad_value_(ours, clip_value) is None
    torch.nn.utils.clip_grad_value_(theirs, clip_value)
    for mine, their in zip(grads(ours), grads(theirs)):
        assert (mine is None) == (their is None)
        if mine is not None:
            numpy.testing.assert_array_equal(mine, their)
            assert numpy.abs(mine).max() <= clip_value
    weight = ag.nn.Parameter(ag.tensor(1.0))
    (weight * 5).backward()
    ag.nn.utils.clip_grad_value_(weight, 1.5)
    assert weight.grad.item() == 1.5


def test_clipping_in_a_training_step_matches_torch():
    """backward, clip, step: ten steps of a small model, weights compared with PyTorch's."""
    ag.manual_seed(0)
    ours = ag.nn.Sequential(ag.nn.Linear(3, 4), ag.nn.Tanh(), ag.nn.Linear(4, 1)).double()
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1)).double()
    theirs.load_state_dict({k: torch.from_numpy(v.numpy().copy()) for k, v in ours.state_dict().items()})
    rng = numpy.random.default_rng(2)
    data = [(rng.normal(size=(8, 3)) * 5, rng.normal(size=(8, 1)) * 5) for _ in range(10)]
    totals = []
    for lib, model in ((ag, ours), (torch, theirs)):
        optimizer = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        seen = []
        for x, y in data:
            optimizer.zero_grad()
            ((model(lib.tensor(x)) - lib.tensor(y)) ** 2).mean().backward()
            seen.append(lib.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0).item())
            optimizer.step()
        totals.append(seen)
    numpy.testing.assert_allclose(totals[0], totals[1], rtol=1e-10)
    assert max(totals[0]) > 1.0  # some steps were clipped
    for mine, their in zip(ours.parameters(), theirs.parameters()):
        numpy.testing.assert_allclose(mine.detach().numpy(), their.detach().numpy(), rtol=1e-10)


def test_parameters_to_vector_and_back_as_torch():
    ours, theirs = parameters(ag), parameters(torch)
    vector = ag.nn.utils.parameters_to_vector(ours)
    their_vector = torch.nn.utils.parameters_to_vector(theirs)
    numpy.testing.assert_array_equal(vector.detach().numpy(), their_vector.detach().numpy())
    assert vector.requires_grad and vector.grad_fn is not None
    ag.nn.utils.vector_to_parameters(ag.arange(17.0), ours)
    torch.nn.utils.vector_to_parameters(torch.arange(17.0), theirs)
    for mine, their in zip(ours, theirs):
        assert mine.shape == their.shape
        numpy.testing.assert_array_equal(mine.detach().numpy(), their.detach().numpy())
    found = []
    for lib in (ag, torch):
        with pytest.raises(TypeError) as error:
            lib.nn.utils.vector_to_parameters([1.0], parameters(lib))
        found.append(str(error.value))
    assert found[0] == "expected torch.Tensor, but got: builtins.list"
