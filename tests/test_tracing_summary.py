"""Summaries of tensor values and gradients: small ones whole, large ones bounded."""
from __future__ import annotations

import json
import math
import warnings
from base64 import b64decode

import numpy
import pytest
from trace_checks import events, node, ops, output_of

import ag_jupyter as ag
from ag_jupyter.tracing.summary import Large, summarize, to_json


def decode_preview(preview: dict) -> numpy.ndarray:
    """The preview's entries as floats (NaN where it holds NaN), as the front end decodes them."""
    codes = numpy.frombuffer(b64decode(preview["q"]), dtype=numpy.uint8)
    codes = codes.reshape(preview["rows"], preview["cols"])
    low, high, top = preview["lo"] or 0.0, preview["hi"] or 0.0, preview["top"]
    values = low + codes.astype(numpy.float64) / top * (high - low)
    values[codes == top + 1] = -numpy.inf
    values[codes == top + 2] = numpy.inf
    values[codes == 255] = numpy.nan
    return values

def test_small_tensors_carry_every_number():
    s = summarize(numpy.arange(64, dtype=numpy.float32).reshape(8, 8))
    assert s["values"] == list(range(64)) and s["shape"] == [8, 8] and s["nan"] == s["inf"] == 0
    s = summarize(numpy.array([1.0, numpy.nan, numpy.inf, -numpy.inf]))
    assert s["values"] == [1.0, "NaN", "Infinity", "-Infinity"] and (s["nan"], s["inf"]) == (1, 2)
    assert summarize(numpy.float32(2.5))["values"] == [2.5]
    assert summarize(numpy.array([True, False]))["values"] == [True, False]
    json.dumps(s, allow_nan=False)  # strict JSON


def test_medium_tensors_have_exact_statistics():
    a = numpy.arange(65, dtype=numpy.float32)
    s = to_json(summarize(a))
    assert "values" not in s and s["sampled"] is False
    assert (s["min"], s["max"], s["mean"]) == (0.0, 64.0, 32.0)
    assert s["std"] == pytest.approx(float(a.std()), rel=1e-5)
    assert s["norm"] == pytest.approx(float(numpy.linalg.norm(a)), rel=1e-5)


def test_large_tensors_are_bounded_and_honest():
    rng = numpy.random.default_rng(0)
    a = rng.normal(3.0, 2.0, size=(600, 700)).astype(numpy.float32)
    s = to_json(summarize(a))
    assert s["shape"] == [600, 700] and s["sampled"] is True and s["nan"] == s["inf"] == 0
    assert s["norm"] == pytest.approx(float(numpy.linalg.norm(a.astype(numpy.float64))), rel=1e-4)
    assert s["mean"] == pytest.approx(3.0, abs=0.2) and s["std"] == pytest.approx(2.0, abs=0.2)
    assert a.min() <= s["min"] < s["max"] <= a.max()
    p = s["preview"]
    assert (p["rows"], p["cols"], p["step"]) == (32, 32, [19, 22])
    assert decode_preview(p) == pytest.approx(a[::19, ::22], abs=(p["hi"] - p["lo"]) / p["top"])
    assert len(json.dumps(s)) < 2000
    exact = to_json(Large(a, exact=True))
    assert exact["sampled"] is False
    assert (exact["min"], exact["max"]) == (pytest.approx(float(a.min())), pytest.approx(float(a.max())))
    assert exact["mean"] == pytest.approx(float(a.mean()), rel=1e-4)
    assert exact["std"] == pytest.approx(float(a.std()), rel=1e-4)


def _layouts(a):
    yield a
    if a.ndim > 1:
        yield numpy.asfortranarray(a)  # not contiguous in C order: its flat entries are a copy
    yield a[..., ::-1]


