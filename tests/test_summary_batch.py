"""Summaries finished together (tracing/summary_batch.py) are the summaries finished alone,
number for number: the whole document is compared, built from the same run both ways."""
import json
import math
import warnings

import numpy
import pytest

import ag_jupyter as ag
from ag_jupyter.tracing import document, statistics, summary_batch
from ag_jupyter.tracing.statistics import finished_one, finished_rows, preview, sample_stats, scratch, stat
from ag_jupyter.tracing.summary import Large


def _chain():  # 1-D values and gradients of 1,000 entries: Deferred summaries
    ag.manual_seed(0)
    x = ag.randn(1000, requires_grad=True)
    y = x
    for i in range(30):
        y = y * 0.999 if i % 3 == 0 else (y + 0.001 if i % 3 == 1 else y.tanh())
    y.sum().backward()


def _shapes():  # 2-D, 3-D and float64 values, NaN among them, squares past their dtype's range
    ag.manual_seed(1)
    for shape in [(10, 10), (3, 5, 7), (40, 30), (1000,)]:
        x = ag.randn(*shape, requires_grad=True)
        d = ag.randn(*shape, dtype=ag.float64, requires_grad=True)
        for i in range(10):
            y = (x * (i + 1)).tanh() * 1e3 + (d.exp() * 2).sum()
        z = y * float("nan") if shape == (40, 30) else y
        (z.sum() + (x * 1e25).sum() + (d * 1e200).sum()).backward()


def _large():  # sampled summaries of 5,000 entries, 1-D and 2-D; a 4-D tensor (channels)
    ag.manual_seed(3)
    x = ag.randn(100, 50, requires_grad=True)
    v = ag.randn(5000, requires_grad=True)
    w = ag.randn(2, 3, 40, 40, requires_grad=True)
    y = x
    for _ in range(20):
        y = (y * 1.01).tanh() + x
        v = v * 0.5 + 1
        w = w * 2
    (y.sum() + v.sum() + w.sum()).backward()


def _gone_nan():  # a forward whose every value of a shape has a NaN or an inf: nothing to stack
    x = ag.full((1000,), float("nan"), requires_grad=True)
    w = ag.full((30, 40), float("inf"), requires_grad=True)
    for i in range(12):
        x = x * 2 if i % 2 else x.tanh()
        w = w - 1


def _small_layers():  # many small arrays of one shape: floats (NaN in some), halves, integers
    ag.manual_seed(4)
    w = ag.randn(4, 4, requires_grad=True)
    b = ag.randn(4, dtype=ag.float64, requires_grad=True)
    h = ag.randn(8, 4)
    for i in range(12):
        h = (h @ w).tanh() * (float("nan") if i == 7 else 1.0) + b.float()
        h = ag.where(h > 0, h, h * 0.5)[ag.tensor([i % 8, 7, 6, 5, 4, 3, 2, 1])]
        (h.half() * 2).float()
        h.sum(1).exp() * 1e38
    h.sum().backward()


def _document(work, batched: bool, monkeypatch) -> str:
    with monkeypatch.context() as patch:
        if not batched:
            patch.setattr(document, "finish_all", lambda summaries: None)
        with ag.trace() as tr:
            work()
        return json.dumps(tr.to_dict(), sort_keys=True)


@pytest.mark.parametrize("work", [_chain, _shapes, _large], ids=lambda w: w.__name__.strip("_"))
def test_batched_summaries_are_the_summaries_finished_alone(work, monkeypatch):
    batched = []
    for name in ("finished_rows", "row_stats"):  # a stack of Large summaries, of Deferred ones
        counted = getattr(summary_batch, name)
        monkeypatch.setattr(summary_batch, name, lambda *a, counted=counted: batched.append(len(a[0])) or counted(*a))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # overflowing squares are the tracer's own: never a learner's warning
        assert _document(work, True, monkeypatch) == _document(work, False, monkeypatch)
    assert sum(batched) >= 20  # the batch did finish summaries: the comparison compared something


def test_a_forward_gone_nan_is_drawn_each_value_counting_its_nan_and_inf(monkeypatch):
    """A group with no finite row left nothing to stack; it stopped ``to_dict`` with a
    ValueError, the widget with it, when the learner most needed the picture."""
    document_text = _document(_gone_nan, True, monkeypatch)
    assert document_text == _document(_gone_nan, False, monkeypatch)
    values = [n["value"] for n in json.loads(document_text)["nodes"] if n["kind"] == "tensor"]
    assert [v["shape"] for v in values].count([1000]) == 13 and [v["shape"] for v in values].count([30, 40]) == 13
    assert all(v["nan"] == 1000 for v in values if v["shape"] == [1000])
    assert all(v["inf"] == 1200 and v["min"] is None for v in values if v["shape"] == [30, 40])


