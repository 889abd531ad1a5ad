"""Randomness against PyTorch (issue 30): ``ag.Generator`` and ``generator=`` on every random
function, PyTorch's overloads (``randint(5, (3,))``, ``randn(size=...)``, ``normal``'s four),
``multinomial``, ``bernoulli``, ``randperm``, the in-place fills.

PyTorch's random stream cannot be reproduced bit for bit, so each call is checked for what can
be: the shape and dtype PyTorch gives, the range, the distribution (with bounds far outside
sampling noise for the fixed seeds used), determinism (same seed, same numbers; generators
independent; ``generator=`` never touches the global source), and PyTorch's errors."""
from __future__ import annotations

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")


def _gen(lib, seed=0):
    return lib.Generator().manual_seed(seed)


CALLS = {  # name: a call made the same way on ag and on torch
    "rand(2, 3)": lambda lib: lib.rand(2, 3),
    "rand((2, 3))": lambda lib: lib.rand((2, 3)),
    "rand(size=(2, 3))": lambda lib: lib.rand(size=(2, 3)),
    "randn(size=[4])": lambda lib: lib.randn(size=[4]),
    "randn(3, generator=g)": lambda lib: lib.randn(3, generator=_gen(lib)),
    "randn float64": lambda lib: lib.randn(2, 2, dtype=lib.float64),
    "rand 0-d": lambda lib: lib.rand(()),
    "randint(5, (3,))": lambda lib: lib.randint(5, (3,)),
    "randint(0, 5, (3,))": lambda lib: lib.randint(0, 5, (3,)),
    "randint(5, size=(2, 2))": lambda lib: lib.randint(5, size=(2, 2)),
    "randint(2, 9, size=(4,))": lambda lib: lib.randint(2, 9, size=(4,)),
    "randint(high=, size=)": lambda lib: lib.randint(high=5, size=(2,)),
    "randint int32 negative": lambda lib: lib.randint(-3, 3, (6,), dtype=lib.int32),
    "randint float": lambda lib: lib.randint(0, 5, (3,), dtype=lib.float32),
    "randint uint8": lambda lib: lib.randint(0, 256, (3,), dtype=lib.uint8),
    "randint with generator": lambda lib: lib.randint(0, 27, (5,), generator=_gen(lib, 2147483647)),
    "randint 0-d": lambda lib: lib.randint(5, ()),
    "randint 0-d wide": lambda lib: lib.randint(0, 2 ** 40, ()),
    "uniform_ 0-d": lambda lib: lib.zeros(()).uniform_(-1, 1),
    "random_ 0-d": lambda lib: lib.zeros((), dtype=lib.int64).random_(3),
    "exponential_ 0-d": lambda lib: lib.zeros(()).exponential_(),
    "bernoulli 0-d": lambda lib: lib.bernoulli(lib.tensor(0.5)),
    "multinomial of no rows": lambda lib: lib.multinomial(lib.ones(0, 3), 2, True),
    "multinomial of no rows, no replacement": lambda lib: lib.multinomial(lib.ones(0, 3), 2),
    "rand empty": lambda lib: lib.rand(0, 3),
    "normal empty": lambda lib: lib.normal(lib.zeros(0), 1.0),
    "bernoulli empty": lambda lib: lib.bernoulli(lib.zeros(0)),
    "randperm(6)": lambda lib: lib.randperm(6),
    "randperm float": lambda lib: lib.randperm(4, dtype=lib.float32),
    "randperm(0)": lambda lib: lib.randperm(0),
    "normal(t, t)": lambda lib: lib.normal(lib.zeros(2, 3), lib.ones(2, 3)),
    "normal(t, t) broadcast": lambda lib: lib.normal(lib.zeros(2, 1), lib.ones(3)),
    "normal(t, 2.0)": lambda lib: lib.normal(lib.zeros(4), 2.0),
    "normal(1.0, t64)": lambda lib: lib.normal(1.0, lib.ones(3, dtype=lib.float64)),
    "normal(t64, t32)": lambda lib: lib.normal(lib.zeros(2, dtype=lib.float64), lib.ones(2)),
    "normal(0, 1, size)": lambda lib: lib.normal(0.0, 1.0, (2, 3)),
    "normal(0, 1, size=)": lambda lib: lib.normal(2.0, 3.0, size=(5,), generator=_gen(lib)),
    "bernoulli(p)": lambda lib: lib.bernoulli(lib.full((3, 2), 0.5)),
    "bernoulli(x, 0.3)": lambda lib: lib.bernoulli(lib.zeros(4, dtype=lib.float64), 0.3),
    "multinomial 1-d": lambda lib: lib.multinomial(lib.tensor([0.2, 0.5, 0.3]), 2),
    "multinomial 2-d replacement": lambda lib: lib.multinomial(lib.ones(2, 3), 5, replacement=True),
    "multinomial generator": lambda lib: lib.multinomial(lib.ones(4), 4, generator=_gen(lib)),
    "Tensor.multinomial": lambda lib: lib.ones(2, 3).multinomial(2, generator=_gen(lib)),
    "Tensor.bernoulli": lambda lib: lib.full((3,), 0.5, dtype=lib.float64).bernoulli(),
    "rand_like float64": lambda lib: lib.rand_like(lib.zeros(2, dtype=lib.float64)),
    "randn_like": lambda lib: lib.randn_like(lib.zeros(3, 1)),
    "randint_like": lambda lib: lib.randint_like(lib.zeros(3, dtype=lib.int32), 4),
    "randint_like(low, high)": lambda lib: lib.randint_like(lib.zeros(3), 2, 4),
    "uniform_": lambda lib: lib.zeros(3).uniform_(-2, 2),
    "normal_ with generator": lambda lib: lib.zeros(3, dtype=lib.float64).normal_(1, 2, generator=_gen(lib)),
    "exponential_": lambda lib: lib.zeros(4).exponential_(2.0),
    "bernoulli_(0.5)": lambda lib: lib.zeros(4, dtype=lib.int64).bernoulli_(0.5),
    "bernoulli_(tensor)": lambda lib: lib.zeros(3).bernoulli_(lib.tensor([0.0, 1.0, 0.5])),
    "random_(10)": lambda lib: lib.zeros(5, dtype=lib.int64).random_(10),
    "random_(3, 7)": lambda lib: lib.zeros(5).random_(3, 7),
    "random_() of uint8": lambda lib: lib.zeros(5, dtype=lib.uint8).random_(),
    "random_() of bool": lambda lib: lib.zeros(5, dtype=lib.bool).random_(),
}


