"""ag.load on damaged files: one documented error type (LoadError) naming the file, never
an internal error from zipfile, numpy or json; ag.save refuses keys it could not load back."""
from __future__ import annotations

import io
import json
import zipfile

import numpy
import pytest

import ag_jupyter as ag
from ag_jupyter.serialization import LoadError, UnsafeFileError


def _saved() -> bytes:
    buffer = io.BytesIO()
    ag.save({"w": ag.arange(12.0).reshape(3, 4), "b": ag.ones(3, dtype=ag.float64), "epoch": 3,
             "nested": [{"k": ag.tensor([1, 2])}, (1.5, None)]}, buffer)
    return buffer.getvalue()


def _load_bytes(data: bytes, tmp_path, name="damaged.npz"):
    path = tmp_path / name
    path.write_bytes(data)
    return ag.load(path)


def test_every_truncation_is_a_load_error_naming_the_file(tmp_path):
    data = _saved()
    for cut in sorted(set(range(0, len(data), max(1, len(data) // 150))) | {len(data) - 1}):
        with pytest.raises(LoadError) as caught:
            _load_bytes(data[:cut], tmp_path)
        assert "damaged.npz" in str(caught.value)


def test_flipped_bytes_load_or_raise_a_load_error_never_an_internal_one(tmp_path):
    data = _saved()
    rng = numpy.random.default_rng(11)
    refused = 0
    for _ in range(200):
        damaged = bytearray(data)
        for position in rng.integers(0, len(data), size=rng.integers(1, 4)):
            damaged[position] ^= int(rng.integers(1, 256))
        try:
            _load_bytes(bytes(damaged), tmp_path)
        except LoadError as error:
            refused += 1
            assert "damaged.npz" in str(error)
    assert refused > 150  # the zip's CRC catches a flipped byte almost anywhere


def _with_structure(tree) -> bytes:
    """An archive whose arrays are fine and whose structure record says ``tree``."""
    source = zipfile.ZipFile(io.BytesIO(_saved()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in source.namelist():
            if name != "__ag_structure__.npy":
                archive.writestr(name, source.read(name))
        with archive.open("__ag_structure__.npy", "w") as member:
            header = tree if isinstance(tree, str) else json.dumps({"format": "ag_jupyter.save/1", "tree": tree})
            numpy.lib.format.write_array(member, numpy.array(header), allow_pickle=False)
    return out.getvalue()


@pytest.mark.parametrize("tree", [
    "{not json", json.dumps({"format": "ag_jupyter.save/1"}), json.dumps(["format"]),
    {"dict": 5}, {"dict": [[{"str": "a"}]]}, {"list": {"int": 1}}, {"tensor": ["w"]},
    {"tensor": "missing"}, {"dict": [[{"dict": []}, {"none": None}]]}, {"dtype": "float128"},
    {"int": "x"}, {"float": [1]}, {"device": "tpu:9"}, {"mystery": 1},
    "[" * 100000 + "]" * 100000,
], ids=lambda t: str(t)[:30])
def test_a_damaged_structure_record_is_a_load_error(tmp_path, tree):
    nested = tree
    if tree == "[" * 100000 + "]" * 100000:
        nested = json.dumps({"format": "ag_jupyter.save/1", "tree": None})[:-5] + "[" * 100000 + "]" * 100000 + "}"
    with pytest.raises(LoadError, match="damaged.npz"):
        _load_bytes(_with_structure(nested), tmp_path)


def test_a_header_promising_a_huge_array_is_refused_without_allocating(tmp_path):
    source = zipfile.ZipFile(io.BytesIO(_saved()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in source.namelist():
            data = source.read(name)
            if name == "w.npy":  # a valid header that promises ~400 TB, and no data
                header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999,), }"
                data = numpy.lib.format.magic(1, 0) + len(header + b"\n").to_bytes(2, "little") + header + b"\n"
            archive.writestr(name, data)
    with pytest.raises(LoadError, match="truncated or damaged"):
        _load_bytes(out.getvalue(), tmp_path)


def test_refusals_keep_their_kinds(tmp_path):
    (tmp_path / "text.txt").write_text("hello")
    with pytest.raises(UnsafeFileError):
        ag.load(tmp_path / "text.txt")
    assert issubclass(UnsafeFileError, LoadError) and issubclass(LoadError, ValueError)
    with pytest.raises(FileNotFoundError):
        ag.load(tmp_path / "nowhere.npz")


@pytest.mark.parametrize("key", [ag.ones(1), numpy.int64(3).__class__, object(), frozenset({1}), (1, ag.ones(1))],
                         ids=["tensor", "type", "object", "frozenset", "tuple_with_tensor"])
def test_save_refuses_keys_it_could_not_load_back_and_writes_nothing(tmp_path, key):
    path = tmp_path / "x.npz"
    with pytest.raises(TypeError, match="dict key"):
        ag.save({"ok": 1, "inner": {key: 1}}, path)
    assert not path.exists()


def test_keys_with_any_characters_round_trip(tmp_path):
    keys = ["a/b", "../up", "nul\x00char", "\ud800 lone surrogate", "é ü 中", "", "x" * 5000,
            "__ag_structure__", ("t", 1), None, 2.5, True, ag.float16]
    obj = {k: ag.tensor([float(i)]) for i, k in enumerate(keys)}
    ag.save(obj, tmp_path / "keys.npz")
    back = ag.load(tmp_path / "keys.npz")
    assert list(back) == keys
    assert all(back[k].item() == float(i) for i, k in enumerate(keys))
