"""%%autograd and %autograd_show, driven through IPython's test shell (globalipapp)."""
from __future__ import annotations

import numpy
import pytest

pytest.importorskip("anywidget")
from example_graphs import README_FORWARD  # noqa: E402
from IPython.core.error import UsageError  # noqa: E402
from IPython.utils.capture import capture_output  # noqa: E402
from trace_checks import events

import ag_jupyter as ag  # noqa: E402
from ag_jupyter.autograd import state  # noqa: E402
from ag_jupyter.widgets import GraphWidget  # noqa: E402

E_CELL = README_FORWARD  # the README's cell without its backward line
MODEL_CELL = """\
class TwoLayer(ag.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc_1 = ag.nn.Linear(3, 4)
        self.fc_2 = ag.nn.Linear(4, 1)

    def forward(self, x):
        return self.fc_2(self.fc_1(x).relu())

model = TwoLayer()
other = TwoLayer()
inputs = ag.randn(5, 3)
loss = (model(inputs) - other(inputs)).pow(2).mean()
"""


def run(ip, cell: str, expect_error: type | None = None):
    """Run a cell; return its result, checking the cell failed (or not) as expected."""
    result = ip.run_cell(cell, store_history=True)
    if expect_error is None:
        assert result.success, result.error_in_exec or result.error_before_exec
    else:
        error = result.error_in_exec or result.error_before_exec
        assert isinstance(error, expect_error), error
    assert state.listener is None  # no trace left active, whatever happened
    return result


def labels(widget) -> dict:
    return {n["label"]: n for n in widget.trace["nodes"] if "label" in n}


def test_cell_result_is_the_widget_labelled_after_the_cells_variables(ip):
    result = run(ip, "%%autograd\n" + E_CELL + "e.backward()\n")
    widget = result.result
    assert isinstance(widget, GraphWidget) and ip.user_ns["_"] is widget
    assert set(labels(widget)) == {"a", "b", "c", "d", "e"}
    assert labels(widget)["a"]["grad"]["values"] == [-3.0] and ip.user_ns["a"].grad.item() == -3.0
    assert widget.source == E_CELL + "e.backward()\n" and widget.trace["title"].startswith("a = ag.tensor")
    assert widget.step == 0 and widget.playing and widget.animate  # it builds itself
    line = labels(widget)["e"]["line"]
    assert line["lineno"] == 5 and line["code"] == "e = a * b + ag.log(d) * c"


def test_module_parameters_and_root_scopes_take_the_users_names(ip):
    widget = run(ip, "%%autograd --backward loss\n" + MODEL_CELL).result
    found = labels(widget)
    assert {"fc_1.weight", "fc_1.bias", "fc_2.weight", "fc_2.bias", "loss"} <= set(found)
    scopes = {n.get("scope") for n in widget.trace["nodes"]} - {None}
    assert {"model.fc_1", "model.fc_2", "other.fc_1", "other.fc_2"} <= scopes
    assert not any(s.startswith("TwoLayer") for s in scopes)
    assert ip.user_ns["model"].fc_1.weight.grad is not None  # --backward ran it


def test_backward_option_runs_inside_the_trace_and_output_stores_the_trace(ip):
    widget = run(ip, "%%autograd --backward e -o tr_e\n" + E_CELL).result
    tr = ip.user_ns["tr_e"]
    assert isinstance(tr, ag.trace) and not tr.active
    doc = tr.to_dict()
    assert events(doc, "backward_end")[0]["completed"] and doc["nodes"] == widget.trace["nodes"]


def test_view_options(ip):
    widget = run(ip, "%%autograd --no-animate --direction tb --speed 2.5 --max-nodes 7\n" + E_CELL).result
    assert (widget.direction, widget.speed, widget.max_nodes) == ("TB", 2.5, 7)
    assert not widget.animate and not widget.playing and widget.step == widget.total
    assert not widget.predict and widget.predictions == {}
    assert run(ip, "%%autograd --predict\n" + E_CELL).result.predict


