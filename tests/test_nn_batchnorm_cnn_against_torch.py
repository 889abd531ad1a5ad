"""BatchNorm2d, SiLU and Dropout2d inside a small CNN (the model of a first convolution
course), trained with SGD and momentum beside PyTorch: the same losses step for step, the
same running statistics, the same evaluation outputs."""
from __future__ import annotations

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")


def _cnn(lib):
    return lib.nn.Sequential(
        lib.nn.Conv2d(1, 4, 3, padding=1), lib.nn.BatchNorm2d(4), lib.nn.ReLU(), lib.nn.MaxPool2d(2),
        lib.nn.Dropout2d(0.0), lib.nn.Conv2d(4, 6, 3), lib.nn.BatchNorm2d(6, momentum=None), lib.nn.SiLU(),
        lib.nn.Flatten(), lib.nn.Linear(6 * 2 * 2, 10))


def test_a_cnn_with_batch_norm_trains_and_evaluates_as_pytorch():
    theirs = _cnn(torch)
    ours = _cnn(ag)
    ours.load_state_dict({k: ag.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()})
    our_opt = ag.optim.SGD(ours.parameters(), lr=0.1, momentum=0.9)
    their_opt = torch.optim.SGD(theirs.parameters(), lr=0.1, momentum=0.9)
    rng = np.random.default_rng(7)
    for step in range(4):
        x, y = rng.normal(size=(16, 1, 8, 8)).astype(np.float32), rng.integers(0, 10, 16)
        losses = []
        for model, lib, opt in ((ours, ag, our_opt), (theirs, torch, their_opt)):
            loss = lib.nn.functional.cross_entropy(model(lib.tensor(x)), lib.tensor(y), label_smoothing=0.1)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        assert losses[0] == pytest.approx(losses[1], rel=1e-5, abs=1e-6), step
    for (name, mine), their in zip(ours.state_dict().items(), theirs.state_dict().values()):
        np.testing.assert_allclose(mine.numpy(), their.numpy(), 1e-4, 1e-5, err_msg=name)
    ours.eval()
    theirs.eval()
    x = rng.normal(size=(4, 1, 8, 8)).astype(np.float32)
    np.testing.assert_allclose(ours(ag.tensor(x)).detach().numpy(), theirs(torch.tensor(x)).detach().numpy(),
                               1e-4, 1e-5)
