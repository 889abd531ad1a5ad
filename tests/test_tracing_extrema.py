"""A large tensor's min and max in the document are its own, not its sample's, up to
65,536 entries (a node that read `min -0.7035` where the tensor held -0.8595 said something
untrue); beyond, the summary says they are sampled, and the widget marks them so."""
import numpy
import pytest

from ag_jupyter.tracing.summary import SAMPLE, Large, summarize, to_json
from ag_jupyter.tracing.summary_batch import finish_all


def test_min_and_max_are_exact_where_mean_and_std_are_sampled():
    a = numpy.zeros((200, 201), dtype=numpy.float32)
    a[7, 13], a[199, 199] = -0.8595, 5.25  # off every stride a sample of 1,024 entries takes
    s = to_json(summarize(a))
    assert s["sampled"] is True and s["exact_extrema"] is True and a.size > SAMPLE
    assert (s["min"], s["max"]) == (pytest.approx(-0.8595), 5.25)


def test_past_65536_entries_the_extremes_are_sampled_and_say_so():
    a = numpy.zeros((300, 301), dtype=numpy.float32)
    a[7, 13] = -0.8595
    s = to_json(summarize(a))
    assert s["sampled"] is True and "exact_extrema" not in s and s["min"] == 0.0


def test_with_nan_and_inf_the_extremes_are_the_finite_ones():
    a = numpy.linspace(-1.0, 1.0, 5000)
    a[[3, 4000]] = numpy.nan, numpy.inf
    a[2500] = -7.5
    s = to_json(summarize(a))
    assert (s["nan"], s["inf"], s["min"], s["max"]) == (1, 1, -7.5, 1.0)


def test_a_broadcast_gradient_keeps_its_exact_extremes():
    row = numpy.arange(2000.0)
    s = to_json(summarize(numpy.broadcast_to(row, (3, 2000))))
    assert (s["min"], s["max"]) == (0.0, 1999.0)



def test_many_alike_summaries_finished_together_keep_their_exact_extremes():
    """Summaries of one shape are finished in one batch (summary_batch): the same numbers."""
    arrays = []
    for k in range(12):
        a = numpy.zeros((200, 201), dtype=numpy.float32)
        a[7, 13] = -1.0 - k
        arrays.append(a)
    summaries = [Large(a, exact=False) for a in arrays]
    finish_all(summaries)
    assert [s.to_json()["min"] for s in summaries] == [-1.0 - k for k in range(12)]
    assert all(s.to_json()["exact_extrema"] is True for s in summaries)
