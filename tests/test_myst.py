"""widget.to_myst(path): a graph for mystmd's {anywidget} directive (Jupyter Book 2).

The files are checked against the directive's documented form (myst-directives'
``anywidget``: the ES module as its argument, ``:css:`` a stylesheet, a JSON/JSON5 object
as its body). Where the ``myst`` CLI is installed (npm ``mystmd``; ``AG_MYST=path`` points
at it), a real MyST site is built and its page's anywidget node read back.
(The module is drawn in a shadow root, as a MyST page does: tests/browser/test_myst_widget.py.)"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest

pytest.importorskip("anywidget")
from example_graphs import readme_example  # noqa: E402

import ag_jupyter as ag  # noqa: E402
from ag_jupyter.widgets.page import STATIC, page_state  # noqa: E402

DIRECTIVE = re.compile(r"\A:::\{anywidget\} (\S+)\n:css: (\S+)\n(.*)\n:::\n\Z", re.S)


def readme_widget():
    tr, names = readme_example()
    return ag.show(tr, names=names, animate=False)


def test_to_myst_writes_the_directive_and_its_files(tmp_path):
    w = readme_widget()
    md = w.to_myst(tmp_path / "graph.md")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["graph.css", "graph.json", "graph.md", "graph.mjs"]
    esm, css, body = DIRECTIVE.match(md.read_text(encoding="utf-8")).groups()
    assert (esm, css) == ("./graph.mjs", "./graph.css")
    model = json.loads(body)
    assert model == page_state(w) == json.loads((tmp_path / "graph.json").read_text(encoding="utf-8"))
    assert {n["label"]: n["grad"]["values"][0] for n in model["trace"]["nodes"] if "grad" in n} == {
        "a": -3.0, "b": 2.0, "c": pytest.approx(1.3862943611198906), "d": 2.5}
    assert (tmp_path / "graph.mjs").read_text(encoding="utf-8") == (STATIC / "myst.mjs").read_text(encoding="utf-8")
    assert "export{" in (tmp_path / "graph.mjs").read_text(encoding="utf-8").replace(" ", "")[-400:], "an ES module"
    assert "font/woff2;base64," in (tmp_path / "graph.css").read_text(encoding="utf-8"), "KaTeX's fonts travel inline"


def test_to_myst_wants_a_markdown_file(tmp_path):
    with pytest.raises(ValueError, match=r"ending in \.md"):
        readme_widget().to_myst(tmp_path / "graph.html")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        readme_widget().to_myst(tmp_path / "missing" / "graph.md")


def myst_cli():
    return os.environ.get("AG_MYST") or shutil.which("myst")


@pytest.mark.skipif(not myst_cli(), reason="the myst CLI (npm mystmd) is not installed; AG_MYST=path points at one")
def test_a_myst_site_build_carries_the_widget(tmp_path):
    readme_widget().to_myst(tmp_path / "graph.md")
    (tmp_path / "myst.yml").write_text("version: 1\nproject:\n  title: chain rule\nsite:\n  template: book-theme\n")
    (tmp_path / "index.md").write_text("# The chain rule\n\n" + (tmp_path / "graph.md").read_text(encoding="utf-8"))
    (tmp_path / "graph.md").unlink()  # one page: the directive is in index.md
    # --site writes the pages' content first; the theme it then fetches is not needed here (offline)
    subprocess.run([myst_cli(), "build", "--site"], cwd=tmp_path, capture_output=True, timeout=300)
    content = json.loads((tmp_path / "_build" / "site" / "content" / "index.json").read_text(encoding="utf-8"))
    found = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("type") == "anywidget":
                found.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(content["mdast"])
    [node] = found
    public = tmp_path / "_build" / "site" / "public"
    assert (public / node["esm"].lstrip("/")).read_bytes() == (STATIC / "myst.mjs").read_bytes()
    assert (public / node["css"].lstrip("/")).exists()
    assert node["model"]["trace"]["nodes"][0]["label"] == "a" and node["model"]["view"]["step"] == 22
