"""Summaries finished together (tracing/summary_batch.py) are the summaries finished alone,
number for number: the whole document is compared, built from the same run both ways."""
import json

import pytest

import ag_jupyter as ag
from ag_jupyter.tracing import document, summary_batch


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
    finished = summary_batch._finished
    monkeypatch.setattr(summary_batch, "_finished", lambda *a: batched.append(len(a[0])) or finished(*a))
    assert _document(work, True, monkeypatch) == _document(work, False, monkeypatch)
    assert sum(batched) >= 20  # the batch did finish summaries: the comparison compared something
