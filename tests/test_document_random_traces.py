"""Random traced programs, built into documents and sent as the widget sends them.

``to_dict`` finishes summaries in stacks (``summary_batch``), in place in the records, and
the widget packs the document into its wire form (``wire_values``); each is a fast path
with cases of its own. Over random programs of the shapes and values a learner meets
(empty, one entry, past the sample size, 2-D and 4-D; float16/32/64; NaN, inf, zeros,
huge and tiny entries; a forward alone or with its backward), each document must:

- build, without a warning from the tracer or the widget;
- be the document built with every summary finished alone;
- come back from its wire form as it was, and draw as a static SVG.

This fuzz found a forward gone NaN that stopped ``to_dict`` and an empty tensor whose values
were lost on the wire. The seeds are fixed: CI runs the same programs every time."""
from __future__ import annotations

import json
import random
import warnings

import numpy as np
import pytest

import ag_jupyter as ag
import ag_jupyter.nn.functional as F
from ag_jupyter.tracing import document
from ag_jupyter.widgets.static_svg import static_svg
from ag_jupyter.widgets.wire_values import packed, unpacked

PROGRAMS = 60
SHAPES = [(0,), (1,), (3,), (65,), (1000,), (1025,), (5000,), (0, 4), (10, 10), (4, 300), (2, 3, 8, 8)]
FILLS = ["randn", "randn", "nan", "inf", "-inf", "zeros", "mixed", "huge", "tiny"]
DTYPES = [np.float32, np.float32, np.float64, np.float16]


def _leaf(rng: random.Random):
    shape, dtype, fill = rng.choice(SHAPES), rng.choice(DTYPES), rng.choice(FILLS)
    values = np.random.default_rng(rng.randrange(1 << 30)).standard_normal(shape)
    flat = values.reshape(-1)
    if fill in ("nan", "inf", "-inf", "zeros"):
        values[...] = {"nan": np.nan, "inf": np.inf, "-inf": -np.inf, "zeros": 0.0}[fill]
    elif fill == "mixed":
        flat[::3], flat[1::5] = np.inf, np.nan
    elif fill in ("huge", "tiny"):
        values *= 6e4 if dtype is np.float16 and fill == "huge" else {"huge": 1e30, "tiny": 1e-30}[fill]
    return ag.tensor(values.astype(dtype), requires_grad=True)


def _step(rng: random.Random, y):
    """One op a learner writes, on any shape; the shape may change."""
    k = rng.randrange(12)
    if k == 0:
        return y * rng.choice([2, 0.5, -1.0])
    if k == 1:
        return y.tanh()
    if k == 2:
        return y + y
    if k == 3:
        return y.exp()
    if k == 4:
        return y - y  # inf - inf: NaN born here
    if k == 5:
        return y.relu()
    if k == 6:
        return y.log()  # of negatives: NaN
    if k == 7:
        return y.reshape(-1)
    if k == 8:
        return y.sigmoid() * y
    if k == 9 and y.dim() >= 1 and y.shape[-1] > 0:
        return y.softmax(-1)
    if k == 10 and y.dim() == 2:
        return y.T @ y
    if k == 11 and y.dim() == 4:
        return F.max_pool2d(y, 2)
    return y.abs()


def _program(seed: int):
    rng = random.Random(seed)
    leaves = [_leaf(rng) for _ in range(rng.randint(1, 3))]
    steps, backward = rng.randint(1, 14), rng.random() < 0.6

    def run():
        outs = []
        for y in leaves:
            for _ in range(steps):
                y = _step(rng, y)
            outs.append(y)
        if backward:
            sum(out.sum() for out in outs).backward()

    return run


def _document(seed: int, batched: bool, monkeypatch) -> dict:
    with monkeypatch.context() as patch:
        if not batched:
            patch.setattr(document, "finish_all", lambda summaries: None)
        with ag.trace() as tr:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the engine's own NumPy warnings (exp overflow...) are not tested here
                _program(seed)()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return tr.to_dict()


@pytest.mark.parametrize("seed", range(PROGRAMS))
def test_a_random_trace_builds_travels_and_draws(seed, monkeypatch):
    doc = _document(seed, True, monkeypatch)
    text = json.dumps(doc, sort_keys=True)
    assert text == json.dumps(_document(seed, False, monkeypatch), sort_keys=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        wire = packed(doc)
        parts = {name: wire.pop(name) for name in ("values32", "values64") if name in wire}
        assert wire["wire"] == 2
        assert json.dumps(unpacked(json.loads(json.dumps(wire, allow_nan=False)), parts), sort_keys=True) == text
        assert static_svg(doc).startswith("<svg")
