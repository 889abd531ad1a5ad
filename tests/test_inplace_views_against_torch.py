"""Every in-place op on every kind of view, against PyTorch: the same program runs on both
(``lib`` is ``ag`` or ``torch``), and each must either give the same values, gradients,
dtypes and ``requires_grad``, or both refuse. Issue 13's tenth round ran this as a fuzz
(about 3,000 cases) and fixed what it found; this keeps it from coming back."""
from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import ag_jupyter as ag

torch = pytest.importorskip("torch")

VIEWS = {
    "none": lambda y: y,
    "slice": lambda y: y[1:3],
    "columns": lambda y: y[:, 1:],
    "row": lambda y: y[0],
    "column": lambda y: y[:, 0],
    "step": lambda y: y[::2],
    "t": lambda y: y.t(),
    "transpose": lambda y: y.transpose(0, 1),
    "reshape": lambda y: y.reshape(-1),
    "view": lambda y: y.view(y.shape[1], y.shape[0]),
    "unsqueeze": lambda y: y.unsqueeze(0),
    "T": lambda y: y.T,
    "permute": lambda y: y.permute(1, 0),
    "flatten": lambda y: y.flatten(),
    "ellipsis": lambda y: y[..., 1],
    "none_index": lambda y: y[None, 1:],
    "view_of_view": lambda y: y[1:].t()[1:],
    "expand_clone": lambda y: y[0:1].expand(3, y.shape[1]).clone(),
}


