"""The examples run, learn, and do what they say (short versions)."""
import importlib.util
import pathlib

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"


def load(name):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_train_digits_learns_and_writes_the_plot(tmp_path, capsys):
    pytest.importorskip("sklearn")
    pytest.importorskip("tqdm")
    pytest.importorskip("matplotlib")
    plot = tmp_path / "digits.png"
    history = load("train_digits").main(["--epochs", "3", "--plot", str(plot), "--no-progress"])
    assert len(history["loss"]) == 3 and history["loss"][-1] < history["loss"][0]
    assert history["test_accuracy"][-1] > 0.8  # chance is 0.1
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "final held-out accuracy" in capsys.readouterr().out
    assert history["model"].training  # accuracy() evaluates in eval mode, then restores train mode


def test_dynamic_net_trains_and_round_trips(tmp_path, capsys):
    path = tmp_path / "dynamic.npz"
    result = load("dynamic_net").main(["--steps", "40", "--save", str(path)])
    losses = result["losses"]
    assert losses[-1] < losses[0] / 2
    assert result["unused_grad_none"] and all(result["unused_grad_none"])
    assert result["difference"] == 0.0
    assert path.exists()
    assert "<All keys matched successfully>" in capsys.readouterr().out
