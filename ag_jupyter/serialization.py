"""``ag.save`` / ``ag.load``: tensors and nested containers in one ``.npz`` file,
loaded without ever unpickling.

``torch.save`` writes a pickle, and loading a pickle can run any code the file's
author chose. Here the file is a zip of ``.npy`` arrays (one per tensor, named by
its key path: ``fc.weight``, ``state/0/exp_avg``) plus one text array holding the
structure as JSON. Loading reads arrays with ``allow_pickle=False`` and parses the
JSON; nothing in the file can run. A file that holds anything else (a pickle, an
object array, a ``torch.save`` archive) is refused before any of it is read.

>>> import io, ag_jupyter as ag
>>> buffer = io.BytesIO()
>>> ag.save({"w": ag.ones(2), "epoch": 3}, buffer); _ = buffer.seek(0)
>>> ag.load(buffer)
{'w': tensor([1., 1.]), 'epoch': 3}

Kept: dicts (``OrderedDict`` too; keys may be strings, numbers, ...), lists,
tuples, tensors (dtype, ``requires_grad``, ``Parameter``-ness and device),
NumPy arrays, ``int``, ``float``, ``bool``, ``str``, ``None``, dtypes and devices.
"""
from __future__ import annotations

import json
import os
import zipfile
from collections import OrderedDict

import numpy
from numpy.lib import format as npy

from . import backend, dtypes
from .tensor import TENSOR_TYPES, _wrap

FORMAT = "ag_jupyter.save/1"
_STRUCTURE = "__ag_structure__"
_NPY_MAGIC = b"\x93NUMPY"
_ZIP_MAGIC = b"PK\x03\x04"


class UnsafeFileError(ValueError):
    """``ag.load`` refused a file because reading it would need pickle (which runs code)."""


# ----- saving ----------------------------------------------------------------------------

def save(obj, f) -> None:
    """Write ``obj`` (tensors, numbers, strings, ``None`` in dicts/lists/tuples) to ``f``,
    a path or a binary file object, as one ``.npz`` file. The path is used as given."""
    arrays: dict = {}
    tree = _encode(obj, arrays, ())
    header = json.dumps({"format": FORMAT, "tree": tree})
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as handle:
            _write_zip(handle, arrays, header)
    else:
        _write_zip(f, arrays, header)


