"""``ag.utils.data`` against ``torch.utils.data`` (issue 30): the same datasets and loaders
built in both, batch for batch. Unshuffled, every batch equals PyTorch's exactly (values,
dtypes, the collated structure); shuffled, every index comes exactly once per epoch, epochs
differ, and a generator makes the order reproducible."""
from __future__ import annotations

from collections import namedtuple

import numpy as np
import pytest

import ag_jupyter as ag
from ag_jupyter.utils import data as agdata

torch = pytest.importorskip("torch")
tdata = torch.utils.data
Point = namedtuple("Point", "x y")


def assert_same(ours, theirs):
    """``ours`` (ag) is ``theirs`` (torch): same structure, tensors of equal dtype and values."""
    if isinstance(theirs, torch.Tensor):
        assert isinstance(ours, ag.Tensor), (type(ours), theirs)
        assert ours.dtype.name == str(theirs.dtype).split(".")[-1]
        assert tuple(ours.shape) == tuple(theirs.shape)
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    elif isinstance(theirs, dict):
        assert type(ours) is type(theirs) and list(ours) == list(theirs)
        for key in theirs:
            assert_same(ours[key], theirs[key])
    elif isinstance(theirs, (list, tuple)):
        assert type(ours) is type(theirs) and len(ours) == len(theirs), (ours, theirs)
        for a, b in zip(ours, theirs):
            assert_same(a, b)
    else:
        assert type(ours) is type(theirs) and ours == theirs


def _features(lib):
    return lib.tensor(np.arange(14, dtype=np.float32).reshape(7, 2)), lib.tensor([0, 1, 2, 0, 1, 2, 0])


class Samples:  # a map-style dataset that is not a Dataset subclass: any __getitem__/__len__ will do
    def __init__(self, items):
        self.items = items

    def __getitem__(self, i):
        return self.items[i]

    def __len__(self):
        return len(self.items)


SAMPLES = {  # what a dataset's __getitem__ returns, as tutorials' datasets return it
    "floats": [0.5, 1.5, 2.5, 3.5, 4.5],
    "ints": [3, 1, 4, 1, 5],
    "bools": [True, False, True, True, False],
    "strings": ["cat", "dog", "emu", "fox", "gnu"],
    "tuples of numbers": [(i, i * 0.5) for i in range(5)],
    "lists": [[i, i + 1, i + 2] for i in range(5)],
    "dicts": [{"image": np.full((2, 2), i, np.float32), "label": i, "name": f"n{i}"} for i in range(5)],
    "named tuples": [Point(float(i), i) for i in range(5)],
    "uint8 images": [np.full((1, 3, 3), 40 * i, np.uint8) for i in range(5)],
    "numpy scalars": [np.float32(i / 3) for i in range(5)],
    "int32 arrays": [np.arange(3, dtype=np.int32) + i for i in range(5)],
    "nested": [((np.ones(2) * i, i), {"w": [i, 2 * i]}) for i in range(5)],
}


@pytest.mark.parametrize("kind", list(SAMPLES))
@pytest.mark.parametrize("batch_size", [1, 2, 3, None])
def test_unshuffled_batches_and_their_collation_are_pytorchs(kind, batch_size):
    ours = list(agdata.DataLoader(Samples(SAMPLES[kind]), batch_size=batch_size))
    theirs = list(tdata.DataLoader(Samples(SAMPLES[kind]), batch_size=batch_size))
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert_same(a, b)


@pytest.mark.parametrize("batch_size", [1, 2, 3, 7, 8, None])
@pytest.mark.parametrize("drop_last", [False, True])
def test_a_tensor_dataset_in_batches_as_pytorch(batch_size, drop_last):
    if batch_size is None and drop_last:
        return  # refused, below
    ours = agdata.DataLoader(agdata.TensorDataset(*_features(ag)), batch_size=batch_size, drop_last=drop_last)
    theirs = tdata.DataLoader(tdata.TensorDataset(*_features(torch)), batch_size=batch_size, drop_last=drop_last)
    assert len(ours) == len(theirs)
    for _ in range(2):  # a loader iterates again
        batches = list(ours)
        assert len(batches) == len(theirs)
        for a, b in zip(batches, theirs):
            assert_same(a, b)


