"""Colab: anywidget turns on Colab's custom widget manager by itself when a widget is made
(docs/sharing.md says so, and that no `enable_custom_widget_manager()` line is needed).
Colab is not here: its `google.colab.output` module is stood in for by one that records."""
from __future__ import annotations

import sys
import types

import pytest

anywidget_util = pytest.importorskip("anywidget._util")


def test_a_graph_widget_in_colab_turns_on_the_custom_widget_manager(monkeypatch):
    import ag_jupyter as ag

    calls = []
    output = types.ModuleType("google.colab.output")
    output.enable_custom_widget_manager = lambda: calls.append("enabled")
    output._widgets = types.SimpleNamespace(_installed_url="https://colab.example/manager.js")
    monkeypatch.setitem(sys.modules, "google.colab.output", output)
    anywidget_util.enable_custom_widget_manager_once.cache_clear()
    try:
        widget = ag.show(ag.tensor(2.0, requires_grad=True) * 3, animate=False)
        data, metadata = widget._repr_mimebundle_()
    finally:
        anywidget_util.enable_custom_widget_manager_once.cache_clear()
    assert calls == ["enabled"]
    view = "application/vnd.jupyter.widget-view+json"
    assert metadata[view]["colab"]["custom_widget_manager"]["url"] == "https://colab.example/manager.js"
    assert "image/svg+xml" in data, "the static picture still travels for where widgets cannot run"