def _write_zip(handle, arrays: dict, header: str) -> None:
    with zipfile.ZipFile(handle, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
        for name, array in list(arrays.items()) + [(_STRUCTURE, numpy.array(header))]:
            with archive.open(name + ".npy", "w", force_zip64=True) as member:
                npy.write_array(member, numpy.asarray(array), allow_pickle=False)


def _array_name(path: tuple, arrays: dict) -> str:
    base = "/".join(str(p) for p in path) or "tensor"
    name, n = base, 1
    while name in arrays or name == _STRUCTURE:
        name, n = f"{base}~{n}", n + 1
    return name


def _encode(obj, arrays: dict, path: tuple):
    if obj is None:
        return {"none": None}
    if isinstance(obj, (bool, numpy.bool_)):
        return {"bool": bool(obj)}
    if isinstance(obj, (int, numpy.integer)):
        return {"int": int(obj)}
    if isinstance(obj, (float, numpy.floating)):
        return {"float": float(obj)}
    if isinstance(obj, str):
        return {"str": obj}
    if obj.__class__ in TENSOR_TYPES:
        name = _array_name(path, arrays)
        arrays[name] = numpy.asarray(backend.move(obj._data, backend.CPU))
        return {"tensor": name, "requires_grad": obj.requires_grad,
                "parameter": type(obj).__name__ == "Parameter", "device": str(obj.device)}
    if isinstance(obj, numpy.ndarray):
        if obj.dtype.hasobject:
            raise TypeError(f"ag.save can't store an object array (at {'/'.join(map(str, path))}): "
                            f"only pickle could read it back")
        name = _array_name(path, arrays)
        arrays[name] = obj
        return {"ndarray": name}
    if isinstance(obj, dict):
        items = [[_encode(k, arrays, ()), _encode(v, arrays, path + (k,))] for k, v in obj.items()]
        return {"dict": items, "ordered": isinstance(obj, OrderedDict)}
    if isinstance(obj, (list, tuple)):
        values = [_encode(v, arrays, path + (i,)) for i, v in enumerate(obj)]
        return {"tuple" if isinstance(obj, tuple) else "list": values}
    if isinstance(obj, dtypes.dtype):
        return {"dtype": obj.name}
    if isinstance(obj, backend.device):
        return {"device": str(obj)}
    raise TypeError(f"ag.save can't store a {type(obj).__name__} (at {'/'.join(map(str, path)) or 'top level'}): "
                    f"only tensors, NumPy arrays, numbers, strings, None, dtypes, devices, and "
                    f"dicts, lists and tuples of them")


# ----- loading ---------------------------------------------------------------------------

def load(f, map_location=None):
    """Read what ``ag.save`` wrote. Never unpickles: a file that would need pickle is refused
    with ``UnsafeFileError`` and nothing in it runs. ``map_location`` ("cpu", "cuda", a
    device) puts every tensor there; by default each goes back to the device it was saved
    from. A plain ``numpy.savez`` file loads as a dict of tensors."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as handle:
            return _load(handle, os.fspath(f), map_location)
    return _load(f, getattr(f, "name", "the file"), map_location)


def _load(handle, where: str, map_location):
    start = handle.tell()
    magic = handle.read(6)
    handle.seek(start)
    if not magic.startswith(_ZIP_MAGIC):
        if magic.startswith(_NPY_MAGIC):
            raise UnsafeFileError(f"ag.load: {where} is a single .npy array, not an ag.save file; "
                                  f"read it with numpy.load(..., allow_pickle=False)")
        looks = "a pickle" if magic[:1] == b"\x80" else "not a zip archive"
        raise UnsafeFileError(f"ag.load refused {where}: it is {looks}, not an ag.save .npz file. "
                              f"ag.load never unpickles, because unpickling can run code hidden in "
                              f"the file; nothing in it was run.")
    arrays = _read_members(handle, where)
    if _STRUCTURE not in arrays:
        return OrderedDict((name, _tensor(array, False, False, None, map_location))
                           for name, array in arrays.items())
    try:
        header = json.loads(str(arrays.pop(_STRUCTURE)[()]))
    except (ValueError, TypeError) as error:
        raise ValueError(f"ag.load: {where} has a damaged structure record ({error})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError(f"ag.load: {where} was written in an unknown format "
                         f"{header.get('format') if isinstance(header, dict) else header!r}; "
                         f"this version reads {FORMAT}")
    return _decode(header["tree"], arrays, map_location, where)


def _read_members(handle, where: str) -> dict:
    """Every array in the archive, read with ``allow_pickle=False``, or a refusal."""
    arrays = {}
    with zipfile.ZipFile(handle) as archive:
        names = archive.namelist()
        foreign = [n for n in names if not n.endswith(".npy")]
        if foreign:
            hint = " (a torch.save archive: its data.pkl is a pickle)" if any(
                n.endswith(".pkl") for n in foreign) else ""
            raise UnsafeFileError(f"ag.load refused {where}: it holds {foreign[0]!r}, which is not a "
                                  f"NumPy array{hint}. ag.load never unpickles; nothing in it was run.")
        for name in names:
            with archive.open(name) as member:
                try:
                    array = npy.read_array(member, allow_pickle=False)
                except ValueError as error:
                    if "allow_pickle" in str(error) or "Object arrays" in str(error):
                        raise UnsafeFileError(
                            f"ag.load refused {where}: the array {name[:-4]!r} is an object array, "
                            f"which only pickle can read, and unpickling can run code. Nothing in "
                            f"the file was run.") from None
                    raise ValueError(f"ag.load: {where}: the array {name[:-4]!r} is damaged ({error})") from None
            arrays[name[:-4]] = array
    return arrays


def _tensor(array, requires_grad: bool, parameter: bool, device, map_location):
    array = dtypes.normalize(array)
    target = backend.as_device(map_location if map_location is not None else device or "cpu")
    if target.type == "cuda" and map_location is None and not backend.cuda_is_available():
        raise RuntimeError("Attempting to deserialize object on a CUDA device but "
                           "ag.cuda.is_available() is False. If you are running on a CPU-only machine, "
                           "please use ag.load with map_location='cpu' to map your tensors to the CPU.")
    tensor = _wrap(backend.move(array, target), False, None)
    if parameter:
        from .nn.parameter import Parameter

        return Parameter(tensor, requires_grad)
    if requires_grad:
        tensor.requires_grad = True
    return tensor


def _decode(node, arrays: dict, map_location, where: str):
    if not isinstance(node, dict) or len(node) not in (1, 2, 4):
        raise ValueError(f"ag.load: {where} has a damaged structure record near {node!r}")
    if "tensor" in node:
        return _tensor(_array(arrays, node["tensor"], where), bool(node.get("requires_grad")),
                       bool(node.get("parameter")), node.get("device"), map_location)
    if "ndarray" in node:
        return _array(arrays, node["ndarray"], where)
    if "dict" in node:
        pairs = [(_hashable(_decode(k, arrays, map_location, where)), _decode(v, arrays, map_location, where))
                 for k, v in node["dict"]]
        return OrderedDict(pairs) if node.get("ordered") else dict(pairs)
    if "list" in node:
        return [_decode(v, arrays, map_location, where) for v in node["list"]]
    if "tuple" in node:
        return tuple(_decode(v, arrays, map_location, where) for v in node["tuple"])
    (kind, value), = node.items()
    simple = {"none": lambda v: None, "bool": bool, "int": int, "float": float, "str": str,
              "dtype": dtypes.from_name, "device": backend.device}
    if kind not in simple:
        raise ValueError(f"ag.load: {where} has a damaged structure record (unknown entry {kind!r})")
    return simple[kind](value)


def _array(arrays: dict, name, where: str):
    if name not in arrays:
        raise ValueError(f"ag.load: {where} lists an array {name!r} that it does not hold")
    return arrays[name]


def _hashable(key):
    return tuple(_hashable(k) for k in key) if isinstance(key, (list, tuple)) else key