@pytest.mark.parametrize("line, message", [
    ("--direction XY", "LR or TB"),
    ("--speed 0", "must be a finite number > 0"),
    ("--speed inf", "--speed is events per second and must be a finite number > 0, not inf (try 4)"),
    ("--speed nan", "must be a finite number > 0"),
    ("--speed fast", "invalid float"),
    ("--max-nodes -1", ">= 0"),
    ("--colour red", "unrecognized arguments"),
    ("--backward nothing_here", "NameError"),
    ("--backward a_number", "that is a int, not a tensor"),
    ("-o 2x", "variable name"),
    ("-o class", "-o takes a variable name, not 'class'"),
    ("--live --predict", "cannot be combined with --live"),
])
def test_bad_options_raise_usage_error(ip, line, message):
    ip.user_ns["a_number"] = 3
    ip.user_ns.pop("q", None)
    with capture_output() as captured:
        run(ip, f"%%autograd {line}\nq = ag.tensor(1.0, requires_grad=True) * 2\n", UsageError)
    assert message in captured.stdout + captured.stderr
    if not line.startswith("--backward"):  # refused before the cell ran
        assert "q" not in ip.user_ns


def test_help_documents_the_options(ip):
    with capture_output() as captured:
        run(ip, "%%autograd?")
    text = captured.stdout
    for option in ("--backward NAME", "--live", "--predict", "--no-animate", "--direction", "--speed", "--max-nodes",
                   "-o NAME", "--engine", "Run the cell under"):
        assert option in text, option


def test_a_raising_cell_shows_the_partial_graph_marks_the_error_and_fails(ip):
    cell = "%%autograd -o tr_bad\nx = ag.tensor([1.0, 2.0], requires_grad=True)\ny = (x * 2).sum()\n" \
           "z = x @ ag.ones(3)\nnever = 1\n"
    with capture_output() as captured:
        run(ip, cell, RuntimeError)
    assert "never" not in ip.user_ns
    shown = [o.data for o in captured.outputs]
    assert len(shown) == 1 and "application/vnd.jupyter.widget-view+json" in shown[0]
    assert "image/svg+xml" in shown[0]  # the partial graph, also for a saved notebook
    assert "shapes cannot be multiplied" in captured.stdout  # then the normal traceback
    assert "----> 3 z = x @ ag.ones(3)" in captured.stdout  # pointing at the cell's own line
    doc = ip.user_ns["tr_bad"].to_dict()
    (error,) = events(doc, "error")  # once: at the op that raised, not again for the cell
    assert (error["op"], error["error_type"], error["line"]["lineno"]) == ("MmBackward0", "RuntimeError", 3)
    failed = next(n for n in doc["nodes"] if n["id"] == error["node"])
    assert failed["origin"] == "error" and "shapes cannot be multiplied" in failed["error"]


def test_a_cell_raising_outside_an_op_is_marked_too(ip):
    with capture_output():
        run(ip, "%%autograd -o tr_name\nw = ag.tensor(1.0, requires_grad=True) * 3\nundefined_name\n", NameError)
    error = events(ip.user_ns["tr_name"].to_dict(), "error")[0]
    assert error["error_type"] == "NameError" and error["line"]["lineno"] == 2


def test_live_cell_steps_the_real_backward(ip):
    widget = run(ip, "%%autograd --live\n" + E_CELL).result
    a = ip.user_ns["a"]
    assert widget.live and a.grad is None and widget.step == widget.total
    widget._handle_msg({"content": {"data": {"method": "custom", "content": {"type": "advance"}}},
                        "buffers": []})
    assert events(widget.trace, "backward_step") and a.grad is None  # AddBackward0 only
    while widget.advance():
        pass
    assert a.grad.item() == -3.0 and labels(widget)["a"]["grad"]["values"] == [-3.0]


def test_live_takes_over_the_cells_own_backward_call(ip):
    # a learner pastes a plain cell under %%autograd --live: its last line is stepped, not run
    widget = run(ip, "%%autograd --live\n" + E_CELL + "e.backward()\n").result
    a = ip.user_ns["a"]
    assert widget.live and a.grad is None and not events(widget.trace, "backward_begin")
    while widget.advance():
        pass
    assert a.grad.item() == -3.0 and events(widget.trace, "backward_end")[0]["completed"]
    # an expression works too: the sum is part of the learner's graph
    cell = "%%autograd --live\nq = ag.tensor([1.0, 2.0], requires_grad=True)\n(q * 3).sum().backward()\n"
    widget = run(ip, cell).result
    assert ip.user_ns["q"].grad is None
    widget.advance_all()
    assert ip.user_ns["q"].grad.tolist() == [3.0, 3.0]