def _low_high(name):
    return {"randint(5, (3,))": (0, 5), "randint(0, 5, (3,))": (0, 5), "randint(5, size=(2, 2))": (0, 5),
            "randint(2, 9, size=(4,))": (2, 9), "randint(high=, size=)": (0, 5),
            "randint int32 negative": (-3, 3), "randint float": (0, 5), "randint uint8": (0, 256),
            "randint with generator": (0, 27), "randint_like": (0, 4), "randint_like(low, high)": (2, 4),
            "random_(10)": (0, 10), "randint 0-d": (0, 5), "random_ 0-d": (0, 3),
            "random_(3, 7)": (3, 7), "random_() of uint8": (0, 256)}.get(name)


@pytest.mark.parametrize("name", list(CALLS))
def test_a_random_call_has_pytorchs_shape_dtype_and_range(name):
    ours, theirs = CALLS[name](ag), CALLS[name](torch)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert ours.dtype.name == str(theirs.dtype).split(".")[-1]
    assert ours.requires_grad is False
    bounds = _low_high(name)
    if bounds is not None:
        values = ours.numpy()
        assert values.min() >= bounds[0] and values.max() < bounds[1]
        assert np.array_equal(values, np.floor(values))


def test_randperm_and_multinomial_without_replacement_give_distinct_indices():
    assert sorted(ag.randperm(50).tolist()) == list(range(50))
    rows = ag.multinomial(ag.rand(20, 6) + 0.01, 6).numpy()
    assert all(sorted(row) == list(range(6)) for row in rows)
    # zero weights come last without replacement, as PyTorch draws them
    assert ag.multinomial(ag.tensor([1.0, 0.0, 0.0]), 2).tolist()[0] == 0
    assert torch.multinomial(torch.tensor([1.0, 0.0, 0.0]), 2).tolist()[0] == 0


