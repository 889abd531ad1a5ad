"""ag.save / ag.load, and load_state_dict's checks: round trips, refusals that run nothing,
PyTorch's error wording, and all-or-nothing loading."""
import io
import os
import pickle
import zipfile
from collections import OrderedDict

import numpy
import pytest

import ag_jupyter as ag
from ag_jupyter import nn
from ag_jupyter.serialization import UnsafeFileError


def test_round_trip_of_nested_containers(tmp_path):
    obj = {
        "weights": OrderedDict([("fc.weight", ag.randn(3, 4)), ("fc.bias", ag.zeros(3, dtype=ag.float64))]),
        "epoch": 7, "lr": 0.125, "name": "run-1", "done": False, "note": None, "nan": float("nan"),
        "shape": (3, 4), "history": [1.5, 2.5, {"deep": ag.tensor([1, 2, 3])}],
        3: "an int key", (1, 2): "a tuple key",
        "mask": ag.tensor([True, False]), "scalar": ag.tensor(2.5), "int32": ag.tensor([1], dtype=ag.int32),
        "array": numpy.arange(4.0), "dtype": ag.float16, "device": ag.device("cpu"),
        "param": nn.Parameter(ag.ones(2)), "leaf": ag.ones(2, requires_grad=True),
    }
    path = tmp_path / "everything.ckpt"  # the path is used as given: no .npz appended
    ag.save(obj, path)
    assert os.listdir(tmp_path) == ["everything.ckpt"]
    back = ag.load(path)
    assert type(back["weights"]) is OrderedDict and list(back["weights"]) == ["fc.weight", "fc.bias"]
    assert back["weights"]["fc.weight"].equal(obj["weights"]["fc.weight"])
    assert back["weights"]["fc.bias"].dtype == ag.float64
    assert (back["epoch"], back["lr"], back["name"], back["done"], back["note"]) == (7, 0.125, "run-1", False, None)
    assert back["nan"] != back["nan"] and back["shape"] == (3, 4)
    assert back["history"][:2] == [1.5, 2.5] and back["history"][2]["deep"].tolist() == [1, 2, 3]
    assert back["history"][2]["deep"].dtype == ag.int64
    assert back[3] == "an int key" and back[(1, 2)] == "a tuple key"
    assert back["mask"].dtype == ag.bool and back["mask"].tolist() == [True, False]
    assert back["scalar"].shape == () and back["scalar"].item() == 2.5
    assert back["int32"].dtype == ag.int32
    assert isinstance(back["array"], numpy.ndarray) and back["array"].tolist() == [0.0, 1.0, 2.0, 3.0]
    assert back["dtype"] is ag.float16 and back["device"] == ag.device("cpu")
    assert type(back["param"]) is nn.Parameter and back["param"].requires_grad
    assert type(back["leaf"]) is ag.Tensor and back["leaf"].requires_grad
    assert not back["weights"]["fc.weight"].requires_grad


def test_the_file_is_a_plain_npz_with_readable_names(tmp_path):
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    ag.save(model.state_dict(), tmp_path / "model.npz")
    with numpy.load(tmp_path / "model.npz", allow_pickle=False) as archive:
        assert sorted(archive.files) == sorted(["0.weight", "0.bias", "2.weight", "2.bias", "__ag_structure__"])
        assert numpy.array_equal(archive["0.weight"], model[0].weight.detach().numpy())


def test_file_objects_and_plain_numpy_archives():
    buffer = io.BytesIO()
    ag.save([ag.ones(2)], buffer)
    buffer.seek(0)
    assert ag.load(buffer)[0].tolist() == [1.0, 1.0]
    plain = io.BytesIO()
    numpy.savez(plain, w=numpy.eye(2, dtype=numpy.float32), b=numpy.zeros(2, dtype=numpy.float32))
    plain.seek(0)
    loaded = ag.load(plain)
    assert set(loaded) == {"w", "b"} and loaded["w"].dtype == ag.float32


def test_model_round_trip_restores_outputs(tmp_path):
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
    x = ag.randn(5, 4)
    expected = model(x)
    ag.save(model.state_dict(), tmp_path / "m.npz")
    twin = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
    assert repr(twin.load_state_dict(ag.load(tmp_path / "m.npz"))) == "<All keys matched successfully>"
    assert twin(x).equal(expected)


def test_save_refuses_what_it_cannot_store(tmp_path):
    with pytest.raises(TypeError, match="can't store a object .*at thing"):
        ag.save({"thing": object()}, tmp_path / "x.npz")
    with pytest.raises(TypeError, match="object array"):
        ag.save({"a": numpy.array([1, "x"], dtype=object)}, tmp_path / "x.npz")


