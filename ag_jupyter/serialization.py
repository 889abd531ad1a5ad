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

Kept: dicts (``OrderedDict`` too; keys may be strings, numbers, ``None``, dtypes,
devices and tuples of them), lists, tuples, tensors (dtype, ``requires_grad``,
``Parameter``-ness and device), NumPy arrays, ``int``, ``float``, ``bool``, ``str``,
``None``, dtypes and devices. ``ag.save`` refuses anything else, before it writes.

Every way a file can fail to load (truncated, damaged, not an ``ag.save`` file, unsafe)
raises ``LoadError`` (``UnsafeFileError`` is the kind that would have needed pickle),
with a message naming the file and the problem; a missing file is ``FileNotFoundError``.
"""
from __future__ import annotations

import io
import json
import os
import re
import struct
import zipfile
import zlib
from collections import OrderedDict

import numpy
from numpy.lib import format as npy

from . import backend, dtypes
from .nn.parameter import Parameter
from .tensor import TENSOR_TYPES, _wrap

FORMAT = "ag_jupyter.save/1"
_STRUCTURE = "__ag_structure__"
_NPY_MAGIC = b"\x93NUMPY"
_ZIP_MAGIC = b"PK\x03\x04"


class LoadError(ValueError):
    """``ag.load`` could not read a file: truncated, damaged, or not an ``ag.save`` file."""


class UnsafeFileError(LoadError):
    """``ag.load`` refused a file because reading it would need pickle (which runs code)."""


class _NoSuchDevice(RuntimeError):
    """The file is fine but names a device this machine lacks: PyTorch's RuntimeError."""


# What reading a damaged archive can raise from inside zipfile, numpy and json.
_DAMAGE = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError, KeyError,
           IndexError, TypeError, ValueError, AttributeError, struct.error, UnicodeError,
           RecursionError, MemoryError, OverflowError, NotImplementedError)
_SAFE_NAME = re.compile(r"[^A-Za-z0-9_.~/-]")
_KEY_TYPES = (type(None), bool, int, float, str, numpy.integer, numpy.floating, numpy.bool_)


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
    # Readable, but only characters every zip reader keeps: the key itself is in the structure.
    base = _SAFE_NAME.sub("_", "/".join(str(p) for p in path))[:200] or "tensor"
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
        for k in obj:
            _check_key(k, path)
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


def _check_key(key, path: tuple) -> None:
    """Refuse a dict key that would not load back equal (a tensor or array key would come
    back as a new object, so the loaded dict could not be indexed with the original)."""
    if isinstance(key, tuple):
        for part in key:
            _check_key(part, path)
    elif not isinstance(key, _KEY_TYPES + (dtypes.dtype, backend.device)):
        raise TypeError(f"ag.save can't use a {type(key).__name__} as a dict key (in "
                        f"{'/'.join(map(str, path)) or 'the top-level dict'}): it would not load back as an "
                        f"equal key; use strings, numbers, None, dtypes, devices or tuples of them")


# ----- loading ---------------------------------------------------------------------------

def load(f, map_location=None, *, weights_only=None):
    """Read what ``ag.save`` wrote. Never unpickles: a file that would need pickle is refused
    with ``UnsafeFileError`` and nothing in it runs. ``map_location`` ("cpu", "cuda", a
    device) puts every tensor there; by default each goes back to the device it was saved
    from. A plain ``numpy.savez`` file loads as a dict of tensors. ``weights_only`` is
    accepted as PyTorch's (``torch.load(path, weights_only=True)``, its default since 2.6):
    this loader only ever reads weights and plain containers, whatever it says."""
    del weights_only  # nothing else could be loaded: no pickle, so no code, either way
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as handle:
            return _load_or_explain(handle, os.fspath(f), map_location)
    return _load_or_explain(f, getattr(f, "name", "the file"), map_location)


def _load_or_explain(handle, where: str, map_location):
    """Whatever goes wrong inside (zipfile, numpy, json, recursion, memory) becomes one
    ``LoadError`` naming the file, never an internal error type."""
    try:
        return _load(handle, where, map_location)
    except (LoadError, _NoSuchDevice):
        raise
    except _DAMAGE + (RuntimeError,) as error:  # zipfile raises RuntimeError for encrypted members
        problem = "its structure is nested too deeply" if isinstance(error, RecursionError) else \
            "an array in it is too big to be real" if isinstance(error, MemoryError) else \
            f"{type(error).__name__}: {error}"
        raise LoadError(f"ag.load: {where} is truncated or damaged ({problem}); it is not a "
                        f"readable ag.save file") from None


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
        raise LoadError(f"ag.load: {where} has a damaged structure record ({error})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise LoadError(f"ag.load: {where} was written in an unknown format "
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
                data = member.read()  # the zip checks its CRC once the member is read to the end
            arrays[name[:-4]] = _read_array(data, name[:-4], where)
    return arrays


def _read_array(data: bytes, name: str, where: str):
    """One ``.npy`` member, after checking its header against the bytes that follow, so a
    damaged header can neither ask for pickle nor for more memory than the file holds."""
    buffer = io.BytesIO(data)
    try:
        version = npy.read_magic(buffer)
        read_header = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
        shape, fortran_order, dtype = read_header(buffer)
    except ValueError as error:
        raise LoadError(f"ag.load: {where}: the array {name!r} has a damaged header ({error})") from None
    if dtype.hasobject:
        raise UnsafeFileError(
            f"ag.load refused {where}: the array {name!r} is an object array, which only pickle "
            f"can read, and unpickling can run code. Nothing in the file was run.")
    count = 1
    for size in shape:
        count *= size
    if count * dtype.itemsize != len(data) - buffer.tell():
        raise LoadError(f"ag.load: {where}: the array {name!r} is truncated or damaged (its header "
                        f"promises {count * dtype.itemsize} bytes, the file holds "
                        f"{len(data) - buffer.tell()})")
    buffer.seek(0)
    return npy.read_array(buffer, allow_pickle=False)


def _tensor(array, requires_grad: bool, parameter: bool, device, map_location):
    array = dtypes.normalize(array)
    target = backend.as_device(map_location if map_location is not None else device or "cpu")
    if target.type == "cuda" and map_location is None and not backend.cuda_is_available():
        raise _NoSuchDevice("Attempting to deserialize object on a CUDA device but "
                           "ag.cuda.is_available() is False. If you are running on a CPU-only machine, "
                           "please use ag.load with map_location='cpu' to map your tensors to the CPU.")
    tensor = _wrap(backend.move(array, target), False, None)
    if parameter:
        return Parameter(tensor, requires_grad)
    if requires_grad:
        tensor.requires_grad = True
    return tensor


def _decode(node, arrays: dict, map_location, where: str):
    if not isinstance(node, dict) or len(node) not in (1, 2, 4):
        raise LoadError(f"ag.load: {where} has a damaged structure record near {str(node)[:80]}")
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
        raise LoadError(f"ag.load: {where} has a damaged structure record (unknown entry {kind!r})")
    return simple[kind](value)


def _array(arrays: dict, name, where: str):
    if name not in arrays:
        raise LoadError(f"ag.load: {where} lists an array {str(name)[:80]!r} that it does not hold")
    return arrays[name]


def _hashable(key):
    return tuple(_hashable(k) for k in key) if isinstance(key, (list, tuple)) else key
