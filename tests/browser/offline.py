"""Open a written page as a reader on a train would: from file://, every http(s) request
refused (and recorded, so a test can assert none was even tried)."""
from __future__ import annotations

from pathlib import Path


class OfflinePage:
    """A Playwright page on ``file://path`` with the network refused; ``requests`` lists
    every non-file URL the page asked for, ``errors`` its page errors and console errors."""

    def __init__(self, chromium, path: Path, color_scheme: str = "light", viewport=(1400, 1000)):
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.context = chromium.new_context(viewport={"width": viewport[0], "height": viewport[1]},
                                            color_scheme=color_scheme, accept_downloads=True)
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.goto(Path(path).resolve().as_uri())

    def _route(self, route) -> None:
        url = route.request.url
        if url.startswith("file:") or url.startswith("data:") or url.startswith("blob:"):
            route.continue_()
        else:
            self.requests.append(url)
            route.abort()

    def close(self) -> None:
        self.context.close()


def badge(widget, node_id: str) -> float:
    """The number a leaf's grad badge shows."""
    return float(widget.locator(f".ag-grad-badge[data-id={node_id}]").text_content())


def node_ids_by_label(widget) -> dict:
    """``{label: node id}`` for the tensors the view labels (``a  []`` -> ``a``)."""
    found = {}
    for node in widget.locator("g.ag-node[data-kind=tensor]").all():
        text = (node.locator(".ag-label").text_content() or "").split()
        if text and not text[0].startswith("["):
            found[text[0]] = node.get_attribute("data-id")
    return found


def background_luminance(page, selector: str) -> float:
    """0 (black) .. 1 (white): the computed background of ``selector``."""
    rgb = page.eval_on_selector(selector, "e => getComputedStyle(e).backgroundColor")
    r, g, b = [float(v) for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255