def test_a_tensor_datasets_batches_taken_as_rows_equal_its_samples_stacked():
    x, y = ag.randn(30, 1, 4, 4), ag.randint(0, 10, (30,))
    for dataset in (agdata.TensorDataset(x, y), agdata.random_split(agdata.TensorDataset(x, y), [0.7, 0.3])[0],
                    agdata.Subset(agdata.Subset(agdata.TensorDataset(x, y), list(range(29, 0, -2))), [3, 0, 5, 1])):
        def stacked(samples):
            return agdata.default_collate(samples)
        g = ag.Generator().manual_seed(3)
        fast = list(agdata.DataLoader(dataset, batch_size=4, shuffle=True, generator=g))
        g.manual_seed(3)
        slow = list(agdata.DataLoader(dataset, batch_size=4, shuffle=True, generator=g, collate_fn=stacked))
        assert len(fast) == len(slow)
        for a, b in zip(fast, slow):
            assert type(a) is list and len(a) == 2
            for u, v in zip(a, b):
                assert u.dtype == v.dtype and u.tolist() == v.tolist()
    w = ag.randn(6, 2, requires_grad=True)  # rows that need a gradient are stacked, as PyTorch's graph has it
    batch = next(iter(agdata.DataLoader(agdata.TensorDataset(w), batch_size=3)))[0]
    theirs = tdata.default_collate([torch.ones(2, requires_grad=True)] * 2)
    assert batch.grad_fn.name() == theirs.grad_fn.name() == "StackBackward0"


def test_tensor_dataset_subset_and_concat_index_as_pytorch():
    ours, theirs = agdata.TensorDataset(*_features(ag)), tdata.TensorDataset(*_features(torch))
    assert len(ours) == len(theirs) == 7
    for i in (0, 3, -1, slice(1, 4)):
        assert_same(ours[i], theirs[i])
    sub_a, sub_t = agdata.Subset(ours, [4, 0, 2]), tdata.Subset(theirs, [4, 0, 2])
    assert len(sub_a) == len(sub_t)
    for i in range(3):
        assert_same(sub_a[i], sub_t[i])
    cat_a = agdata.ConcatDataset([ours, sub_a, Samples([(ag.tensor([9.0, 9.0]), ag.tensor(9))])])
    cat_t = tdata.ConcatDataset([theirs, sub_t, Samples([(torch.tensor([9.0, 9.0]), torch.tensor(9))])])
    assert len(cat_a) == len(cat_t) == 11 and cat_a.cumulative_sizes == cat_t.cumulative_sizes
    for i in (0, 6, 7, 9, 10, -1, -11):
        assert_same(cat_a[i], cat_t[i])
    assert len(ours + sub_a) == len(theirs + sub_t)
    assert_same(list(agdata.DataLoader(cat_a, batch_size=4)), list(tdata.DataLoader(cat_t, batch_size=4)))


