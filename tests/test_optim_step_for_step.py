"""Every optimizer against PyTorch step for step, on 0-d, 1-d and 2-d parameters: the same
start, the same gradients each step (a deterministic loss), and after each of 10 steps the
parameters and every state tensor compared. A 0-d parameter once kept SGD's momentum buffer
at its first value (a NumPy scalar that in-place updates rebound instead of writing)."""
import numpy
import pytest

import ag_jupyter as ag
from ag_jupyter import nn

torch = pytest.importorskip("torch")

STEPS = 10
SHAPES = [(), (3,), (2, 3)]
CASES = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.05, momentum=0.9)),
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True)),
    ("SGD", dict(lr=0.05, momentum=0.8, dampening=0.3, weight_decay=0.1)),
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.05, maximize=True)),
    ("Adam", dict(lr=0.05)),
    ("Adam", dict(lr=0.05, amsgrad=True, weight_decay=0.1)),
    ("Adam", dict(lr=0.05, betas=(0.3, 0.9), eps=1e-3, maximize=True)),
    ("AdamW", dict(lr=0.05)),
    ("AdamW", dict(lr=0.05, weight_decay=0.3, amsgrad=True)),
    ("AdamW", dict(lr=0.05, betas=(0.6, 0.95), weight_decay=0.1, maximize=True)),
    ("RMSprop", dict(lr=0.01)),
    ("RMSprop", dict(lr=0.01, alpha=0.9, eps=1e-4, weight_decay=0.1)),
    ("RMSprop", dict(lr=0.01, momentum=0.9, centered=True)),
    ("RMSprop", dict(lr=0.01, centered=True)),
    ("RMSprop", dict(lr=0.01, momentum=0.7, weight_decay=0.05)),
    ("RMSprop", dict(lr=0.01, alpha=0.3, momentum=0.5, centered=True, weight_decay=0.2, maximize=True)),
    ("Adagrad", dict(lr=0.1)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.05, initial_accumulator_value=0.5, eps=1e-6)),
    ("Adagrad", dict(lr=0.1, weight_decay=0.2, maximize=True)),
    ("Adadelta", dict()),
    ("Adadelta", dict(lr=0.5, rho=0.5, eps=1e-3, weight_decay=0.1, maximize=True)),
]
# float32 differs by an ulp or two a step (PyTorch fuses and vectorizes), and gradients 2ap + b
# cancel near zero: the float64 runs hold the formulas to 1e-12
TOLERANCE = {"float64": dict(rtol=1e-12, atol=1e-14), "float32": dict(rtol=1e-5, atol=1e-6)}


def coefficients(shape, seed=0):
    """Per step, the loss sum(a p² + b p): gradients 2ap + b that change every step."""
    rng = numpy.random.default_rng(seed)
    return [(rng.uniform(0.5, 2.0, size=shape), rng.normal(size=shape)) for _ in range(STEPS)]


