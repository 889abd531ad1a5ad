"""The dtypes a tensor can have, named as PyTorch names them."""
from __future__ import annotations

import numpy


class dtype:
    __slots__ = ("name", "numpy", "is_floating_point", "tensor_type")

    def __init__(self, name: str, numpy_dtype, tensor_type: str):
        self.name = name
        self.numpy = numpy.dtype(numpy_dtype)
        self.is_floating_point = self.numpy.kind == "f"
        self.tensor_type = tensor_type  # PyTorch's legacy name, used in its messages

    def __repr__(self) -> str:
        return f"ag.{self.name}"

    def __reduce__(self):
        return (from_name, (self.name,))


float16 = dtype("float16", numpy.float16, "HalfTensor")
float32 = dtype("float32", numpy.float32, "FloatTensor")
float64 = dtype("float64", numpy.float64, "DoubleTensor")
int32 = dtype("int32", numpy.int32, "IntTensor")
int64 = dtype("int64", numpy.int64, "LongTensor")
bool_ = dtype("bool", numpy.bool_, "BoolTensor")
uint8 = dtype("uint8", numpy.uint8, "ByteTensor")
int8 = dtype("int8", numpy.int8, "CharTensor")
int16 = dtype("int16", numpy.int16, "ShortTensor")

ALL = (float16, float32, float64, int32, int64, bool_, uint8, int8, int16)
_BY_NUMPY = {d.numpy: d for d in ALL}
_BY_NAME = {d.name: d for d in ALL}

_default_float = float32


def from_name(name: str) -> dtype:
    return _BY_NAME[name]


def of_array(array) -> dtype:
    return _BY_NUMPY[array.dtype]


def from_numpy(numpy_dtype) -> dtype:
    return _BY_NUMPY[numpy.dtype(numpy_dtype)]


def to_numpy(d) -> numpy.dtype:
    """The NumPy dtype for an ag dtype, a NumPy dtype, or the Python types float/int/bool."""
    if isinstance(d, dtype):
        return d.numpy
    if d is float:
        return _default_float.numpy
    if d is int:
        return int64.numpy
    nd = numpy.dtype(d)
    if nd not in _BY_NUMPY:
        names = ", ".join(x.name for x in ALL)
        raise TypeError(f"ag_jupyter does not support dtype {nd}; use one of {names}")
    return nd


def default_float() -> dtype:
    return _default_float


def set_default_dtype(d: dtype) -> None:
    global _default_float
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError(f"only floating-point dtypes can be the default, got {d!r}")
    _default_float = d


def normalize(array):
    """``array`` itself when its dtype is one of ours; otherwise a TypeError naming it, never a
    cast to another number. PyTorch refuses longdouble too; its uint16, uint32 and uint64 are
    "shell" dtypes most of its ops refuse, and uint64 as int64 would wrap 2**63 and up."""
    if array.dtype in _BY_NUMPY:
        return array
    name = array.dtype.name
    why = (f"PyTorch's {name} has only limited support" if array.dtype.kind == "u"
           else "complex tensors are not supported here" if array.dtype.kind == "c"
           else f"PyTorch refuses {name} too")
    raise TypeError(f"can't convert data of type numpy.{name} ({why}): ag_jupyter's dtypes are "
                    f"{', '.join(d.name for d in ALL)}; convert it first, e.g. array.astype(numpy.int64) if "
                    f"its values fit, or numpy.float64")


get_default_dtype = default_float


def scalar_type_name(array) -> str:
    """PyTorch's scalar type name for an array's dtype, as its messages say it: Float,
    Double, Long..."""
    return {"float16": "Half", "float32": "Float", "float64": "Double", "int32": "Int",
            "int64": "Long", "bool": "Bool", "uint8": "Byte", "int8": "Char",
            "int16": "Short"}[of_array(array).name]
