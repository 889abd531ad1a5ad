"""The page and the static picture on a course site (issue 32): a page is named after
its graph (or the title= given), is readable by a web server running as another user,
and the static picture carries its graph in words (<title>, <desc>) for screen readers.
(The page's fit and its play-when-seen are driven in Chromium: tests/browser/test_a11y.py.)"""
from __future__ import annotations

import html
import os
import re

import pytest

pytest.importorskip("anywidget")
from example_graphs import readme_example  # noqa: E402

import ag_jupyter as ag  # noqa: E402
from ag_jupyter.widgets.page import page_title  # noqa: E402
from ag_jupyter.widgets.static_svg import static_svg  # noqa: E402


def readme_widget():
    tr, names = readme_example()
    return ag.show(tr, names=names, animate=False)


def titles(text: str) -> tuple:
    return (html.unescape(re.search(r"<title>(.*?)</title>", text).group(1)),
            html.unescape(re.search(r"<h1>(.*?)</h1>", text).group(1)))


def test_a_page_is_named_after_its_output_unless_given_a_title(tmp_path):
    w = readme_widget()
    assert w.trace["title"] in {"ag.trace", "ag.show"}, "the tracer's own title, which says nothing on a course page"
    text = w.write_html(tmp_path / "e.html").read_text(encoding="utf-8")
    assert titles(text) == ("Computation graph of e · ag_jupyter", "Computation graph of e")
    text = w.write_html(tmp_path / "e.html", title="Week 3: the chain rule <by hand>").read_text(encoding="utf-8")
    assert titles(text) == ("Week 3: the chain rule <by hand> · ag_jupyter", "Week 3: the chain rule <by hand>")
    with pytest.raises(TypeError, match="title"):
        w.write_html(tmp_path / "e.html", title=3)


def test_a_title_someone_chose_is_kept():
    assert page_title({"title": "my net", "nodes": [], "events": []}) == "my net"
    assert page_title({"title": "ag.trace", "nodes": [], "events": []}) == "Computation graph"


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_the_page_gets_the_mode_any_new_file_gets(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        path = readme_widget().write_html(tmp_path / "e.html")
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == mode


def test_the_static_picture_says_the_graph_in_words():
    w = readme_widget()
    svg = static_svg(w.trace)
    assert 'role="img"' in svg.split(">", 1)[0]
    title = html.unescape(re.search(r"<title>(.*?)</title>", svg).group(1))
    desc = html.unescape(re.search(r"<desc>(.*?)</desc>", svg).group(1))
    assert title.endswith("computation graph of e")
    grads = {n["label"]: n["grad"]["values"][0] for n in w.trace["nodes"] if n.get("label") in set("abcd")}
    assert grads == pytest.approx({"a": -3.0, "b": 2.0, "c": 1.3862943611198906, "d": 2.5})
    assert "computation graph, 8 tensors and 4 ops." in desc
    assert "a = 2 with gradient −3, b = −3 with gradient 2, c = 10 with gradient 1.386, d = 4 with gradient 2.5" in desc
    assert desc.endswith("Output: e = 7.863.")
    # the first thing in the picture, so it is the picture's accessible name
    assert svg.index("<title>") < svg.index("<rect")