@pytest.mark.parametrize("shape", [(5000,), (1025,), (10, 20, 30), (256, 10), (40, 3, 50), (1, 4096), (300, 200)])
def test_preview_and_sample_are_the_entries_at_even_strides_of_any_large_array(shape):
    rng = numpy.random.default_rng(1)
    for a in _layouts(rng.normal(size=shape).astype(numpy.float32)):
        s = to_json(summarize(a))
        folded = a.reshape(-1, shape[-1])  # leading dimensions fold into rows; a vector is one row
        rows, cols = folded.shape
        step = [-(-rows // 32), -(-cols // 32)]
        p = s["preview"]
        assert p["step"] == step and (p["rows"], p["cols"]) == (-(-rows // step[0]), -(-cols // step[1]))
        grid = folded[::step[0], ::step[1]]
        assert decode_preview(p) == pytest.approx(grid, abs=(p["hi"] - p["lo"]) / p["top"] * 0.51)
        # mean and std come from the preview, or from 1,024 evenly spaced entries when it is
        # small; min and max from every entry (these have at most 65,536)
        sample = grid if grid.size >= 512 else a.reshape(-1)[::-(-a.size // 1024)]
        assert (s["min"], s["max"]) == (pytest.approx(float(a.min())), pytest.approx(float(a.max())))
        assert s["mean"] == pytest.approx(float(sample.astype(numpy.float64).mean()), rel=1e-5, abs=1e-6)


@pytest.mark.parametrize("shape", [(5000,), (10, 20, 30), (300, 300)])
def test_preview_of_a_large_array_with_nan_and_inf_shows_them_where_they_are(shape):
    a = numpy.random.default_rng(2).normal(size=shape).astype(numpy.float32)
    flat, folded = a.reshape(-1), a.reshape(-1, shape[-1])
    flat[::97] = numpy.nan  # most fall between the preview's entries
    flat[5::101] = numpy.inf
    flat[7::103] = -numpy.inf
    step = [-(-folded.shape[0] // 32), -(-folded.shape[1] // 32)]
    folded[0, step[1]], folded[0, 2 * step[1]], folded[-1, -1] = numpy.inf, -numpy.inf, numpy.nan  # and on them
    s = to_json(summarize(a))
    assert (s["nan"], s["inf"]) == (int(numpy.isnan(a).sum()), int(numpy.isinf(a).sum()))
    p = s["preview"]
    assert p["step"] == step
    grid = folded[::step[0], ::step[1]].astype(numpy.float64)
    assert numpy.array_equal(numpy.isnan(decode_preview(p)), numpy.isnan(grid))
    assert decode_preview(p) == pytest.approx(grid, abs=(p["hi"] - p["lo"]) / p["top"] * 0.51, nan_ok=True)
    flat[:] = numpy.nan
    nothing = to_json(summarize(a))
    assert nothing["nan"] == a.size and nothing["min"] is None and nothing["preview"]["lo"] is None
    assert set(b64decode(nothing["preview"]["q"])) == {255}


def test_nan_and_inf_are_counted_exactly_in_large_tensors():
    a = numpy.ones((300, 300), dtype=numpy.float32)
    a[5, 7] = numpy.nan
    a[100, :3] = numpy.inf
    a[200, 0] = -numpy.inf
    s = to_json(summarize(a))
    assert (s["nan"], s["inf"]) == (1, 4)
    assert s["norm"] == pytest.approx(math.sqrt(300 * 300 - 5))
    assert s["min"] == s["max"] == 1.0
    json.dumps(s, allow_nan=False)


@pytest.mark.parametrize("size", [100, 5000])
def test_norm_of_huge_entries_is_the_norm_though_their_squares_overflow(size):
    # exploding gradients: float32 entries past ~1e19 overflow a float32 dot product
    a = numpy.random.default_rng(4).normal(size=size).astype(numpy.float32) * numpy.float32(1e30)
    expected = float(numpy.linalg.norm(a.astype(numpy.float64)))
    assert to_json(summarize(a))["norm"] == pytest.approx(expected, rel=1e-6)
    a[3] = numpy.nan
    s = to_json(summarize(a))
    assert s["nan"] == 1 and s["norm"] == pytest.approx(float(numpy.linalg.norm(numpy.nan_to_num(a, nan=0.0)
                                                                                  .astype(numpy.float64))), rel=1e-6)
    broadcast = numpy.broadcast_to(numpy.full((4, 1), 1e25, numpy.float32), (4, size))
    assert to_json(summarize(broadcast))["norm"] == pytest.approx(1e25 * math.sqrt(4 * size), rel=1e-6)


def test_tracing_huge_values_puts_no_warning_in_the_cell_and_shows_their_norms():
    # float32 gradients past ~1e19 overflow a dot product of their squares: NumPy's dot
    # says so on stderr, which the learner would read as an error of their own code
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        with ag.trace() as tr:
            for size in (2000, 500):  # summarized at once, and when the document is built
                x = ag.full((size,), 1e20, requires_grad=True)
                (x * 3.0).sum().backward()
        doc = tr.to_dict()
    assert [str(w.message) for w in heard] == []
    norms = sorted(n["value"]["norm"] for n in doc["nodes"] if n["kind"] == "tensor" and n["shape"] != [])
    expected = sorted(v * math.sqrt(size) for size in (2000, 500) for v in (1e20, 3e20))
    assert norms == pytest.approx(expected, rel=1e-6)
    f64 = numpy.random.default_rng(1).normal(size=5000) * 1e200  # squares past float64's range
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        s = to_json(summarize(f64))
    assert [str(w.message) for w in heard] == [] and s["std"] is None
    assert s["norm"] == pytest.approx(1e200 * float(numpy.linalg.norm(f64 / 1e200)), rel=1e-6)


def test_broadcast_views_and_other_dtypes():
    grid = numpy.broadcast_to(numpy.arange(4.0, dtype=numpy.float32)[:, None], (4, 5000))
    s = to_json(summarize(grid))
    assert s["shape"] == [4, 5000] and s["norm"] == pytest.approx(math.sqrt(5000 * (1 + 4 + 9)))
    assert (s["min"], s["max"], s["mean"]) == (0.0, 3.0, 1.5) and s["sampled"] is False
    ints = to_json(summarize(numpy.arange(1000, dtype=numpy.int64)))
    assert ints["dtype"] == "int64" and ints["max"] == 999.0
    cube = to_json(summarize(numpy.zeros((10, 20, 30), dtype=numpy.float16)))
    assert cube["dtype"] == "float16" and (cube["preview"]["rows"], cube["preview"]["cols"]) == (29, 30)


def test_trace_of_a_large_matmul_stays_small():
    ag.manual_seed(0)
    with ag.trace() as tr:
        a = ag.randn(600, 700, requires_grad=True)
        b = ag.randn(700, 500, requires_grad=True)
        (a @ b).tanh().sum().backward()
    text = tr.to_json()
    assert len(text) < 300_000
    doc = json.loads(text)
    assert [n["op"] for n in ops(doc)] == ["MmBackward0", "TanhBackward0", "SumBackward0"]
    assert node(doc, "t0")["grad"]["shape"] == [600, 700]


@pytest.mark.filterwarnings("ignore:divide by zero", "ignore:invalid value")  # the user's log(-1)
def test_nan_first_appearing_is_marked_forward_and_backward():
    with ag.trace() as tr:
        x = ag.tensor([-1.0, 0.0, 4.0], requires_grad=True)
        y = ag.log(x)  # NaN and -inf appear here...
        y * 2  # ...and are carried on, not born, here
        w = ag.tensor([0.0, 1.0], requires_grad=True)
        v = w * 2
        v.sqrt().sum().backward()  # sqrt's gradient at 0 is inf: born in its step, carried by mul's
    doc = tr.to_dict()
    log_node = ops(doc)[0]
    marked = [e["node"] for e in events(doc, "create") if e.get("nonfinite_origin")]
    assert marked == [output_of(doc, log_node["id"])]
    assert node(doc, output_of(doc, log_node["id"]))["value"]["values"][:2] == ["NaN", "-Infinity"]
    steps = events(doc, "backward_step")
    assert [node(doc, e["node"])["op"] for e in steps] == ["SumBackward0", "SqrtBackward0", "MulBackward0"]
    assert [bool(e.get("nonfinite_origin")) for e in steps] == [False, True, False]
    assert steps[1]["grad_inputs"][0]["grad"]["values"] == ["Infinity", pytest.approx(2 ** -1.5)]
    assert events(doc, "accumulate")[0]["grad"]["inf"] == 1
    json.dumps(doc, allow_nan=False)


def test_exact_stats_option():
    with ag.trace(exact_stats=True) as tr:
        x = ag.randn(100, 100, requires_grad=True)
        (x * 2).sum().backward()
    doc = tr.to_dict()
    value = node(doc, "t0")["value"]
    assert value["sampled"] is False and value["max"] == pytest.approx(float(x.detach().numpy().max()), rel=1e-5)


@pytest.mark.parametrize("size", [4, 1000])  # a whole small array; a copy summarized later
def test_a_value_is_the_one_at_the_op_even_when_the_document_is_built_after_an_inplace_change(size):
    with ag.trace() as tr:
        x = ag.ones(size, requires_grad=True)
        y = x * 2
        (y * 3).sum().backward()
        with ag.no_grad():
            y.add_(100)  # after recording: the document keeps what the op made
            x.grad.mul_(0)
        grad = x.grad
    doc = tr.to_dict()
    first_mul = next(op for op in ops(doc) if op["op"] == "MulBackward0")
    value = node(doc, output_of(doc, first_mul["id"]))["value"]
    accumulated = events(doc, "accumulate")[0]["grad"]
    if size == 4:
        assert value["values"] == [2.0] * 4 and accumulated["values"] == [6.0] * 4
    else:
        assert (value["min"], value["max"], value["sampled"]) == (2.0, 2.0, False)
        assert (accumulated["min"], accumulated["max"]) == (6.0, 6.0)
    assert float(grad.sum()) == 0.0


def test_copies_share_blocks_that_a_dropped_trace_gives_back_and_a_live_one_keeps():
    from ag_jupyter.tracing.copies import CopyBlocks

    blocks = CopyBlocks(1024)
    first = [blocks.copy(numpy.full(1000, float(k), numpy.float32)) for k in range(200)]  # several blocks
    assert all(float(c.min()) == float(c.max()) == k for k, c in enumerate(first))
    held = first[3]
    block_of_held = held.base
    del first
    again = [blocks.copy(numpy.full((10, 100), -1.0, numpy.float32)) for _ in range(200)]
    assert float(held.min()) == float(held.max()) == 3.0  # its block took no new copies
    assert all(c.base is not block_of_held for c in again)
    assert again[0].shape == (10, 100) and len({id(c.base) for c in again}) > 1
    reused = {id(c.base) for c in again}
    del again
    assert id(blocks.copy(numpy.zeros(4, numpy.float32)).base) in reused  # pages still mapped


def test_values_of_a_kept_trace_survive_later_traces():
    def chain(start: float):
        with ag.trace() as tr:
            y = ag.full((1000,), start, requires_grad=True)
            for _ in range(100):
                y = y * 1.0
            y.sum().backward()
        return tr

    kept = chain(1.0)
    for _ in range(3):
        chain(7.0).to_dict()  # dropped: its copies' blocks are free for the next
    doc = kept.to_dict()
    assert {(n["value"]["min"], n["value"]["max"]) for n in doc["nodes"]
            if n["kind"] == "tensor" and n["shape"] == [1000]} == {(1.0, 1.0)}


@pytest.mark.parametrize("finite_part", [0.0, None])
def test_a_preview_shows_an_infinity_as_one_where_the_finite_entries_leave_no_range(finite_part):
    # Rows of +inf among zeros (or nothing else): the preview once drew them as zeros.
    a = numpy.full((10, 10), numpy.inf, dtype=numpy.float32)
    if finite_part is not None:
        a[1::2] = finite_part
    a[0, 0] = -numpy.inf
    p = to_json(summarize(a))["preview"]
    assert decode_preview(p) == pytest.approx(a.astype(numpy.float64))


def test_exact_stats_of_huge_float32_entries_are_the_engines_not_null():
    # float32 sums of entries past ~1e19 overflow: the exact statistics are taken in float64
    for a in (numpy.random.default_rng(3).normal(scale=1e20, size=2000).astype(numpy.float32),
              numpy.full(2000, 1e37, dtype=numpy.float32)):
        s = to_json(summarize(a, exact=True))
        wide = a.astype(numpy.float64)
        assert s["sampled"] is False
        assert (s["mean"], s["std"]) == (pytest.approx(wide.mean(), rel=1e-6), pytest.approx(wide.std(), rel=1e-6))
