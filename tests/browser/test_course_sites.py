"""The course-site recipes of docs/sharing.md, built as a teacher would: a written page in a
book's _static/ embedded by the MyST (and Sphinx) snippet, and in a reveal.js slide by its
snippet. The snippets are read from the docs, so the page says what the test checks: the
graph draws in the frame at the documented size, steps, and ends at the engine's gradients."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ARTIFACTS
from offline import OfflinePage

import ag_jupyter as ag

pytestmark = pytest.mark.browser
DOCS = Path(__file__).resolve().parents[2] / "docs" / "sharing.md"


def snippet(language: str) -> str:
    """The code block of ``language`` in the course-sites section of docs/sharing.md."""
    section = DOCS.read_text(encoding="utf-8").split("## Course sites and slides", 1)[1]
    return re.search(rf"```{language}\n(.*?)```", section, re.S).group(1)


def iframe_of(text: str) -> str:
    return re.search(r"<iframe[^>]*></iframe>", text).group(0)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("book")
    (root / "_static").mkdir()
    a = ag.tensor(2.0, requires_grad=True)
    b = ag.tensor(-3.0, requires_grad=True)
    with ag.trace() as tr:
        e = a * b + ag.log(a)
        e.backward()
    ag.show(tr, names={"a": a, "b": b, "e": e}).write_html(root / "_static" / "graph.html")
    (root / "graph.html").write_bytes((root / "_static" / "graph.html").read_bytes())  # beside the deck
    return root, {"a": a.grad.item(), "b": b.grad.item()}


def check_frame(page, frame_selector: str, size: tuple, grads: dict, shot: str, whole: bool = True) -> None:
    """The frame has the docs' size; the widget fits in it (``whole``), or at least its
    toolbar and graph do and the step panel scrolls into view, as the docs say of slides."""
    frame_el = page.locator(frame_selector)
    box = frame_el.bounding_box()
    assert (round(box["width"]), round(box["height"])) == size, box
    frame = frame_el.content_frame
    frame.locator(".ag-graph g.ag-node").first.wait_for(timeout=30_000)
    part = ".ag-graph" if whole else ".ag-canvas"
    bottom = frame.locator(part).bounding_box()
    # bounding boxes are in the page's coordinates: measure from the frame's top
    assert bottom["y"] + bottom["height"] - box["y"] <= size[1], f"{part} does not fit the frame the docs give it"
    frame.locator("button[data-action=last]").click()
    shown = {}
    for node in frame.locator("g.ag-node[data-kind=tensor]").all():
        label = node.locator(".ag-label").text_content()
        if label in grads:
            badge = frame.locator(f".ag-grad-badge[data-id={node.get_attribute('data-id')}]")
            shown[label] = float(badge.text_content())
    assert shown == pytest.approx(grads, abs=1e-3), shown
    page.screenshot(path=str(ARTIFACTS / shot), full_page=True)


def test_a_book_page_embeds_the_graph_as_the_docs_say(chromium, site):
    root, grads = site
    myst = snippet("md")
    assert myst.startswith(":::{raw} html") and iframe_of(myst) == iframe_of(snippet("rst"))
    (root / "chapter.html").write_text(f"<!doctype html><html><body style='width: 900px'><h1>Chapter 3</h1>"
                                       f"{iframe_of(myst)}</body></html>", encoding="utf-8")
    page = OfflinePage(chromium, root / "chapter.html", viewport=(1000, 900))
    try:
        height = int(re.search(r'height="(\d+)"', iframe_of(myst)).group(1))  # the docs' own number
        check_frame(page.page, "iframe", (900, height), grads, "course-site-book.png")
        assert page.requests == [] and page.errors == []
    finally:
        page.close()


def test_a_reveal_slide_embeds_the_graph_as_the_docs_say(chromium, site):
    root, grads = site
    slide = snippet("html")
    # reveal.js loads a slide's data-src when the slide is shown: do what it does
    shown = slide.replace("data-src=", "src=")
    (root / "deck.html").write_text(f"<!doctype html><html><body style='margin:0'><div class='slides'>{shown}"
                                    f"</div></body></html>", encoding="utf-8")
    page = OfflinePage(chromium, root / "deck.html", viewport=(960, 700))
    try:
        size = tuple(int(v) for v in re.search(r'width="(\d+)" height="(\d+)"', slide).groups())
        check_frame(page.page, "iframe", size, grads, "course-site-slide.png", whole=False)
        assert page.requests == [] and page.errors == []
    finally:
        page.close()
