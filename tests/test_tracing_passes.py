"""Passes (several forward/backward rounds in one trace) and module scopes.

ag.nn is written elsewhere; ``Module`` here is a minimal stand-in that talks to the
engine's seam exactly as DESIGN says nn.Module does: on_module_enter(path, module)
and on_module_exit(path, module) around forward, and named_parameters().
"""
from __future__ import annotations

import pytest
from trace_checks import events, node, ops

import ag_jupyter as ag
from ag_jupyter.autograd import state


class Module:
    def __init__(self, path: str):
        self.path = path
        self.params: dict = {}
        self.children: dict = {}

    def named_parameters(self, prefix: str = ""):
        for name, p in self.params.items():
            yield prefix + name, p
        for name, child in self.children.items():
            yield from child.named_parameters(prefix + name + ".")

    def __call__(self, *args):
        listener = state.listener
        if listener is not None:
            listener.on_module_enter(self.path, self)
        try:
            return self.forward(*args)
        finally:
            if listener is not None:
                listener.on_module_exit(self.path, self)


class Linear(Module):
    def __init__(self, path: str, n_in: int, n_out: int):
        super().__init__(path)
        self.params = {"weight": ag.randn(n_in, n_out, requires_grad=True),
                       "bias": ag.zeros(n_out, requires_grad=True)}

    def forward(self, x):
        return x @ self.params["weight"] + self.params["bias"]


class DynamicNet(Module):
    """PyTorch's tutorial net: the middle layer runs a different number of times per call."""

    def __init__(self):
        super().__init__("model")
        self.children = {name: Linear(f"model.{name}", *shape) for name, shape in
                         (("input_linear", (3, 4)), ("middle_linear", (4, 4)), ("output_linear", (4, 1)))}

    def forward(self, x, repeats: int):
        h = self.children["input_linear"](x).relu()
        for _ in range(repeats):
            h = self.children["middle_linear"](h).relu()
        return self.children["output_linear"](h)


def train_dynamic(repeats_per_pass):
    ag.manual_seed(0)
    model = DynamicNet()  # made before the trace, like a model built in an earlier cell
    x, target = ag.randn(5, 3), ag.randn(5, 1)
    with ag.trace() as tr:
        for repeats in repeats_per_pass:
            for _, p in model.named_parameters():
                p.grad = None
            loss = ((model(x, repeats) - target) ** 2).mean()
            loss.backward()
    return tr.to_dict(), model


def test_dynamic_net_three_passes():
    doc, model = train_dynamic([0, 2, 1])
    passes = doc["passes"]
    assert len(passes) == 3 and all(p["backward"] for p in passes)
    label = {n["id"]: n.get("param") for n in doc["nodes"]}
    params = [label[i] for i in passes[0]["params_used"] + passes[0]["params_unused"]]
    assert sorted(params) == sorted(name for name, _ in model.named_parameters())
    middle = {"middle_linear.weight", "middle_linear.bias"}
    assert {label[i] for i in passes[0]["params_unused"]} == middle
    assert {label[i] for i in passes[0]["grad_none"]} == middle
    assert {label[i] for i in passes[0]["params_with_grad"]} == set(params) - middle
    for p in passes[1:]:
        assert p["params_unused"] == [] and p["grad_none"] == [] and len(p["params_with_grad"]) == 6
    # the passes split the events, and each opens with its first forward event
    assert passes[0]["first_event"] == 0 and passes[-1]["last_event"] == len(doc["events"]) - 1
    for before, after in zip(passes, passes[1:]):
        assert after["first_event"] == before["last_event"] + 1
        assert doc["events"][before["last_event"]]["type"] == "backward_end"
    assert {e["pass"] for e in doc["events"][passes[1]["first_event"]:passes[1]["last_event"] + 1]} == {1}
    # the middle layer ran twice in pass 1: two matmuls with the same weight
    mm_in_middle = [n for n in ops(doc) if n.get("scope") == "model.middle_linear" and n["op"] == "MmBackward0"]
    assert len(mm_in_middle) == 3  # 0 + 2 + 1


def test_scopes_and_parameter_labels():
    doc, _ = train_dynamic([1])
    scopes = [n.get("scope") for n in ops(doc)]
    assert scopes[:2] == ["model.input_linear"] * 2  # mm, add
    assert scopes[2] == "model"  # relu runs in the model's own forward
    assert scopes[-1] is None  # the loss, outside any module
    weight = next(n for n in doc["nodes"] if n.get("param") == "input_linear.weight")
    assert weight["label"] == "input_linear.weight" and weight["origin"] == "seen"
    # every parameter got its create event when the model was entered, before any op
    first_op = next(i for i, e in enumerate(doc["events"]) if node(doc, e["node"])["kind"] == "op")
    created_first = {e["node"] for e in doc["events"][:first_op]}
    assert {n["id"] for n in doc["nodes"] if n.get("param")} <= created_first


def test_module_exit_skipped_by_an_exception_unwinds_the_scope():
    class Failing(Module):
        def forward(self, x):
            return x @ ag.ones(7, 7)

    with pytest.raises(RuntimeError):
        with ag.trace() as tr:
            x = ag.ones(2, 3, requires_grad=True)
            try:
                Failing("model.bad")(x)
            finally:
                (x * 2).sum()
    doc = tr.to_dict()
    assert node(doc, events(doc, "error")[0]["node"])["scope"] == "model.bad"
    assert ops(doc)[-1].get("scope") is None  # after the module's exit ran


def test_a_loop_over_batches_is_one_pass_per_batch():
    ag.manual_seed(1)
    w = ag.randn(3, 1, requires_grad=True)
    with ag.trace() as tr:
        for _ in range(3):
            x = ag.randn(4, 3)  # a new batch opens the next pass
            loss = (x @ w).pow(2).mean()
            loss.backward()
            with ag.no_grad():
                w -= 0.1 * w.grad  # not recorded: no grad mode
                w.grad = None
    doc = tr.to_dict()
    assert len(doc["passes"]) == 3
    w_id = doc["passes"][0]["params_used"][0]
    assert all(p["params_used"] == [w_id] == p["params_with_grad"] for p in doc["passes"])
    batch_creates = [e for e in events(doc, "create") if node(doc, e["node"])["origin"] == "leaf"]
    assert [e["pass"] for e in batch_creates] == [0, 1, 2]
    assert len(events(doc, "backward_end")) == 3
