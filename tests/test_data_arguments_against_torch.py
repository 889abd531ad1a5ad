"""A DataLoader's arguments against PyTorch's (issue 30): every combination of batch_size
(good and bad), shuffle, drop_last, a sampler and a batch_sampler gives PyTorch's number of
batches and batch shapes, or the same kind of error."""
from __future__ import annotations

import itertools

import pytest

import ag_jupyter as ag
from ag_jupyter.utils import data as agdata

torch = pytest.importorskip("torch")


def _outcome(make):
    try:
        loader = make()
        shapes = [tuple(batch[0].shape) for batch in loader]
    except Exception as error:  # noqa: BLE001 - the kind of error is what is compared
        return type(error).__name__
    return len(loader), shapes


def test_loader_arguments_as_pytorch():
    differ, count = [], 0
    for batch_size, shuffle, drop_last, sampler, batch_sampler in itertools.product(
            [1, 3, None, 0, -1, 2.5, True], [None, False, True], [False, True], [None, [0, 2, 1, 6]],
            [None, [[0, 1], [2]]]):
        arguments = {"batch_size": batch_size, "shuffle": shuffle, "drop_last": drop_last}
        arguments.update({"sampler": sampler} if sampler else {}, **({"batch_sampler": batch_sampler} if
                                                                    batch_sampler else {}))
        found = []
        for lib, data in ((ag, agdata), (torch, torch.utils.data)):
            dataset = data.TensorDataset(lib.arange(7.0).reshape(7, 1), lib.arange(7))
            found.append(_outcome(lambda data=data, dataset=dataset: data.DataLoader(dataset, **arguments)))
        count += 1
        if found[0] != found[1]:
            differ.append(f"{arguments}: ag {found[0]}, torch {found[1]}")
    assert count == 168 and not differ, "\n".join(differ)


def _moves(lib, make_loader, source_state):
    """Whether starting an epoch of the loader moved ``source_state``'s generator, as seen by the
    state before and after ``iter()``."""
    loader = make_loader()
    before = source_state().tolist()
    iter(loader)
    return source_state().tolist() != before


def test_each_epoch_draws_its_base_seed_from_where_pytorch_draws_it():
    """PyTorch draws its workers' base seed as an epoch starts (workers or not), from the
    loader's generator, else the global source; the engine draws it too, so the draws after a
    loop come from the same point of a seeded stream."""
    for lib, data in ((ag, agdata), (torch, torch.utils.data)):
        dataset = data.TensorDataset(lib.arange(6.0))
        g = lib.Generator().manual_seed(1)
        assert _moves(lib, lambda: data.DataLoader(dataset, batch_size=2), lib.get_rng_state)
        assert _moves(lib, lambda: data.DataLoader(dataset, batch_size=2, generator=g), g.get_state)
        assert not _moves(lib, lambda: data.DataLoader(dataset, batch_size=2, generator=g), lib.get_rng_state)
