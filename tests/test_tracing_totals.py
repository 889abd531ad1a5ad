"""Running totals (``chain.RunningTotals``): a tensor that receives gradient along several
paths, or a leaf whose ``.grad`` held a value, shows what it holds after each contribution,
and the last total is the engine's ``.grad``; a traced loop pays for each pass what that
pass recorded, not what the whole trace holds (use counts are kept across passes)."""
from __future__ import annotations

import numpy as np
from trace_checks import events

import ag_jupyter as ag


def _totals(doc: dict, tensor_id: str) -> list:
    """The totals shown for ``tensor_id``, in the order its contributions arrived."""
    found = []
    for event in events(doc, "backward_step"):
        for entry in event["grad_inputs"]:
            if entry["node"] == tensor_id and "total" in entry:
                found.append(entry["total"]["values"])
    return found


def test_a_tensor_used_three_times_shows_each_sum_and_the_last_is_the_engines():
    w = ag.tensor([1.0, -2.0, 0.5], requires_grad=True)
    with ag.trace() as tr:
        h = w * 3.0
        (h * h + h).sum().backward()
    doc = tr.to_dict()
    h_id = tr.node_id(h)
    shown = _totals(doc, h_id)
    assert len(shown) == 2  # the first of three contributions has no total: it would repeat itself
    expected = 2 * h.detach().numpy() + 1  # d/dh of h*h + h
    np.testing.assert_allclose(shown[-1], expected, rtol=1e-6)
    assert _totals(doc, tr.node_id(w)) == []  # one path, no prior .grad: nothing to sum


def test_a_leaf_whose_grad_held_a_value_shows_the_sum_with_it():
    w = ag.tensor([1.0, 2.0], requires_grad=True)
    with ag.trace() as tr:
        (w * 2.0).sum().backward()
        (w * 5.0).sum().backward()  # .grad held [2, 2]: now [7, 7]
    shown = _totals(tr.to_dict(), tr.node_id(w))
    assert shown == [[7.0, 7.0]] and w.grad.tolist() == [7.0, 7.0]


class _CountingDict(dict):
    """A dict that counts the entries it is asked about or walks over."""

    touched = 0

    def get(self, key, default=None):
        self.touched += 1
        return super().get(key, default)

    def __getitem__(self, key):
        self.touched += 1
        return super().__getitem__(key)

    def __setitem__(self, key, value):
        self.touched += 1
        super().__setitem__(key, value)

    def __contains__(self, key):
        self.touched += 1
        return super().__contains__(key)

    def __iter__(self):
        self.touched += len(self)
        return super().__iter__()

    def items(self):
        self.touched += len(self)
        return super().items()

    def keys(self):
        self.touched += len(self)
        return super().keys()

    def values(self):
        self.touched += len(self)
        return super().values()


def test_a_traced_loop_of_fifty_passes_does_the_same_work_in_each():
    """Use counts outlive a pass (a graph kept with ``retain_graph`` is walked again), so a
    pass that looked at every count, or rebuilt the set of summed ids from them, would cost
    more at each pass: quadratic in a traced training loop. Counted here as the entries each
    pass touches and the size of the set, not as time."""
    ag.manual_seed(0)
    w = ag.randn(4, requires_grad=True)
    with ag.trace() as tr:
        totals = tr.recorder._totals
        uses = totals._uses = _CountingDict()
        touched, summed = [], []
        for _ in range(50):
            h = w * ag.randn(4)
            (h * h + h).sum().backward()  # h takes three contributions; w's .grad accumulates
            touched.append(uses.touched)
            uses.touched = 0
            summed.append(len(totals.summed))
    assert len(uses) > 100  # the counts are kept: a pass that walked them would show it below
    assert touched[1:] == [touched[1]] * 49
    # each pass adds one id used by two ops or more (its h), and w joins at pass 2 (one op a
    # pass, counted across passes); w's prior .grad alone would have left with its pass
    assert summed == [1] + [n + 2 for n in range(1, 50)]
    doc = tr.to_dict()
    np.testing.assert_allclose(_totals(doc, tr.node_id(w))[-1], w.grad.numpy(), rtol=1e-6)
