"""A summary's statistics and preview (tracing/statistics.py) are NumPy's numbers, bit for
bit, and the shortcut for arrays without NaN or inf gives the bytes the general path gives."""
import numpy
import pytest

from ag_jupyter.tracing.statistics import preview, sample_stats


def _arrays():
    rng = numpy.random.default_rng(5)
    for shape in [(1,), (7,), (1024,), (32, 32), (17, 9)]:
        for dtype in (numpy.float16, numpy.float32, numpy.float64, numpy.int64):
            yield (rng.normal(3, 2, size=shape) * 1000).astype(dtype)
    yield numpy.full((32, 32), 2.5, numpy.float32)  # hi == lo
    yield numpy.array([1e38, -1e38, 3.0], numpy.float32)  # a range float32 cannot hold


@pytest.mark.parametrize("array", list(_arrays()), ids=lambda a: f"{a.dtype}{list(a.shape)}")
def test_statistics_are_numpys_own(array):
    wide = array.astype(numpy.float64).reshape(-1)
    expected = (wide.min(), wide.max(), wide.mean(), wide.std())
    assert sample_stats(array, True) == expected  # exactly: the same reductions in the same order
    assert sample_stats(array, False) == expected
    with_nan = numpy.append(wide, [numpy.nan, numpy.inf, -numpy.inf])
    assert sample_stats(with_nan, False) == expected


@pytest.mark.parametrize("array", list(_arrays()), ids=lambda a: f"{a.dtype}{list(a.shape)}")
def test_the_finite_shortcut_gives_the_general_paths_preview(array):
    grid = array.reshape(1, -1) if array.ndim == 1 else array
    assert preview(grid, [1, 1], True) == preview(grid, [1, 1], False)


def test_nothing_finite_has_no_statistics():
    assert sample_stats(numpy.array([numpy.nan, numpy.inf]), False) == (None, None, None, None)
    shown = preview(numpy.array([[numpy.nan, numpy.inf, -numpy.inf]]), [1, 1], False)
    assert (shown["lo"], shown["hi"]) == (None, None)
