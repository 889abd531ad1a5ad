"""The widget's state goes to the front end as the same JSON when ipywidgets' buffer search
passes the document by (widgets/comm_state.py): what ``open`` and ``send_state`` hand the
comm, packed as the kernel packs it, is the plain document's JSON, byte for byte."""
import ipywidgets.widgets.widget as ipywidget
import pytest
from jupyter_client.session import json_packer

import ag_jupyter as ag
from ag_jupyter.widgets.comm_state import PassedList
from ag_jupyter.widgets.show import build_widget


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


def test_open_sends_the_document_as_plain_json(sent):
    document = _document()
    widget = build_widget(document, animate=False)
    (opened,) = [m["data"] for m in sent if "trace" in m.get("data", {}).get("state", {})]
    assert isinstance(opened["state"]["trace"]["nodes"], PassedList)  # the buffer search passed it by
    assert opened["buffer_paths"] == []
    plain = {"state": _plain(opened["state"]), "buffer_paths": []}
    assert json_packer(opened) == json_packer(plain)
    assert plain["state"]["trace"] == document
    assert isinstance(widget.get_state()["trace"]["nodes"], list)  # outside a send: plain lists


def test_a_new_document_is_sent_as_plain_json(sent):
    widget = build_widget(_document(), animate=False)
    sent.clear()
    other = _document()
    other["title"] = "again"
    widget.trace = other
    (update,) = [m["data"] for m in sent
                 if m.get("data", {}).get("method") == "update" and "trace" in m["data"]["state"]]
    assert isinstance(update["state"]["trace"]["events"], PassedList)
    assert json_packer(update["state"]["trace"]) == json_packer(other)
    assert widget._sending is False