def run(lib, name, kwargs, start, dtype, steps):
    """Yield the parameter and its state (as NumPy arrays) after each step."""
    if lib is ag:
        param = nn.Parameter(ag.tensor(start, dtype=getattr(ag, dtype)))
    else:
        param = torch.nn.Parameter(torch.tensor(start, dtype=getattr(torch, dtype)))
    optimizer = getattr(lib.optim, name)([param], **kwargs)
    for a, b in steps:
        # the gradient of sum(a p² + b p), computed by NumPy from each side's own parameter so
        # that both see bit-equal gradients while their parameters agree, and delivered by a
        # backward pass (sum(p * g) has gradient g exactly): a 0-d parameter gets the NumPy
        # scalar gradient that a real loss gives it
        value = param.detach().numpy()
        gradient = lib.tensor((2 * a.astype(dtype) * value + b.astype(dtype)).astype(dtype))
        optimizer.zero_grad()
        (param * gradient).sum().backward()
        optimizer.step()
        state = {key: numpy.asarray(value.detach().numpy() if hasattr(value, "detach") else value)
                 for key, value in optimizer.state[param].items()}
        yield param.detach().numpy().copy(), state


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{len(s)}-d")
@pytest.mark.parametrize("name, kwargs", CASES, ids=lambda c: c if isinstance(c, str) else "-".join(c))
def test_each_step_matches_torch(name, kwargs, shape, dtype):
    start = numpy.random.default_rng(1).normal(size=shape)
    steps = coefficients(shape)
    previous = start.astype(dtype)
    ours, theirs = run(ag, name, kwargs, start, dtype, steps), run(torch, name, kwargs, start, dtype, steps)
    for step, ((param, state), (their_param, their_state)) in enumerate(zip(ours, theirs), start=1):
        where = f"{name} {kwargs} step {step}"
        assert param.shape == shape and param.dtype == dtype
        assert not numpy.array_equal(param, previous), f"{where}: the parameter did not move"
        numpy.testing.assert_allclose(param, their_param, **TOLERANCE[dtype], err_msg=where)
        assert state.keys() == their_state.keys(), where
        for key, value in state.items():
            assert value.shape == their_state[key].shape, f"{where}: {key}"
            numpy.testing.assert_allclose(value, their_state[key], **TOLERANCE[dtype], err_msg=f"{where}: {key}")
        previous = param


def test_sgd_momentum_moves_a_0d_parameter_as_pytorch():
    """The issue's numbers: w = 1, loss w², lr 0.1, momentum 0.9 gives 0.8, 0.46, 0.062."""
    w = nn.Parameter(ag.tensor(1.0))
    optimizer = ag.optim.SGD([w], lr=0.1, momentum=0.9)
    seen = []
    for _ in range(3):
        optimizer.zero_grad()
        (w * w).backward()
        optimizer.step()
        seen.append(w.item())
    assert seen == pytest.approx([0.8, 0.46, 0.062], rel=1e-6)
    buffer = optimizer.state[w]["momentum_buffer"]
    assert buffer.item() == pytest.approx(3.98, rel=1e-6)  # 0.9 * (0.9 * 2 + 1.6) + 0.92
    assert isinstance(buffer._data, numpy.ndarray)


@pytest.mark.parametrize("name, kwargs", [("SGD", dict(lr=1e-3, momentum=0.9)), ("Adam", dict(lr=0.05)),
                                          ("AdamW", dict(lr=0.05)), ("RMSprop", dict(lr=0.01, momentum=0.5)),
                                          ("Adagrad", dict(lr=0.2)), ("Adadelta", dict(lr=5.0))],
                         ids=lambda c: c if isinstance(c, str) else "")
def test_a_polynomial_of_0d_parameters_trains_as_in_torch(name, kwargs):
    """A learner's curve fit: y = a + b x + c x² + d x³, four 0-d parameters, a real loss
    (mean squared error, whose gradients are NumPy scalars here), 30 steps."""
    x = numpy.linspace(-1.5, 1.5, 50)
    y = numpy.sin(x)
    finals, losses = [], []
    for lib in (ag, torch):
        params = [lib.nn.Parameter(lib.tensor(value, dtype=lib.float64)) for value in (0.3, -0.2, 0.1, 0.05)]
        optimizer = getattr(lib.optim, name)(params, **kwargs)
        xs, ys = lib.tensor(x), lib.tensor(y)
        seen = []
        for _ in range(30):
            optimizer.zero_grad()
            a, b, c, d = params
            loss = ((a + b * xs + c * xs ** 2 + d * xs ** 3 - ys) ** 2).mean()
            loss.backward()
            optimizer.step()
            seen.append(loss.item())
        finals.append([p.item() for p in params])
        losses.append(seen)
    numpy.testing.assert_allclose(finals[0], finals[1], rtol=1e-9)
    numpy.testing.assert_allclose(losses[0], losses[1], rtol=1e-9)
    assert losses[0][-1] < losses[0][0] / 2