def _random(rng, shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def _write(lib, v, op, rng, operand_grad):
    """Apply ``op`` to ``v`` in place; return the operands (their gradients are compared)."""
    shape = tuple(v.shape)
    o = lib.tensor(_random(rng, shape), requires_grad=operand_grad)
    ob = lib.tensor(_random(rng, shape[-1:]), requires_grad=operand_grad)  # broadcast along v
    scalar = lib.tensor(_random(rng, ()), requires_grad=operand_grad)
    wide = lib.tensor(_random(rng, shape, np.float64), requires_grad=operand_grad)
    mask = lib.tensor(_random(rng, shape) > 0)
    rows = [0, 1, 2] if shape[0] >= 3 else [0, 0, 0]
    writes = {
        "add_": lambda: v.add_(o), "add_broadcast": lambda: v.add_(ob),
        "add_alpha": lambda: v.add_(o, alpha=-1.5), "add_number": lambda: v.add_(2.5),
        "sub_": lambda: v.sub_(o), "sub_alpha": lambda: v.sub_(ob, alpha=0.5),
        "mul_": lambda: v.mul_(o), "mul_number": lambda: v.mul_(-3.0), "mul_float64": lambda: v.mul_(wide),
        "div_": lambda: v.div_(o.abs() + 1), "div_number": lambda: v.div_(4.0),
        "clamp_": lambda: v.clamp_(-0.3, 0.4), "clamp_min": lambda: v.clamp_(min=0.1),
        "clamp_max": lambda: v.clamp_(max=0.1),
        "copy_": lambda: v.copy_(o), "copy_broadcast": lambda: v.copy_(ob), "copy_float64": lambda: v.copy_(wide),
        "zero_": lambda: v.zero_(), "fill_": lambda: v.fill_(1.25), "fill_tensor": lambda: v.fill_(scalar),
        "iadd": lambda: v.__iadd__(o), "isub": lambda: v.__isub__(ob), "imul": lambda: v.__imul__(o),
        "idiv": lambda: v.__itruediv__(o * o + 1),
        "setitem_row": lambda: v.__setitem__(0, o[0]), "setitem_number": lambda: v.__setitem__(-1, 3.0),
        "setitem_slice_iadd": lambda: _slice_iadd(v, o),
        "setitem_rows": lambda: v.__setitem__([0, 0, -1], o[rows]),
        "setitem_mask": lambda: v.__setitem__(mask, 0.5),
        "setitem_mask_tensor": lambda: v.__setitem__(mask, o[mask] * 2),
        "relu_inplace": lambda: lib.nn.functional.relu(v, inplace=True),
    }
    writes[op]()
    return {"o": o, "ob": ob, "scalar": scalar, "wide": wide}


def _slice_iadd(v, o):
    rest = v[1:]
    rest += o[1:]  # ``v[1:] += o[1:]``: the slice is written in place, then assigned back
    v[1:] = rest


OPS = ["add_", "add_broadcast", "add_alpha", "add_number", "sub_", "sub_alpha", "mul_", "mul_number",
       "mul_float64", "div_", "div_number", "clamp_", "clamp_min", "clamp_max", "copy_", "copy_broadcast",
       "copy_float64", "zero_", "fill_", "fill_tensor", "iadd", "isub", "imul", "idiv", "setitem_row",
       "setitem_number", "setitem_slice_iadd", "setitem_rows", "setitem_mask", "setitem_mask_tensor",
       "relu_inplace"]
BASES = ["mul", "nograd_base", "clone", "exp"]


def _program(lib, view, op, operand_grad, base, seed):
    rng = np.random.default_rng(seed)
    x = lib.tensor(_random(rng, (int(rng.integers(4, 6)), int(rng.integers(4, 6)))), requires_grad=True)
    y = {"mul": lambda: x * 1.5, "clone": lambda: x.clone(), "exp": lambda: x.exp(),
         "nograd_base": lambda: lib.tensor(_random(rng, tuple(x.shape)))}[base]()
    v = VIEWS[view](y)
    early = y[1:3, :2] if view != "none" else None  # a view taken before the write sees it too
    operands = _write(lib, v, op, rng, operand_grad)
    loss = (y * lib.tensor(_random(rng, tuple(y.shape)))).sum() + \
        (v * lib.tensor(_random(rng, tuple(v.shape)))).sum() * 0.5
    if early is not None:
        loss = loss + early.sum() * 0.25
    out = {"y": y, "v": v, "loss": loss, "v is a view": v._base is not None, "v requires grad": v.requires_grad}
    if loss.requires_grad:
        loss.backward()
        out["x.grad"] = x.grad
        out.update((f"{name}.grad", t.grad) for name, t in operands.items())
    return out


def _plain(value):
    """A tensor as (values, dtype name, shape, requires_grad); None and bools as they are."""
    if value is None or isinstance(value, bool):
        return value
    dtype = str(value.dtype).split(".")[-1]  # ag.float32, torch.float32
    return np.array(value.detach().numpy(), copy=True), dtype, tuple(value.shape), value.requires_grad


def _run(lib, *case):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return {k: _plain(v) for k, v in _program(lib, *case).items()}, None
    except Exception as error:  # both must refuse alike: which exception is compared below
        return None, error


def _differences(ours, theirs) -> list:
    found = []
    for key in sorted(set(ours) | set(theirs)):
        a, b = ours.get(key), theirs.get(key)
        if a is None or b is None or isinstance(a, bool):
            if a != b:
                found.append(f"{key}: {a!r} against torch's {b!r}")
            continue
        if a[1:] != b[1:]:
            found.append(f"{key}: (dtype, shape, requires_grad) {a[1:]} against torch's {b[1:]}")
        elif not np.allclose(a[0], b[0], rtol=1e-4, atol=1e-6, equal_nan=True):
            found.append(f"{key}: {a[0]} against torch's {b[0]}")
    return found


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_each_in_place_op_on_this_view_is_pytorchs(view):
    wrong = []
    cases = 0
    for seed, (op, operand_grad, base) in enumerate(itertools.product(OPS, (False, True), BASES)):
        if operand_grad and base in ("clone", "exp"):
            continue
        case = (view, op, operand_grad, base, seed)
        (ours, our_error), (theirs, their_error) = _run(ag, *case), _run(torch, *case)
        cases += 1
        name = f"{view}/{op}/operand requires grad={operand_grad}/{base}"
        if (our_error is None) != (their_error is None):
            wrong.append(f"{name}: ours {our_error!r}, torch's {their_error!r}")
        elif our_error is None:
            wrong += [f"{name}: {d}" for d in _differences(ours, theirs)]
        elif not isinstance(our_error, (RuntimeError, TypeError, ValueError, IndexError)):
            wrong.append(f"{name}: refused with {our_error!r}, not an error a user can read as PyTorch's")
    assert cases == len(OPS) * 6
    assert not wrong, f"{len(wrong)} of {cases} differ from PyTorch:\n" + "\n".join(wrong[:20])