def test_small_arrays_finished_together_are_the_small_summaries_made_alone(monkeypatch):
    """Small arrays' values listed from one stack are ``_small``'s, NaN rows left to it."""
    finished = []
    small = summary_batch._finish_small
    monkeypatch.setattr(summary_batch, "_FINISHES", dict(summary_batch._FINISHES, small=lambda key, members: (
        finished.append((key[1], str(key[2]), len(members))), small(key, members))))
    # warm: Python 3.11 inlines the indexing call once specialized, and the op's instruction offset
    # (the line's ``offset``) moves by the instruction's cache after its first run
    _small_layers()
    assert _document(_small_layers, True, monkeypatch) == _document(_small_layers, False, monkeypatch)
    dtypes = {dtype for _, dtype, _ in finished}
    assert {"float32", "float64", "float16", "int64"} <= dtypes, finished  # each kind went through the stack
    assert sum(count for *_, count in finished) >= 100


@pytest.mark.parametrize("shape, dtype, scale", [
    ((1000,), numpy.float32, 1.0), ((40, 25), numpy.float64, 1e3), ((3, 7, 11), numpy.float32, 1e-30),
    ((5000,), numpy.float32, 2.0), ((100,), numpy.float64, 1e300), ((8, 9), numpy.float32, 0.0)],
    ids=str)
def test_a_stack_of_rows_gives_each_row_what_sample_stats_and_preview_give_it(shape, dtype, scale):
    """``finished_rows`` (a stack, or a summary alone as a stack of one) against the reference
    definitions, one array at a time: every number, and the preview byte for byte."""
    rng = numpy.random.default_rng(7)
    summaries = [Large((rng.standard_normal(shape) * scale).astype(dtype), exact=False) for _ in range(5)]
    first = summaries[0]
    values = scratch(0, len(summaries), first.sample.size)
    numpy.stack([s.sample.reshape(-1) for s in summaries], out=values)
    cells = scratch(2, len(summaries), first.grid.size).reshape(len(summaries), *first.grid.shape)
    numpy.stack([s.grid for s in summaries], out=cells)
    stacked = finished_rows(values, cells, first.step, [s.norm for s in summaries], first.sampled)
    for summary, row in zip(summaries, stacked):
        alone = finished_one(summary.sample, summary.grid, summary.step, summary.norm, summary.sampled)
        with numpy.errstate(all="ignore"):
            low, high, mean, std = sample_stats(summary.sample, True)
        expected = {"min": stat(low), "max": stat(high), "mean": stat(mean), "std": stat(std),
                    "norm": stat(summary.norm), "preview": preview(summary.grid, summary.step, True)}
        for got in (row, alone):
            assert {key: got[key] for key in expected} == expected


def test_statistics_rounded_together_are_stat_of_each():
    """``finished_rows`` rounds its numbers in a few NumPy calls (``statistics._stats``):
    each must be ``stat``'s float, sign of zero included, where the scaling is exact, near
    the half-way ties that ``%.7g`` breaks to even, past 1e22 either way, and not finite."""
    rng = numpy.random.default_rng(11)
    ties = rng.integers(10 ** 7, 10 ** 8, 2000).astype(numpy.float64) * 10.0 + 5.0  # 9 digits ending in 5
    numbers = numpy.concatenate([
        rng.standard_normal(20000),
        rng.standard_normal(20000) * 10.0 ** rng.integers(-40, 40, 20000),
        ties, ties / 10.0 ** rng.integers(1, 12, 2000), (ties + 0.5) / 1e9,
        rng.standard_normal(2000).astype(numpy.float32).astype(numpy.float64),
        numpy.array([0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, 1e-310, 1.7e308, -1.7e308, 9999999.5,
                     99999995.0, 999999.95, 1e22, 1e23, 1e-22, 1e-23, 12345665.0, 12345675.0, 0.1, 123456.75])])
    got = statistics._stats(numbers)
    want = [stat(x) for x in numbers.tolist()]
    assert [repr(g) for g in got] == [repr(w) for w in want]


@pytest.mark.parametrize("width", [1, 2, 3, 4, 5, 31, 32, 33, 256])
def test_previews_encoded_together_are_each_row_encoded_alone(width):
    """One base64 encoding of a stack's preview codes, cut into rows, is ``b64encode`` of
    each row, whatever the row's length is modulo 3 (its ``=`` padding)."""
    import base64
    codes = numpy.random.default_rng(width).integers(0, 256, (7, width), dtype=numpy.uint8)
    assert statistics._base64_rows(codes.tobytes(), 7) == [base64.b64encode(row.tobytes()).decode() for row in codes]