class Squares(agdata.Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        return {"x": float(i), "y": i * i}


class TorchSquares(tdata.Dataset):
    __len__, __getitem__ = Squares.__len__, Squares.__getitem__


def test_a_dataset_subclass_with_a_collate_fn_sampler_and_batch_sampler_as_pytorch():
    def pairs(batch):
        return [(b["x"], b["y"]) for b in batch]

    for kwargs in ({"batch_size": 4}, {"batch_size": 4, "collate_fn": pairs}, {"sampler": [5, 0, 3]},
                   {"batch_size": 2, "sampler": [5, 0, 3], "drop_last": True}):
        ours, theirs = list(agdata.DataLoader(Squares(), **kwargs)), list(tdata.DataLoader(TorchSquares(), **kwargs))
        assert_same(ours, theirs)
    ours = agdata.DataLoader(Squares(), batch_sampler=agdata.BatchSampler(agdata.SequentialSampler(range(6)), 4,
                                                                          False))
    theirs = tdata.DataLoader(TorchSquares(), batch_sampler=tdata.BatchSampler(tdata.SequentialSampler(range(6)), 4,
                                                                               False))
    assert len(ours) == len(theirs)
    assert_same(list(ours), list(theirs))
    assert_same(list(agdata.DataLoader(Squares(), batch_sampler=[[1, 2], [0]])),
                list(tdata.DataLoader(TorchSquares(), batch_sampler=[[1, 2], [0]])))
    with pytest.raises(NotImplementedError, match="Subclasses of Dataset should implement __getitem__"):
        agdata.Dataset()[0]


class Stream(agdata.IterableDataset):
    def __iter__(self):
        return iter(range(5))


class TorchStream(tdata.IterableDataset):
    __iter__ = Stream.__iter__


def test_an_iterable_dataset_is_batched_in_order_as_pytorch():
    for kwargs in ({}, {"batch_size": 2}, {"batch_size": 2, "drop_last": True}, {"batch_size": None}):
        assert_same(list(agdata.DataLoader(Stream(), **kwargs)), list(tdata.DataLoader(TorchStream(), **kwargs)))
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        agdata.DataLoader(Stream(), shuffle=True)


def _indices_per_epoch(loader):
    return [[int(i) for batch in loader for i in batch[0].tolist()] for _ in range(3)]


def test_shuffle_visits_every_index_once_per_epoch_in_a_new_order_reproducible_by_generator():
    dataset = agdata.TensorDataset(ag.arange(50))
    ag.manual_seed(0)
    global_before = ag.get_rng_state().tolist()
    epochs = _indices_per_epoch(agdata.DataLoader(dataset, batch_size=8, shuffle=True,
                                                  generator=ag.Generator().manual_seed(4)))
    assert ag.get_rng_state().tolist() == global_before  # generator= never touches the global source
    for epoch in epochs:
        assert sorted(epoch) == list(range(50))
    assert epochs[0] != epochs[1] != epochs[2] and epochs[0] != list(range(50))
    again = _indices_per_epoch(agdata.DataLoader(dataset, batch_size=8, shuffle=True,
                                                 generator=ag.Generator().manual_seed(4)))
    assert again == epochs
    ag.manual_seed(11)
    unseeded = _indices_per_epoch(agdata.DataLoader(dataset, batch_size=5, shuffle=True))
    ag.manual_seed(11)
    assert _indices_per_epoch(agdata.DataLoader(dataset, batch_size=5, shuffle=True)) == unseeded
    loader = agdata.DataLoader(dataset, batch_size=8, shuffle=True, drop_last=True)
    assert len(loader) == len(tdata.DataLoader(range(50), batch_size=8, shuffle=True, drop_last=True)) == 6
    assert all(len(batch[0]) == 8 for batch in loader)


def test_random_sampler_with_replacement_and_subset_random_sampler():
    g = ag.Generator().manual_seed(1)
    drawn = list(agdata.RandomSampler(range(4), replacement=True, num_samples=30, generator=g))
    assert len(drawn) == 30 and set(drawn) <= {0, 1, 2, 3}
    longer = list(agdata.RandomSampler(range(4), num_samples=10, generator=g))
    assert sorted(longer[:8]) == [0, 0, 1, 1, 2, 2, 3, 3] and len(longer) == 10
    assert sorted(agdata.SubsetRandomSampler([10, 20, 30], generator=g)) == [10, 20, 30]
    weighted = list(agdata.WeightedRandomSampler([1.0, 0.0, 3.0], 4000, generator=g))
    assert len(weighted) == 4000 and 1 not in weighted and 0.7 < weighted.count(2) / 4000 < 0.8
    assert sorted(agdata.WeightedRandomSampler(ag.tensor([1.0, 5.0]), 2, replacement=False)) == [0, 1]
    assert len(agdata.WeightedRandomSampler([1, 2], 7)) == len(tdata.WeightedRandomSampler([1, 2], 7)) == 7


@pytest.mark.parametrize("lengths", [[3, 4], [0.5, 0.5], [0.3, 0.3, 0.4], [0.1, 0.9], [1.0], [0, 7], [7, 0]])
def test_random_split_makes_pytorchs_lengths_from_one_permutation(lengths):
    ours = agdata.random_split(range(7), lengths, generator=ag.Generator().manual_seed(0))
    theirs = tdata.random_split(range(7), lengths, generator=torch.Generator().manual_seed(0))
    assert [len(p) for p in ours] == [len(p) for p in theirs]
    assert sorted(i for part in ours for i in part) == list(range(7))
    again = agdata.random_split(range(7), lengths, generator=ag.Generator().manual_seed(0))
    assert [list(p) for p in again] == [list(p) for p in ours]
    assert all(isinstance(p, agdata.Subset) for p in ours)


def test_a_split_of_a_tensor_dataset_loads_as_a_dataset():
    train, test = agdata.random_split(agdata.TensorDataset(*_features(ag)), [0.8, 0.2])
    x, y = next(iter(agdata.DataLoader(train, batch_size=10)))
    assert tuple(x.shape) == (len(train), 2) and y.dtype == ag.int64 and len(test) == 1


ERRORS = {  # each raises in PyTorch; ag raises the same type, its message starting PyTorch's way
    "tensor dataset size mismatch": (lambda d: d.TensorDataset(lib_of(d).zeros(3), lib_of(d).zeros(4)),
                                     "Size mismatch between tensors"),
    "sampler and shuffle": (lambda d: d.DataLoader(range(3), sampler=[0, 1], shuffle=True),
                            "sampler option is mutually exclusive with shuffle"),
    "batch_sampler and batch_size": (lambda d: d.DataLoader(range(3), batch_sampler=[[0]], batch_size=2),
                                     "batch_sampler option is mutually exclusive with batch_size"),
    "batch_size None and drop_last": (lambda d: d.DataLoader(range(3), batch_size=None, drop_last=True),
                                      "batch_size=None option disables auto-batching"),
    "negative num_workers": (lambda d: d.DataLoader(range(3), num_workers=-1), "num_workers option should be"),
    "batch_size 0": (lambda d: d.DataLoader(range(3), batch_size=0), "batch_size should be a positive integer"),
    "uneven lists": (lambda d: list(d.DataLoader([[1, 2], [3]], batch_size=2)),
                     "each element in list of batch should be of equal size"),
    "objects": (lambda d: list(d.DataLoader([object(), object()], batch_size=2)),
                "default_collate: batch must contain tensors"),
    "split lengths": (lambda d: d.random_split(range(5), [2, 2]), "Sum of input lengths does not equal"),
    "split fraction": (lambda d: d.random_split(range(5), [1.5, -0.5]), "Fraction at index 0 is not between"),
    "empty concat": (lambda d: d.ConcatDataset([]), "datasets should not be an empty iterable"),
    "concat out of range": (lambda d: d.ConcatDataset([range(2)])[-3], "absolute value of index"),
    "replacement not bool": (lambda d: d.RandomSampler(range(3), replacement=1), "replacement should be"),
    "num_samples 0": (lambda d: d.RandomSampler(range(3), num_samples=0), "num_samples should be a positive"),
    "weights 2-d": (lambda d: d.WeightedRandomSampler([[1.0, 2.0]], 2), "weights should be a 1d sequence"),
    "weighted num_samples 0": (lambda d: d.WeightedRandomSampler([1.0], 0), "num_samples should be a positive"),
    "weighted replacement 1": (lambda d: d.WeightedRandomSampler([1.0], 1, replacement=1), "replacement should be"),
    "weighted too many": (lambda d: list(d.WeightedRandomSampler([1.0, 1.0], 3, replacement=False)),
                          "cannot sample n_sample > prob_dist.size(-1) samples without replacement"),
}


def lib_of(module):
    return ag if module is agdata else torch


@pytest.mark.parametrize("name", list(ERRORS))
def test_what_pytorch_refuses_is_refused_with_its_error(name):
    call, start = ERRORS[name]
    with pytest.raises(Exception) as theirs:
        call(tdata)
    with pytest.raises(theirs.type) as ours:
        call(agdata)
    assert str(ours.value).startswith(start), (str(ours.value), str(theirs.value))
    assert str(theirs.value).startswith(start)


def test_workers_are_refused_clearly_and_the_harmless_options_accepted():
    with pytest.raises(ValueError, match="num_workers=2: ag_jupyter loads data in the notebook's own process"):
        agdata.DataLoader(range(3), num_workers=2)
    loader = agdata.DataLoader(range(3), batch_size=2, pin_memory=True, num_workers=0, timeout=0)
    assert [b.tolist() for b in loader] == [[0, 1], [2]]


@pytest.mark.gpu
@pytest.mark.skipif(not ag.cuda.is_available(), reason="no usable GPU with CuPy here")
def test_a_dataset_on_the_gpu_loads_batches_on_the_gpu():
    x, y = ag.randn(10, 3, device="cuda"), ag.randint(0, 2, (10,), device="cuda")
    for dataset in (agdata.TensorDataset(x, y), agdata.random_split(agdata.TensorDataset(x, y), [5, 5])[0]):
        xb, yb = next(iter(agdata.DataLoader(dataset, batch_size=4, shuffle=True)))
        assert xb.device.type == yb.device.type == "cuda" and tuple(xb.shape) == (4, 3)
    assert list(agdata.WeightedRandomSampler(ag.ones(3, device="cuda"), 2))


def test_ag_utils_data_is_reachable_as_torch_utils_data():
    assert agdata.get_worker_info() is None and tdata.get_worker_info() is None
    assert ag.utils.data.DataLoader is agdata.DataLoader
    assert {"DataLoader", "Dataset", "TensorDataset", "random_split", "Subset", "ConcatDataset",
            "default_collate", "Sampler", "RandomSampler", "SequentialSampler", "BatchSampler"} <= set(dir(agdata))


def test_a_traced_training_loop_over_a_loader_makes_a_valid_trace_document():
    ag.manual_seed(0)
    loader = agdata.DataLoader(agdata.TensorDataset(ag.randn(20, 3), ag.randint(0, 2, (20,))), batch_size=8,
                               shuffle=True)
    model = ag.nn.Linear(3, 2)
    with ag.trace() as tr:  # the document is checked against the schema when the test ends (conftest)
        for xb, yb in loader:
            loss = ag.nn.functional.cross_entropy(model(xb), yb)
            loss.backward()
        ag.multinomial(ag.softmax(model(xb), 1).detach(), 1, generator=ag.Generator())
    document = tr.to_dict()
    assert sum(node["kind"] == "op" for node in document["nodes"]) > 0


EDGES = {  # default_collate's edge cases: the same batch, or the same error, as PyTorch's
    "tensors of two sizes": lambda lib: [lib.zeros(2), lib.zeros(3)],
    "arrays of two sizes": lambda lib: [np.zeros(2), np.zeros(3)],
    "string arrays": lambda lib: [np.array(["a", "b"]), np.array(["c", "d"])],
    "numpy bools": lambda lib: [np.bool_(True), np.bool_(False)],
    "dicts with other keys": lambda lib: [{"a": 1}, {"b": 2}],
    "an int then a float": lambda lib: [1, 2.5],
    "a float then an int": lambda lib: [2.5, 1],
    "None": lambda lib: [None, None],
    "0-d tensors": lambda lib: [lib.tensor(1), lib.tensor(2)],
    "int64 beside float32 tensors": lambda lib: [lib.zeros(2, dtype=lib.int64), lib.zeros(2)],
}


@pytest.mark.parametrize("name", list(EDGES))
def test_default_collate_edge_cases_as_pytorch(name):
    try:
        theirs = tdata.default_collate(EDGES[name](torch))
    except Exception as error:  # noqa: BLE001 - whatever PyTorch raises, ag must raise alike
        with pytest.raises(type(error)) as ours:
            agdata.default_collate(EDGES[name](ag))
        assert str(ours.value) == str(error)
        return
    assert_same(agdata.default_collate(EDGES[name](ag)), theirs)


def _images_dataset(lib, base):
    """A tutorial's custom dataset (as 'Datasets & DataLoaders' writes one): uint8 images held
    as NumPy arrays, scaled to floats in __getitem__, an int label beside each."""
    rng = np.random.default_rng(0)
    images, labels = rng.integers(0, 256, (24, 1, 4, 4), dtype=np.uint8), rng.integers(0, 3, 24)

    class Images(base):
        def __len__(self):
            return len(labels)

        def __getitem__(self, i):
            return lib.tensor(images[i]).float() / 255, int(labels[i])

    return Images()


def test_a_tutorial_style_epoch_over_a_custom_dataset_gives_pytorchs_numbers():
    results = {}
    for lib, data in ((ag, agdata), (torch, tdata)):
        model = lib.nn.Sequential(lib.nn.Flatten(), lib.nn.Linear(16, 8), lib.nn.ReLU(), lib.nn.Linear(8, 3))
        with lib.no_grad():
            for i, p in enumerate(model.parameters()):
                p.copy_(lib.tensor(np.random.default_rng(i).normal(0, 0.3, tuple(p.shape)).astype(np.float32)))
        optimizer = lib.optim.SGD(model.parameters(), lr=0.5)
        losses = []
        for xb, yb in data.DataLoader(_images_dataset(lib, data.Dataset), batch_size=5):
            loss = lib.nn.functional.cross_entropy(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        results[lib.__name__] = losses, [p.detach().numpy().copy() for p in model.parameters()]
    (ours, our_weights), (theirs, their_weights) = results["ag_jupyter"], results["torch"]
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    for a, b in zip(our_weights, their_weights):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)


def test_each_iterator_draws_once_from_the_loaders_generator_as_pytorchs():
    # PyTorch seeds an iterator's workers with one draw, shuffled or not: the draws after it move on
    for lib in (ag, torch):
        dataset = lib.utils.data.TensorDataset(lib.arange(6.0))
        lib.manual_seed(0)
        untouched = lib.randn(3)
        lib.manual_seed(0)
        iter(lib.utils.data.DataLoader(dataset, batch_size=2))
        after_one = lib.randn(3)
        lib.manual_seed(0)
        lib.empty((), dtype=lib.int64).random_()
        after_one_draw = lib.randn(3)
        assert not lib.equal(untouched, after_one) and lib.equal(after_one, after_one_draw)
        own = lib.Generator().manual_seed(1)
        lib.manual_seed(0)
        iter(lib.utils.data.DataLoader(dataset, batch_size=2, generator=own))  # draws from its own
        assert lib.equal(lib.randn(3), untouched)
