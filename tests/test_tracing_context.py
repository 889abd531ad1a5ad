"""ag.trace() as a context: what it records, when, and what it lets go of."""
from __future__ import annotations

import gc
import linecache
import weakref

import pytest
from trace_checks import events, inputs_of, node, ops, output_of, tensors

import ag_jupyter as ag
from ag_jupyter.autograd import state


def test_nothing_is_recorded_outside_the_block():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    before = (x * 2).sum()
    with ag.trace() as tr:
        y = (x * 3).sum()
    after = (x * 4).sum()
    y.backward()
    after.backward()
    doc = tr.to_dict()
    assert [n["op"] for n in ops(doc)] == ["MulBackward0", "SumBackward0"]
    assert not events(doc, "backward_begin")
    assert state.listener is None
    assert before.grad_fn is not None  # (made outside: not in the document)


def test_exception_closes_the_trace_and_is_marked():
    a, b = ag.ones(2, 3, requires_grad=True), ag.ones(4, 5)
    with pytest.raises(RuntimeError, match="mat1 and mat2 shapes cannot be multiplied"):
        with ag.trace() as tr:
            c = a * 2
            c @ b  # raises
    assert state.listener is None  # the seam is clear again
    doc = tr.to_dict()
    (error,) = events(doc, "error")  # marked once, at the op (not again at the block's end)
    assert error["op"] == "MmBackward0" and error["error_type"] == "RuntimeError"
    assert [i["shape"] for i in error["inputs"]] == [[2, 3], [4, 5]]
    assert "2x3 and 4x5" in error["message"]
    failed = node(doc, error["node"])
    assert failed["origin"] == "error" and failed["error"] == error["message"]
    assert inputs_of(doc, failed["id"])[0] == output_of(doc, ops(doc)[0]["id"])
    assert error["line"]["code"] == "c @ b  # raises"
    with ag.trace() as later:  # a later trace works as usual
        a * 3
    assert len(ops(later.to_dict())) == 1


def test_an_exception_outside_any_op_is_marked_at_its_line():
    with pytest.raises(ZeroDivisionError):
        with ag.trace() as tr:
            x = ag.tensor(1.0, requires_grad=True)
            x * 2  # noqa: B018 - recorded, then the block raises
            1 / 0  # noqa: B018 - the block raises here
    (error,) = events(tr.to_dict(), "error")
    assert error["error_type"] == "ZeroDivisionError" and "node" not in error
    assert error["line"]["code"].startswith("1 / 0")
    assert state.listener is None


def test_nested_traces_restore_and_forward():
    x = ag.tensor(2.0, requires_grad=True)
    with ag.trace() as outer:
        y = x * 3
        with ag.trace() as inner:
            z = y.exp()
            assert state.listener is inner.recorder
        assert state.listener is outer.recorder
        z.backward()
    assert state.listener is None
    inner_doc, outer_doc = inner.to_dict(), outer.to_dict()
    assert [n["op"] for n in ops(inner_doc)] == ["ExpBackward0"]
    assert [n["op"] for n in ops(outer_doc)] == ["MulBackward0", "ExpBackward0"]
    assert len(events(outer_doc, "backward_step")) == 2 and not events(inner_doc, "backward_step")
    (seen,) = [n for n in tensors(inner_doc) if n["origin"] == "seen"]  # y, made before the inner block
    assert seen["value"]["values"] == [6.0]


def test_a_trace_cannot_be_entered_twice_at_once():
    tr = ag.trace()
    with tr:
        with pytest.raises(RuntimeError, match="already recording"):
            tr.__enter__()
    assert state.listener is None
    with tr:  # entered again later, it records more
        ag.tensor(1.0, requires_grad=True)
    assert len(tr.to_dict()["nodes"]) == 1


def test_the_trace_keeps_no_tensor_alive():
    with ag.trace() as tr:
        x = ag.randn(100, 100, requires_grad=True)
        y = (x * 2).tanh()
        loss = y.sum()
        loss.backward()
    refs = [weakref.ref(t) for t in (x, y, loss)] + [weakref.ref(y._data), weakref.ref(y.grad_fn)]
    del x, y, loss
    gc.collect()
    assert all(r() is None for r in refs)
    doc = tr.to_dict()  # the document is still complete
    assert len(ops(doc)) == 3 and node(doc, "t0")["value"]["shape"] == [100, 100]


