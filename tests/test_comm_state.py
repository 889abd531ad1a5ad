"""The widget's state goes to the front end without ipywidgets' buffer search walking the
document (widgets/comm_state.py), its float values as binary parts (widgets/wire_values.py):
what ``open`` and ``send_state`` hand the comm, packed as the kernel packs it, with those
parts put back, is the plain document, number for number and bit for bit."""
import json

import ipywidgets.widgets.widget as ipywidget
import pytest
from jupyter_client.session import json_packer

import ag_jupyter as ag
from ag_jupyter.widgets.comm_state import PassedList
from ag_jupyter.widgets.show import build_widget
from ag_jupyter.widgets.wire_values import unpacked


def _document() -> dict:
    with ag.trace() as tr:
        x = ag.tensor([1.0, -2.0, 3.0], requires_grad=True)
        y = (x * 2).tanh().sum()
        y.backward()
    tr.set_label(tr.node_id(x), "x")
    return tr.to_dict()


class _Comm:
    def __init__(self, sent: list, **args):
        sent.append(args)
        self.comm_id = "c0"

    def on_msg(self, callback):
        pass

    def send(self, data=None, metadata=None, buffers=None):
        self.sent.append({"data": data, "buffers": buffers})


@pytest.fixture
def sent(monkeypatch):
    messages: list = []

    def create_comm(**args):
        comm = _Comm(messages, **args)
        comm.sent = messages
        return comm

    monkeypatch.setattr(ipywidget.comm, "create_comm", create_comm)
    return messages


def _plain(state: dict) -> dict:
    return {key: {k: list(v) if isinstance(v, PassedList) else v for k, v in value.items()}
            if key == "trace" else value for key, value in state.items()}


def _received(message: dict) -> dict:
    """The trace as the front end gets it: the state's JSON as the kernel writes it, read
    back, with each binary part put at its path, then unpacked."""
    state = json.loads(json_packer({"state": _plain(message["state"])}))["state"]
    parts = {tuple(path): buffer for path, buffer in zip(message["buffer_paths"], message["buffers"])}
    return unpacked(state["trace"], {path[1]: buffer for path, buffer in parts.items() if path[0] == "trace"})


def test_open_sends_the_document_with_its_float_values_as_binary_parts(sent):
    document = _document()
    widget = build_widget(document, animate=False)
    (opened,) = [m for m in sent if "trace" in m.get("data", {}).get("state", {})]
    trace = opened["data"]["state"]["trace"]
    assert isinstance(trace["nodes"], PassedList)  # the buffer search passed it by
    assert opened["data"]["buffer_paths"] == [["trace", "values32"]]
    sent_json = json_packer(_plain(opened["data"]["state"])["trace"]).decode()
    sent_trace = json.loads(sent_json)
    assert sent_trace["summaries"]["at"] and "values32" not in sent_trace  # the part went as binary
    assert any(isinstance(n.get("value"), int) for n in sent_trace["nodes"])  # a summary as its row
    assert _received({**opened["data"], "buffers": opened["buffers"]}) == json.loads(json.dumps(document))
    assert isinstance(widget.get_state()["trace"]["nodes"], list)  # outside a send: plain lists
    assert widget.trace is document  # the widget's own document is not changed by sending it


def test_a_new_document_is_sent_the_same_way(sent):
    widget = build_widget(_document(), animate=False)
    sent.clear()
    other = _document()
    other["title"] = "again"
    widget.trace = other
    (update,) = [m for m in sent
                 if m.get("data", {}).get("method") == "update" and "trace" in m["data"]["state"]]
    assert isinstance(update["data"]["state"]["trace"]["events"], PassedList)
    assert _received({**update["data"], "buffers": update["buffers"]}) == json.loads(json.dumps(other))
    assert widget._sending is False
