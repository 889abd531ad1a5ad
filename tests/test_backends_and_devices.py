"""The device questions tutorials ask first (issue 30), answered as PyTorch answers them on
a machine like this one: ``backends.mps`` (never here), ``backends.cudnn``'s flags (kept,
harmless), and ``cuda.is_available()`` / ``device_count()`` / the device idiom."""
from __future__ import annotations

import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")


def test_mps_is_neither_available_nor_built():
    assert ag.backends.mps.is_available() is False
    assert ag.backends.mps.is_built() is False
    assert torch.backends.mps.is_available() is False  # PyTorch's answer on this (Linux) machine


def test_cudnn_flags_a_tutorial_sets_are_kept_and_harmless():
    before = ag.backends.cudnn.benchmark, ag.backends.cudnn.deterministic
    try:
        ag.backends.cudnn.benchmark = True
        ag.backends.cudnn.deterministic = True
        assert ag.backends.cudnn.benchmark and ag.backends.cudnn.deterministic
        ag.manual_seed(0)
        first = ag.randn(3).tolist()
        ag.manual_seed(0)
        assert ag.randn(3).tolist() == first
    finally:
        ag.backends.cudnn.benchmark, ag.backends.cudnn.deterministic = before
    assert ag.backends.cudnn.is_available() is False and ag.backends.cudnn.enabled is True
    assert all(hasattr(torch.backends.cudnn, flag) for flag in ("benchmark", "deterministic", "enabled"))


def test_the_device_idiom_runs_as_tutorials_write_it():
    device = ag.device("cuda" if ag.cuda.is_available() else "cpu")
    assert isinstance(ag.cuda.is_available(), bool) and isinstance(ag.cuda.device_count(), int)
    assert (ag.cuda.device_count() > 0) == ag.cuda.is_available()
    if not ag.cuda.is_available():
        assert device == "cpu" and str(device) == "cpu" and ag.cuda.device_count() == 0
        assert torch.cuda.is_available() is False and torch.cuda.device_count() == 0  # the CPU wheel agrees
    x = ag.randn(2, 3, device=device)
    model = ag.nn.Linear(3, 1).to(device)
    assert model(x).device == device and x.to(device) is x
    mps_first = ag.device("cuda" if ag.cuda.is_available() else "mps" if ag.backends.mps.is_available() else "cpu")
    assert mps_first == device


def test_a_seeding_helper_as_tutorials_write_it_runs_and_seeds():
    def seed_everything(lib, seed):
        lib.manual_seed(seed)
        lib.cuda.manual_seed(seed)
        lib.cuda.manual_seed_all(seed)
        lib.backends.cudnn.deterministic = True
        lib.backends.cudnn.benchmark = False
        lib.use_deterministic_algorithms(True)

    try:
        for lib in (ag, torch):
            seed_everything(lib, 42)
            assert lib.are_deterministic_algorithms_enabled() is True
            assert lib.is_deterministic_algorithms_warn_only_enabled() is False
            first = lib.randn(3).tolist()
            seed_everything(lib, 42)
            assert lib.randn(3).tolist() == first
            with pytest.raises(TypeError, match="argument 'mode' \\(position 1\\) must be bool, not str"):
                lib.use_deterministic_algorithms("yes")
    finally:
        for lib in (ag, torch):
            lib.use_deterministic_algorithms(False)
            lib.backends.cudnn.deterministic = False
    assert ag.are_deterministic_algorithms_enabled() is False