@pytest.mark.parametrize("cell, message", [
    (E_CELL + "e.backward()\nf = e * 2\n", "on line 6"),
    (E_CELL + "e.backward(retain_graph=True)\n", "only without arguments"),
    ("def helper(t):\n    t.backward()\n" + E_CELL, "on line 2"),
])
def test_live_refuses_other_backward_calls_before_running_anything(ip, cell, message):
    ip.user_ns.pop("a", None)
    with capture_output() as captured:
        run(ip, "%%autograd --live\n" + cell, UsageError)
    assert message in captured.stdout + captured.stderr and "a" not in ip.user_ns  # nothing ran


def test_live_refuses_a_backward_run_out_of_sight_and_says_so(ip):
    # a helper from an earlier cell runs backward: no line of this cell shows it, the trace does
    run(ip, "def finish(t):\n    t.backward()\n")
    with capture_output() as captured:
        run(ip, "%%autograd --live\n" + E_CELL + "finish(e)\n", UsageError)
    assert "already ran it (a .backward() inside a function the cell calls)" in captured.stdout + captured.stderr


def test_live_refuses_a_backward_named_twice(ip):
    with capture_output() as captured:
        run(ip, "%%autograd --live --backward a\n" + E_CELL + "e.backward()\n", UsageError)
    assert "keep one of them" in captured.stdout + captured.stderr


def test_live_refuses_a_tensor_that_is_not_a_scalar(ip):
    with capture_output() as captured:
        run(ip, "%%autograd --live\nv = ag.tensor([1.0, 2.0], requires_grad=True)\nw = v * 2\n", UsageError)
    text = captured.stdout + captured.stderr
    assert "w has shape [2]" in text and "w.sum()" in text


def test_a_syntax_error_is_reported_before_anything_runs(ip):
    with capture_output() as captured:
        run(ip, "%%autograd\nsyntax_probe = 1\nx = (\n", SyntaxError)
    assert "syntax_probe" not in ip.user_ns and not captured.outputs  # no graph for code that never ran


def test_last_expression_is_shown_like_in_a_plain_cell(ip):
    with capture_output() as captured:
        run(ip, "%%autograd\nk = ag.tensor(2.0, requires_grad=True)\nk * 3\n")
    assert "tensor(6., grad_fn=<MulBackward0>)" in captured.outputs[0].data["text/plain"]


def test_autograd_show_an_existing_tensor(ip):
    run(ip, E_CELL)
    widget = run(ip, "%autograd_show e").result
    assert set(labels(widget)) == {"a", "b", "c", "d", "e"} and widget.source == widget.trace["title"] == "e"
    widget = run(ip, "%autograd_show --no-animate --direction TB a * b").result
    assert widget.direction == "TB" and widget.step == widget.total
    with capture_output():
        run(ip, "%autograd_show not_defined_anywhere", UsageError)
        run(ip, "%autograd_show 3", UsageError)


def test_autograd_show_live(ip):
    run(ip, E_CELL)
    widget = run(ip, "%autograd_show --live e").result
    while widget.advance():
        pass
    assert ip.user_ns["d"].grad.item() == 2.5


def test_autograd_show_a_pytorch_tensor(ip, torch):
    ip.user_ns["torch"] = torch
    run(ip, "tx = torch.tensor([1.0, 2.0], requires_grad=True)\nlin = torch.nn.Linear(2, 1)\n"
            "ty = lin(tx * 3).sum()\n")
    widget = run(ip, "%autograd_show ty").result
    assert widget.trace["source"] == "torch"
    assert {"tx", "weight", "bias", "ty"} == set(labels(widget))


def test_results_match_a_plain_backward(ip):
    run(ip, "%%autograd --backward loss2\nag.manual_seed(1)\nw2 = ag.randn(3, requires_grad=True)\n"
            "loss2 = (w2.tanh() * w2).sum()\n")
    got = ip.user_ns["w2"].grad.numpy().copy()
    ag.manual_seed(1)
    w2 = ag.randn(3, requires_grad=True)
    (w2.tanh() * w2).sum().backward()
    numpy.testing.assert_array_equal(got, w2.grad.numpy())