def test_distributions():
    g = ag.Generator().manual_seed(1)
    uniform = ag.rand(40000, generator=g).numpy()
    assert 0 <= uniform.min() and uniform.max() < 1 and abs(uniform.mean() - 0.5) < 0.01
    normal = ag.randn(40000, generator=g).numpy()
    assert abs(normal.mean()) < 0.02 and abs(normal.std() - 1) < 0.02
    shifted = ag.normal(ag.full((40000,), 3.0), ag.full((40000,), 0.5), generator=g).numpy()
    assert abs(shifted.mean() - 3) < 0.02 and abs(shifted.std() - 0.5) < 0.02
    counts = np.bincount(ag.randint(0, 4, (40000,), generator=g).numpy(), minlength=4) / 40000
    assert np.allclose(counts, 0.25, atol=0.01)
    weights = np.array([0.1, 0.0, 0.6, 0.3])
    picks = ag.multinomial(ag.tensor(weights * 7), 40000, replacement=True, generator=g).numpy()
    assert np.allclose(np.bincount(picks, minlength=4) / 40000, weights, atol=0.01)  # weight 0: never
    first = ag.multinomial(ag.tensor(weights).expand(20000, 4).contiguous(), 2, generator=g).numpy()[:, 0]
    assert np.allclose(np.bincount(first, minlength=4) / 20000, weights, atol=0.015)
    coins = ag.bernoulli(ag.full((40000,), 0.3), generator=g).numpy()
    assert set(np.unique(coins)) <= {0.0, 1.0} and abs(coins.mean() - 0.3) < 0.01
    waits = ag.zeros(40000).exponential_(4.0, generator=g).numpy()
    assert waits.min() >= 0 and abs(waits.mean() - 0.25) < 0.01


DRAWS = {
    "randn": lambda g: ag.randn(5, generator=g),
    "rand": lambda g: ag.rand(2, 2, generator=g),
    "randint": lambda g: ag.randint(0, 100, (6,), generator=g),
    "randperm": lambda g: ag.randperm(8, generator=g),
    "normal": lambda g: ag.normal(ag.zeros(4), 1.0, generator=g),
    "bernoulli": lambda g: ag.bernoulli(ag.full((8,), 0.5), generator=g),
    "multinomial": lambda g: ag.multinomial(ag.ones(10), 3, generator=g),
    "Tensor.multinomial": lambda g: ag.ones(2, 10).multinomial(5, True, generator=g),
    "Tensor.bernoulli": lambda g: ag.full((8,), 0.5).bernoulli(generator=g),
    "uniform_": lambda g: ag.empty(4).uniform_(generator=g),
    "normal_": lambda g: ag.empty(4).normal_(generator=g),
    "random_": lambda g: ag.empty(4).random_(0, 50, generator=g),
    "bernoulli_": lambda g: ag.empty(8).bernoulli_(0.5, generator=g),
    "exponential_": lambda g: ag.empty(4).exponential_(generator=g),
}


@pytest.mark.parametrize("name", list(DRAWS))
def test_a_generator_gives_the_same_numbers_for_the_same_seed_and_leaves_the_global_source_alone(name):
    ag.manual_seed(5)
    global_before = ag.get_rng_state()
    first = DRAWS[name](ag.Generator().manual_seed(123)).tolist()
    assert DRAWS[name](ag.Generator().manual_seed(123)).tolist() == first
    assert ag.get_rng_state().tolist() == global_before.tolist()  # generator= never touches it
    g, other = ag.Generator().manual_seed(123), ag.Generator().manual_seed(123)
    DRAWS[name](other)
    DRAWS[name](other)  # drawing from one generator does not move another
    assert DRAWS[name](g).tolist() == first
    ag.manual_seed(123)
    assert DRAWS[name](None).tolist() == first  # the global source is a Generator like any other