class Exploit:
    """Unpickling this creates a marker file: proof that code in the file ran."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def test_a_pickle_file_is_refused_and_nothing_runs(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "model.pt"
    with open(path, "wb") as f:
        pickle.dump({"weight": Exploit(marker)}, f)
    with pytest.raises(UnsafeFileError, match="never unpickles"):
        ag.load(path)
    assert not marker.exists()
    with open(path, "rb") as f:  # the file really was dangerous
        pickle.load(f)["weight"].close()
    assert marker.exists()


def test_an_object_array_npz_is_refused_and_nothing_runs(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "weights.npz"
    numpy.savez(path, weight=numpy.zeros(2), payload=numpy.array([Exploit(marker)], dtype=object))
    with pytest.raises(UnsafeFileError, match="object array"):
        ag.load(path)
    assert not marker.exists()
    # An ag.save file with one member swapped for an object array is refused the same way.
    good = tmp_path / "good.npz"
    ag.save({"w": ag.ones(2)}, good)
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(tmp_path / "bad.npz", "w") as dst:
        for name in src.namelist():
            dst.writestr(name, src.read(name))
        with dst.open("w~1.npy", "w") as member:
            numpy.lib.format.write_array(member, numpy.array([Exploit(marker)], dtype=object), allow_pickle=True)
    with pytest.raises(UnsafeFileError, match="object array"):
        ag.load(tmp_path / "bad.npz")
    assert not marker.exists()


def test_a_torch_save_archive_is_refused_and_nothing_runs(tmp_path):
    torch = pytest.importorskip("torch")
    marker = tmp_path / "pwned"
    path = tmp_path / "model.pt"
    torch.save({"weight": torch.ones(2), "extra": Exploit(marker)}, path)
    with pytest.raises(UnsafeFileError, match="torch.save archive"):
        ag.load(path)
    assert not marker.exists()


def test_other_files_are_refused(tmp_path):
    numpy.save(tmp_path / "one.npy", numpy.ones(2))
    with pytest.raises(UnsafeFileError, match="single .npy array"):
        ag.load(tmp_path / "one.npy")
    (tmp_path / "text.txt").write_text("hello")
    with pytest.raises(UnsafeFileError, match="not a zip archive"):
        ag.load(tmp_path / "text.txt")


class Net(nn.Module):
    def __init__(self, out_features=2, bias=True):
        super().__init__()
        self.fc = nn.Linear(4, out_features, bias=bias)


def test_load_state_dict_names_missing_unexpected_and_mismatched_keys():
    net = Net()
    checkpoint = {"fc.weight": ag.zeros(3, 4), "fc.extra": ag.zeros(1)}
    with pytest.raises(RuntimeError) as error:
        net.load_state_dict(checkpoint)
    assert str(error.value) == (
        'Error(s) in loading state_dict for Net:\n'
        '\tMissing key(s) in state_dict: "fc.bias". \n'
        '\tUnexpected key(s) in state_dict: "fc.extra". \n'
        '\tsize mismatch for fc.weight: copying a param with shape [3, 4] from checkpoint, '
        'the shape in current model is [2, 4].')


def test_load_state_dict_wording_matches_torch_apart_from_the_shape_spelling():
    torch = pytest.importorskip("torch")

    class TorchNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(4, 2)

    with pytest.raises(RuntimeError) as theirs:
        TorchNet().load_state_dict({"fc.weight": torch.zeros(3, 4), "fc.extra": torch.zeros(1)})
    with pytest.raises(RuntimeError) as ours:
        type("TorchNet", (Net,), {})().load_state_dict({"fc.weight": ag.zeros(3, 4), "fc.extra": ag.zeros(1)})
    assert str(ours.value) == str(theirs.value).replace("torch.Size(", "").replace("])", "]")


def test_a_refused_load_changes_no_parameter():
    net = Net()
    before = {k: v.numpy().copy() for k, v in net.state_dict().items()}
    # fc.bias would fit; the shape error elsewhere must stop it from being copied
    for bad in ({"fc.weight": ag.zeros(3, 4), "fc.bias": ag.ones(2)},
                {"fc.weight": ag.ones(2, 4), "fc.bias": ag.ones(2), "extra": ag.ones(1)},
                {"fc.bias": ag.ones(2)}):
        with pytest.raises(RuntimeError):
            net.load_state_dict(bad)
        for k, v in net.state_dict().items():
            assert numpy.array_equal(v.numpy(), before[k]), k


def test_non_strict_load_reports_keys_and_copies_what_fits():
    net = Net()
    result = net.load_state_dict({"fc.weight": ag.ones(2, 4), "fc.extra": ag.zeros(1)}, strict=False)
    assert result.missing_keys == ["fc.bias"] and result.unexpected_keys == ["fc.extra"]
    assert net.fc.weight.sum().item() == 8
    with pytest.raises(RuntimeError, match="size mismatch for fc.weight"):
        net.load_state_dict({"fc.weight": ag.ones(3, 4)}, strict=False)  # shapes are always checked


def test_load_state_dict_casts_dtype_and_refuses_fractions_into_integers():
    net = Net()
    net.load_state_dict({"fc.weight": ag.ones(2, 4, dtype=ag.float64), "fc.bias": ag.zeros(2, dtype=ag.float64)})
    assert net.fc.weight.dtype == ag.float32 and net.fc.weight.sum().item() == 8
    holder = nn.Module()
    holder.register_buffer("steps", ag.tensor([0]))
    with pytest.raises(RuntimeError, match="dtype mismatch for steps"):
        holder.load_state_dict({"steps": ag.tensor([1.5])})


def test_map_location(tmp_path):
    ag.save({"w": ag.ones(2)}, tmp_path / "w.npz")
    assert ag.load(tmp_path / "w.npz", map_location="cpu")["w"].device == ag.device("cpu")


def test_load_takes_weights_only_as_pytorch_does(tmp_path):
    path = tmp_path / "model_weights.pth"
    ag.save({"w": ag.tensor([1.0, 2.0])}, path)
    for weights_only in (True, False, None):
        assert ag.load(path, weights_only=weights_only)["w"].tolist() == [1.0, 2.0]