def test_a_long_trace_keeps_tuples_that_the_collector_lets_go_not_a_list_per_op():
    # Kept lists stay tracked and made every op count towards a collection: a traced chain
    # of 500 ops paid twice the collections (docs/trace-document.md, Costs).
    x = ag.tensor([0.5] * 100, requires_grad=True)
    gc.collect()
    before = {id(o) for o in gc.get_objects()}
    with ag.trace() as tr:
        y = x
        for _ in range(100):
            y = (y * 0.5 + 1.0).tanh()
        y.sum().backward()
    gc.collect()  # let go what holds only ids and numbers
    kept = [o for o in gc.get_objects() if id(o) not in before]
    lists = [o for o in kept if type(o) is list]
    assert len(lists) < 20, f"{len(lists)} lists kept for 300 ops"  # the journal's, the records'...
    assert len(ops(tr.to_dict())) == 301


def test_retained_grad_is_an_accumulate_event():
    with ag.trace() as tr:
        x = ag.tensor([1.0, 2.0], requires_grad=True)
        h = x * 3
        h.retain_grad()
        (h * h).sum().backward()
    doc = tr.to_dict()
    h_id = output_of(doc, ops(doc)[0]["id"])
    retained = [e for e in events(doc, "accumulate") if e.get("retained")]
    assert [e["node"] for e in retained] == [h_id]
    assert retained[0]["grad"]["values"] == pytest.approx([6.0, 12.0])
    assert node(doc, h_id)["grad"]["values"] == pytest.approx([6.0, 12.0])


def test_custom_function_node():
    class Cube(ag.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x ** 2

    with ag.trace() as tr:
        x = ag.tensor(2.0, requires_grad=True)
        Cube.apply(x).backward()
    doc = tr.to_dict()
    (cube,) = ops(doc)
    assert cube["op"] == "CubeBackward" and cube["symbol"] == "Cube"
    assert "Cube.backward" in cube["formula"] and cube["saved"] == [{"node": "t0", "arg": 0}]
    assert events(doc, "accumulate")[0]["grad"]["values"] == [12.0]


def test_create_graph_records_the_backward_ops_in_the_same_pass():
    with ag.trace() as tr:
        x = ag.tensor(3.0, requires_grad=True)
        y = x ** 3
        (dx,) = ag.autograd.grad(y, x, create_graph=True)
        dx.backward()
    doc = tr.to_dict()
    assert dx.item() == 27.0 and x.grad.item() == 18.0
    begins = [i for i, e in enumerate(doc["events"]) if e["type"] == "backward_begin"]
    creates_inside = [e for e in doc["events"][begins[0]:] if e["type"] == "create"]
    assert creates_inside  # the first backward built a graph of its own
    assert len(doc["passes"]) == 1  # ...which belongs to the same pass


def test_backward_of_a_graph_built_before_the_trace():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).exp()
    loss = y.sum()
    with ag.trace() as tr:
        loss.backward()
    doc = tr.to_dict()
    assert [n["op"] for n in ops(doc)] == ["MulBackward0", "ExpBackward0", "SumBackward0"]
    assert {n["origin"] for n in doc["nodes"]} == {"walked", "seen"}
    assert [e["node"] for e in events(doc, "backward_step")] == [n["id"] for n in reversed(ops(doc))]
    exp_out = node(doc, output_of(doc, ops(doc)[1]["id"]))
    assert exp_out["shape"] == [2]  # Exp keeps its output: its value is known
    mul_out = node(doc, output_of(doc, ops(doc)[0]["id"]))
    assert mul_out["shape"] is None  # Mul does not: unknown


def test_requires_grad_set_later_makes_a_parameter():
    with ag.trace() as tr:
        w = ag.zeros(3)
        w.requires_grad_()
        (w * 2).sum().backward()
    doc = tr.to_dict()
    (p,) = doc["passes"]
    assert node(doc, "t0")["requires_grad"] and p["params_used"] == ["t0"]


def test_a_tracer_fault_does_not_break_the_program(monkeypatch):
    from ag_jupyter.tracing import recorder

    def broken(*args, **kwargs):
        raise ValueError("boom")

    monkeypatch.setattr(recorder, "user_line", broken)  # every op asks for its line
    with ag.trace() as tr:
        x = ag.tensor(2.0, requires_grad=True)
        (x * 2).backward()
    assert x.grad.item() == 2.0
    assert any("boom" in w for w in tr.to_dict()["warnings"])