def test_manual_seed_seeds_the_global_source_behind_every_draw():
    assert isinstance(ag.manual_seed(3), ag.Generator) and isinstance(torch.manual_seed(3), torch.Generator)
    assert ag.manual_seed(3) is ag.default_generator
    ag.manual_seed(3)
    a = (ag.randn(3).tolist(), ag.nn.functional.dropout(ag.ones(20), 0.5).tolist(),
         ag.nn.init.normal_(ag.empty(2)).tolist(), ag.nn.Linear(2, 2).weight.tolist())
    ag.manual_seed(3)
    assert (ag.randn(3).tolist(), ag.nn.functional.dropout(ag.ones(20), 0.5).tolist(),
            ag.nn.init.normal_(ag.empty(2)).tolist(), ag.nn.Linear(2, 2).weight.tolist()) == a
    assert ag.initial_seed() == 3 == torch.initial_seed()


def test_generator_seeds_and_state_as_pytorchs():
    for lib in (ag, torch):
        assert lib.Generator().initial_seed() == 67280421310721  # a fresh one starts from PyTorch's seed
        assert lib.Generator().manual_seed(-1).initial_seed() == 2 ** 64 - 1
        assert str(lib.Generator().device) == "cpu"
        g = lib.Generator()
        chosen = g.seed()
        assert isinstance(chosen, int) and g.initial_seed() == chosen
        state = g.get_state()
        assert state.dtype == lib.uint8 and state.dim() == 1
        first = lib.randn(4, generator=g)
        assert g.set_state(state) is g
        assert lib.randn(4, generator=g).tolist() == first.tolist()
    assert ag.Generator().manual_seed(1).get_state().tolist() != ag.Generator().manual_seed(2).get_state().tolist()
    ag.set_rng_state(ag.Generator().manual_seed(9).get_state())
    assert ag.initial_seed() == 9 and ag.randn(3).tolist() == ag.randn(3, generator=_gen(ag, 9)).tolist()


def test_fork_rng_puts_the_global_source_back_as_pytorchs_does():
    for lib in (ag, torch):
        lib.manual_seed(4)
        with lib.random.fork_rng():
            inside = lib.randn(3).tolist()
        assert lib.randn(3).tolist() == inside  # the draws inside did not move the source
        with lib.random.fork_rng(enabled=False):
            lib.randn(3)
        assert lib.randn(3).tolist() != inside


