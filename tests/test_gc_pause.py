"""Building a document pauses the garbage collector and leaves it as it found it."""
import gc

import pytest

import ag_jupyter as ag
from ag_jupyter.tracing.gc_pause import collections_paused


def _trace():
    with ag.trace() as tr:
        (ag.ones(3, requires_grad=True) * 2).sum().backward()
    return tr


def test_the_collector_is_off_while_a_document_is_built_and_on_again_after(monkeypatch):
    from ag_jupyter.tracing import document

    seen = []
    build = document._build
    monkeypatch.setattr(document, "_build", lambda records: seen.append(gc.isenabled()) or build(records))
    assert gc.isenabled()
    assert _trace().to_dict()["nodes"]
    assert seen == [False] and gc.isenabled()


def test_a_collector_that_was_off_stays_off_and_an_error_turns_it_back_on():
    gc.disable()
    try:
        _trace().to_dict()
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(ZeroDivisionError), collections_paused():
        raise ZeroDivisionError
    assert gc.isenabled()


def test_a_traced_cell_runs_with_the_collector_off_and_turns_it_on_again(ip):
    """``%%autograd`` pauses the collector from the cell's first line to its widget, and
    resumes it whether the cell succeeded or raised."""
    pytest.importorskip("anywidget")
    ip.user_ns["_collector_seen"] = seen = []
    assert gc.isenabled()
    good = ip.run_cell("%%autograd\nimport gc\n_collector_seen.append(gc.isenabled())\n"
                       "x = ag.ones(3, requires_grad=True)\n(x * 2).sum().backward()\n")
    assert good.success and gc.isenabled()
    bad = ip.run_cell("%%autograd\nimport gc\n_collector_seen.append(gc.isenabled())\n1 / 0\n")
    assert isinstance(bad.error_in_exec, ZeroDivisionError) and gc.isenabled()
    assert seen == [False, False]
