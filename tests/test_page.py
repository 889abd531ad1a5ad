"""widget.write_html(path) and %%autograd --html: one self-contained page per graph.
(The page is driven in Chromium by tests/browser/test_page_offline.py.)"""
from __future__ import annotations

import json
import os
import re

import pytest

pytest.importorskip("anywidget")
from example_graphs import README_CELL, readme_example  # noqa: E402
from IPython.core.error import UsageError  # noqa: E402

import ag_jupyter as ag  # noqa: E402
from ag_jupyter.widgets import page  # noqa: E402

DATA = re.compile(r'<script type="application/json" class="ag-graph-data">(.*?)</script>', re.S)

def e_widget(**view):
    tr, names = readme_example()
    return ag.show(tr, names=names, **view)


def graph_data(text: str) -> list:
    return [json.loads(block) for block in DATA.findall(text)]


def test_the_page_carries_everything_inline(tmp_path):
    w = e_widget(animate=False)
    written = w.write_html(tmp_path / "e.html")  # its speed: benchmarks/bench_page.py
    text = written.read_text(encoding="utf-8")
    assert written.stat().st_size <= 2_000_000, written.stat().st_size
    [state] = graph_data(text)
    assert state["trace"] == w.trace and state["view"]["step"] == w.total and state["note"] == ""
    assert {n["label"] for n in state["trace"]["nodes"] if "label" in n} == set("abcde")
    # nothing is fetched: no external script, stylesheet, font or image in the markup
    markup = re.sub(r"<(script|style)([^>]*)>.*?</\1>", r"<\1\2></\1>", text, flags=re.S)
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", markup), markup
    assert "@import" not in text and "url(http" not in text.replace(" ", "")
    assert "font/woff2;base64," in text  # KaTeX's fonts travel with the page
    assert text.count('class="ag-page-graph"') == 1
    assert os.listdir(tmp_path) == ["e.html"], "no temporary file left behind"


def test_labels_cannot_close_the_script_or_open_markup(tmp_path):
    hostile = "</script><img src=x onerror=alert(1)><!--&amp;"
    with ag.trace() as tr:
        x = ag.tensor(1.0, requires_grad=True)
        (x * 2).backward()
    tr.set_label(tr.node_id(x), hostile)
    text = ag.show(tr, title=hostile).write_html(tmp_path / "x.html").read_text()
    assert hostile not in text and "<img src=x" not in text
    [state] = graph_data(text)
    assert state["trace"]["nodes"][0]["label"] == hostile  # JSON.parse gives it back exactly
    assert "<title>&lt;/script&gt;&lt;img" in text


def test_a_live_widget_writes_its_recorded_steps_and_says_stepping_needs_a_kernel(tmp_path):
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    w = ag.show(loss, live=True)
    w.advance()
    [state] = graph_data(w.write_html(tmp_path / "live.html").read_text())
    assert "live" not in state["view"] and state["view"]["playing"] is False
    assert f"{w.total} steps" in state["note"] and "needs a kernel" in state["note"]


@pytest.mark.parametrize("path, error, words", [
    ("{tmp}/no/such/folder/g.html", FileNotFoundError, "the folder '{tmp}/no/such/folder' does not exist"),
    ("{tmp}", IsADirectoryError, "'{tmp}': it is a folder"),
    ("", ValueError, "needs a file name"),
])
def test_a_bad_path_is_a_clear_error_naming_it(tmp_path, path, error, words):
    w = e_widget()
    with pytest.raises(error, match=re.escape(words.format(tmp=tmp_path))):
        w.write_html(path.format(tmp=tmp_path))
    with pytest.raises(TypeError, match="takes a file path"):
        w.write_html(42)
    assert os.listdir(tmp_path) == []


def test_a_failed_write_leaves_the_old_page_and_no_half_page(tmp_path, monkeypatch):
    target = tmp_path / "g.html"
    target.write_text("the old page")

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(page.os, "replace", refuse)
    with pytest.raises(PermissionError, match=f"cannot write the page to '{target}': Permission denied"):
        e_widget().write_html(target)
    assert target.read_text() == "the old page" and os.listdir(tmp_path) == ["g.html"]


def test_autograd_html_writes_the_cells_page(ip, tmp_path):
    target = tmp_path / "cell.html"
    result = ip.run_cell(f"%%autograd --html {target}\n{README_CELL}", store_history=True)
    assert result.success, result.error_in_exec
    [state] = graph_data(target.read_text())
    assert state["trace"] == result.result.trace
    assert {"a", "b", "c", "d", "e"} <= {n.get("label") for n in state["trace"]["nodes"]}
    shown = ip.run_cell(f"%autograd_show --html {tmp_path / 'shown.html'} e", store_history=True)
    assert shown.success and graph_data((tmp_path / "shown.html").read_text())


def test_autograd_html_with_a_bad_path_fails_before_the_cell_runs(ip, tmp_path):
    ip.user_ns.pop("ran", None)
    result = ip.run_cell(f"%%autograd --html {tmp_path}/missing/x.html\nran = True", store_history=True)
    assert isinstance(result.error_in_exec, UsageError)
    assert "--html: cannot write the page to" in str(result.error_in_exec) and "missing" in str(result.error_in_exec)
    assert "ran" not in ip.user_ns