ERRORS = {  # each raises in PyTorch; ag raises the same type, its message starting PyTorch's way
    "randint(5)": (lambda lib: lib.randint(5), None),
    "randint(5, 3)": (lambda lib: lib.randint(5, 3), "randint(): argument 'size'"),
    "randint(2.5, (2,))": (lambda lib: lib.randint(2.5, (2,)), "randint(): argument 'high'"),
    "randint(5, 2, (3,))": (lambda lib: lib.randint(5, 2, (3,)), "random_ expects 'from' to be less than 'to'"),
    "randint out of uint8": (lambda lib: lib.randint(0, 300, (2,), dtype=lib.uint8), "to - 1 is out of bounds"),
    "randint out of bool": (lambda lib: lib.randint(0, 3, (2,), dtype=lib.bool), "to - 1 is out of bounds"),
    "randint requires_grad": (lambda lib: lib.randint(5, (2,), requires_grad=True), None),
    "randperm(-1)": (lambda lib: lib.randperm(-1), "Trying to create tensor with negative dimension -1"),
    "rand(2, 3, size=)": (lambda lib: lib.rand(2, 3, size=(2,)), None),
    "rand(generator=3)": (lambda lib: lib.rand(2, generator=3), None),
    "normal(0., 1.)": (lambda lib: lib.normal(0.0, 1.0), None),
    "normal of ints": (lambda lib: lib.normal(lib.tensor([1, 2]), 1.0), '"normal_kernel_cpu" not implemented'),
    "normal negative std": (lambda lib: lib.normal(lib.zeros(2), -1.0), "normal expects std >= 0.0"),
    "normal negative std tensor": (lambda lib: lib.normal(lib.zeros(2), lib.tensor([1.0, -1.0])),
                                   "normal expects all elements of std >= 0.0"),
    "normal mismatched": (lambda lib: lib.normal(lib.zeros(2), lib.ones(3)), None),
    "bernoulli of 2": (lambda lib: lib.bernoulli(lib.tensor([2.0])), "Expected p_in >= 0 && p_in <= 1"),
    "bernoulli p=1.5": (lambda lib: lib.bernoulli(lib.zeros(2), p=1.5), "bernoulli_ expects p to be in [0, 1]"),
    "bernoulli of ints": (lambda lib: lib.bernoulli(lib.tensor([1, 0])), '"bernoulli_tensor_cpu_p_" not'),
    "bernoulli_(1.5)": (lambda lib: lib.zeros(3).bernoulli_(1.5), "bernoulli_ expects p to be in [0, 1]"),
    "exponential_(-1)": (lambda lib: lib.zeros(3).exponential_(-1), "exponential_ expects lambda > 0.0"),
    "uniform_(2, 1)": (lambda lib: lib.zeros(3).uniform_(2, 1), "uniform_ expects to return a [from, to) range"),
    "normal_(0, -1)": (lambda lib: lib.zeros(3).normal_(0, -1), "normal expects std >= 0.0"),
    "uniform_ of ints": (lambda lib: lib.zeros(3, dtype=lib.int64).uniform_(), '"check_uniform_bounds" not'),
    "random_(5, 2)": (lambda lib: lib.zeros(3).random_(5, 2), "random_ expects 'from' to be less than 'to'"),
    "multinomial zero sum": (lambda lib: lib.multinomial(lib.tensor([0.0, 0.0]), 1),
                             "invalid multinomial distribution (sum of probabilities <= 0)"),
    "multinomial too many": (lambda lib: lib.multinomial(lib.tensor([1.0, 1.0]), 3),
                             "cannot sample n_sample > prob_dist.size(-1) samples without replacement"),
    "multinomial negative": (lambda lib: lib.multinomial(lib.tensor([-1.0, 1.0]), 1), "probability tensor contains"),
    "multinomial nan": (lambda lib: lib.multinomial(lib.tensor([float("nan"), 1.0]), 1), "probability tensor"),
    "multinomial inf": (lambda lib: lib.multinomial(lib.tensor([float("inf"), 1.0]), 1), "probability tensor"),
    "multinomial of ints": (lambda lib: lib.multinomial(lib.tensor([1, 1]), 1),
                            "multinomial only supports floating-point dtypes for input, got: Long"),
    "multinomial 3-d": (lambda lib: lib.multinomial(lib.ones(2, 2, 2), 1), "prob_dist must be 1 or 2 dim"),
    "multinomial 0-d": (lambda lib: lib.multinomial(lib.tensor(1.0), 1), "prob_dist must be 1 or 2 dim"),
    "multinomial of no categories": (lambda lib: lib.multinomial(lib.ones(2, 0), 1, True), None),
    "multinomial 0 samples": (lambda lib: lib.multinomial(lib.ones(2), 0), "cannot sample n_sample <= 0 samples"),
    "seed beyond 64 bits": (lambda lib: lib.Generator().manual_seed(2 ** 64), "Overflow when unpacking long long"),
    "set_state of floats": (lambda lib: lib.Generator().set_state(lib.zeros(3)),
                            "RNG state must be a torch.ByteTensor"),
    "set_state too short": (lambda lib: lib.Generator().set_state(lib.zeros(3, dtype=lib.uint8)), "Expected a"),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_what_pytorch_refuses_is_refused_with_its_error(name):
    call, start = ERRORS[name]
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(theirs.type) as ours:
        call(ag)
    if start is not None:
        assert str(ours.value).startswith(start), (str(ours.value), str(theirs.value))
        assert str(theirs.value).startswith(start)


def test_a_draw_whose_input_requires_grad_is_refused_where_pytorch_gives_a_zero_gradient():
    mean = torch.zeros(3, requires_grad=True)
    torch.normal(mean, 1.0).sum().backward()
    assert mean.grad.tolist() == [0.0, 0.0, 0.0]  # PyTorch: no gradient through the draw
    for call in (lambda: ag.normal(ag.zeros(3, requires_grad=True), 1.0),
                 lambda: ag.bernoulli(ag.full((3,), 0.5, requires_grad=True))):
        with pytest.raises(RuntimeError, match="zero gradient"):
            call()
    with ag.no_grad():
        assert ag.normal(ag.zeros(3, requires_grad=True), 1.0).shape == (3,)
    assert ag.normal(ag.zeros(3, requires_grad=True).detach(), 1.0).requires_grad is False


def test_a_cuda_generator_is_refused_clearly_without_a_gpu_and_a_cpu_one_for_cuda_tensors():
    if ag.cuda.is_available():
        pytest.skip("a GPU is here: test_random_on_gpu covers it")
    with pytest.raises(RuntimeError, match="no usable GPU"):
        ag.Generator(device="cuda")


@pytest.mark.gpu
@pytest.mark.skipif(not ag.cuda.is_available(), reason="no usable GPU with CuPy here")
def test_random_on_gpu_draws_the_cpu_numbers_and_checks_the_generators_device():
    cpu = ag.randn(4, generator=_gen(ag, 7))
    gpu = ag.randn(4, generator=ag.Generator(device="cuda").manual_seed(7), device="cuda")
    assert gpu.device.type == "cuda" and gpu.tolist() == cpu.tolist()
    with pytest.raises(RuntimeError, match="Expected a 'cuda' device type for generator but found 'cpu'"):
        ag.randn(4, generator=_gen(ag), device="cuda")
    probabilities = ag.tensor([0.0, 1.0, 1.0], device="cuda")
    assert ag.multinomial(probabilities, 2, generator=ag.Generator("cuda")).device.type == "cuda"
    assert ag.normal(ag.zeros(3, device="cuda"), 1.0).device.type == "cuda"
    assert ag.bernoulli(ag.full((3,), 0.5, device="cuda")).device.type == "cuda"
    assert ag.zeros(3, device="cuda").uniform_().device.type == "cuda"
    assert ag.nn.functional.dropout(ag.ones(8, device="cuda"), 0.5).device.type == "cuda"


def test_a_generator_of_another_device_type_is_refused_as_pytorch_refuses_it():
    elsewhere = ag.Generator()
    elsewhere._device = ag.device("cuda")  # what Generator("cuda") is, without needing a GPU here
    for call in (lambda: ag.randn(3, generator=elsewhere), lambda: ag.randint(5, (2,), generator=elsewhere),
                 lambda: ag.randperm(4, generator=elsewhere), lambda: ag.zeros(2).uniform_(generator=elsewhere),
                 lambda: ag.multinomial(ag.ones(3), 1, generator=elsewhere)):
        with pytest.raises(RuntimeError, match="Expected a 'cpu' device type for generator but found 'cuda'"):
            call()


def test_nn_init_draws_from_a_generator_as_pytorchs_does():
    for name, args in (("uniform_", (-1, 1)), ("normal_", (0, 2)), ("xavier_uniform_", ()), ("xavier_normal_", ()),
                       ("kaiming_uniform_", ()), ("kaiming_normal_", ())):
        torch_init, ours = getattr(torch.nn.init, name), getattr(ag.nn.init, name)
        torch_init(torch.empty(3, 4), *args, generator=torch.Generator().manual_seed(0))  # PyTorch takes it too
        first = ours(ag.empty(3, 4), *args, generator=_gen(ag, 8)).tolist()
        assert ours(ag.empty(3, 4), *args, generator=_gen(ag, 8)).tolist() == first
        assert ours(ag.empty(3, 4), *args, generator=_gen(ag, 9)).tolist() != first