def test_reading_the_trace_while_it_records_changes_nothing_in_its_document():
    """The recorder writes records down as a journal and makes the document's dicts when
    they are read (journal.py): reading early (node_count, labels, repr) must give the
    same document as reading once at the end."""
    def run(peek):
        ag.manual_seed(0)
        with ag.trace() as tr:
            w = ag.randn(3, 2, requires_grad=True)
            peek(tr)
            h = (ag.randn(4, 3) @ w).tanh()
            peek(tr)
            loss = (h * h).sum() + w.sum()
            peek(tr)
            loss.backward()
            peek(tr)
            with pytest.raises(RuntimeError):
                h @ h  # an op that fails is recorded too
            peek(tr)
        return tr.to_dict()

    def everything(tr):
        repr(tr)
        tr.set_label("t0", "w")
        assert tr.node_count == len(tr.recorder.nodes)

    quiet = run(lambda tr: None)
    quiet_labelled = run(lambda tr: tr.set_label("t0", "w"))
    assert run(everything) == quiet_labelled
    assert quiet_labelled["nodes"][0]["label"] == "w"
    assert {k: v for k, v in quiet.items() if k != "nodes"} == \
        {k: v for k, v in quiet_labelled.items() if k != "nodes"}


def test_each_node_has_the_line_that_made_it_even_in_a_long_cell():
    # A line is kept as (code, instruction offset) and numbered when the document is built.
    source = "x = ag.tensor([1.0, 2.0], requires_grad=True)\n" + "".join(
        f"y{k} = x * {k}.5  # op {k}\n" for k in range(300)) + "loss = (y0 + y299).sum()\nloss.backward()\n"
    linecache.cache["<long cell>"] = (len(source), None, source.splitlines(True), "<long cell>")  # as IPython does
    try:
        with ag.trace() as tr:
            exec(compile(source, "<long cell>", "exec"), {"ag": ag})
        doc = tr.to_dict()
    finally:
        del linecache.cache["<long cell>"]
    muls = [n for n in ops(doc) if n["op"] == "MulBackward0"]
    assert [(m["line"]["lineno"], m["line"]["code"]) for m in muls[:2] + muls[-1:]] == [
        (2, "y0 = x * 0.5  # op 0"), (3, "y1 = x * 1.5  # op 1"), (301, "y299 = x * 299.5  # op 299")]
    assert {m["line"]["file"] for m in muls} == {"<long cell>"}
    assert node(doc, "t0")["line"]["lineno"] == 1
    assert [n["line"]["lineno"] for n in ops(doc) if n["op"] == "AddBackward0"] == [302]


def test_ran_backward_from_names_only_the_roots_of_recorded_passes():
    with ag.trace() as tr:
        x = ag.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        loss = y.sum()
        other = (x * 2).sum()
        loss.backward()
    stranger = (x * 5).sum()
    assert tr.ran_backward_from(loss)
    assert not tr.ran_backward_from(other) and not tr.ran_backward_from(y) and not tr.ran_backward_from(stranger)


def test_a_document_stays_as_built_when_its_trace_records_more():
    """``to_dict`` finishes summaries in the records and shares their inner lists (a step's
    ``grad_inputs``, an op's ``saved``) with the document: what the trace records later
    (more ops, a second backward into the same leaf, a label) must not reach a document
    already built, and building again gives the same document."""
    import json
    x = ag.tensor([0.5, -1.0, 2.0], requires_grad=True)
    tr = ag.trace()
    with tr:
        (x * x).tanh().sum().backward()
    first = tr.to_dict()
    as_built = json.dumps(first, sort_keys=True)
    assert json.dumps(tr.to_dict(), sort_keys=True) == as_built
    with tr:
        (x.exp() * 3).sum().backward()
    tr.recorder.name_node("t0", "x")
    second = tr.to_dict()
    assert json.dumps(first, sort_keys=True) == as_built
    assert len(second["nodes"]) > len(first["nodes"]) and len(second["passes"]) == 2
    steps = [e for e in second["events"] if e["type"] == "backward_step"]
    assert steps[0]["grad_inputs"] == [e for e in first["events"] if e["type"] == "backward_step"][0]["grad_inputs"]
