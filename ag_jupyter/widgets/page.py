"""A graph as one self-contained HTML page: ``widget.write_html(path)``.

The page carries the widget's own render code (``static/page.js``: ``js/src/app/index.js``
driven by an in-page model, ``js/src/app/page.js``), its styles and KaTeX's fonts, and the
trace document with the view state, all inline: it makes no network request, so it
works from ``file://`` and from any static host. Replay works as in a notebook; live
stepping needs a kernel, so a live widget's page holds the steps recorded so far and
says so.

The same pieces build the ``ag_html`` nbconvert exporter's pages (``export/``):
``page_assets()`` once per page, ``graph_markup()`` once per graph.

>>> import ag_jupyter as ag
>>> x = ag.tensor(2.0, requires_grad=True)
>>> state = page_state(ag.show(x * 3, animate=False))
>>> sorted(state), state["view"]["step"] == len(state["trace"]["events"])
(['note', 'trace', 'view'], True)
>>> script_json({"label": "</script><b>"})
'{"label":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e"}'
"""
from __future__ import annotations

import functools
import html
import json
import os
import pathlib
import tempfile

from .contract import PAGE_TRAITS

STATIC = pathlib.Path(__file__).resolve().parent.parent / "static"
PAGE_FILES = ("page.js", "widget.css", "page.css")
# The view traits a page keeps, as contract.json marks them (``live`` is not one: a
# page has no kernel to step).
VIEW_TRAITS = PAGE_TRAITS
LIVE_NOTE = ("This graph was stepped live in a notebook: the page holds the {steps} steps recorded "
             "when it was written. Stepping the backward pass further runs it for real and needs a "
             "kernel: open the notebook to go on.")


def page_state(widget) -> dict:
    """What a page needs to show ``widget`` as it is now: ``{trace, view, note}``."""
    return state_from_traits({name: getattr(widget, name) for name in (*VIEW_TRAITS, "trace", "live")})


def state_from_traits(traits: dict) -> dict:
    """A page's ``{trace, view, note}`` from a GraphWidget's trait values (a live widget's
    object, or its saved widget state in a notebook's metadata)."""
    view = {name: traits[name] for name in VIEW_TRAITS if name in traits}
    view["collapsed"] = list(view.get("collapsed") or [])
    note = ""
    if traits.get("live"):
        view["playing"] = False
        note = LIVE_NOTE.format(steps=len(traits["trace"].get("events") or ()))
    return {"trace": traits["trace"], "view": view, "note": note}


def script_json(value) -> str:
    """``value`` as JSON that is safe inside ``<script type="application/json">``.

    ``<``, ``>`` and ``&`` become ``\\u003c``, ``\\u003e``, ``\\u0026`` (JSON.parse reads
    them back), so no label can close the script element or open a comment.
    """
    text = json.dumps(value, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def graph_markup(state: dict, static_picture: str = "") -> str:
    """One graph's block: its data, and optionally a picture shown until the widget draws
    (and for good where scripts do not run)."""
    picture = f'<div class="ag-static">{static_picture}</div>' if static_picture else ""
    return (f'<div class="ag-page-graph"><script type="application/json" class="ag-graph-data">'
            f"{script_json(state)}</script>{picture}</div>")


@functools.lru_cache(maxsize=1)
def _read_assets(stamp: tuple) -> dict:
    assets = {name: (STATIC / name).read_text(encoding="utf-8") for name in PAGE_FILES}
    if "</script" in assets["page.js"].lower() or "</style" in (assets["widget.css"] + assets["page.css"]).lower():
        raise RuntimeError(f"the bundle in {STATIC} cannot be inlined in a page (it contains a closing "
                           f"</script> or </style>); rebuild it with `npm run build` in js/")
    return assets


def page_assets() -> dict:
    """The built bundle and styles a page inlines: ``{"page.js", "widget.css", "page.css"}``."""
    missing = [name for name in PAGE_FILES if not (STATIC / name).exists()]
    if missing:
        raise FileNotFoundError(f"the widget bundle is not built ({', '.join(missing)} missing in {STATIC}); "
                                f"run `npm ci && npm run build` in js/, or reinstall ag_jupyter")
    return _read_assets(tuple((STATIC / name).stat().st_mtime_ns for name in PAGE_FILES))


def head_assets() -> str:
    """The ``<style>`` and ``<script>`` elements every page carries once."""
    assets = page_assets()
    return (f"<style>{assets['widget.css']}</style>\n<style>{assets['page.css']}</style>\n"
            f"<script>{assets['page.js']}</script>")


# Titles the tracer gives a document when the learner named none: on a course page they
# say nothing, so the page is named after the graph's output instead.
TOOL_TITLES = {"", "ag.trace", "ag.show", "graph", "%%autograd"}


def page_title(trace: dict) -> str:
    """A page's title: the document's own when someone chose it, else ``Computation graph
    of e`` after the backward's root(s), else the last tensor made."""
    title = str(trace.get("title") or "")
    if title not in TOOL_TITLES:
        return title
    nodes = {node["id"]: node for node in trace.get("nodes") or ()}
    roots = [root for event in trace.get("events") or () if event.get("type") == "backward_begin"
             for root in event.get("roots") or ()]
    if not roots:
        roots = [node_id for node_id, node in nodes.items() if node.get("kind") == "tensor"][-1:]
    names = list(dict.fromkeys(nodes[r].get("label") or nodes[r].get("expr") or "" for r in roots if r in nodes))
    names = [name for name in names if name]
    return f"Computation graph of {', '.join(names[:3])}" if names else "Computation graph"


def render_page(widget, title: str | None = None) -> str:
    """The whole page of ``widget`` as HTML text; ``title`` names it (default: ``page_title``)."""
    state = page_state(widget)
    if title is not None and not isinstance(title, str):
        raise TypeError(f"write_html(title=...) takes a str, got {type(title).__name__}")
    title = title or page_title(state["trace"])
    return ("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<meta name=\"color-scheme\" content=\"light dark\">\n"
            f"<title>{html.escape(title)} · ag_jupyter</title>\n{head_assets()}\n</head>\n"
            f"<body class=\"ag-page\">\n<h1>{html.escape(title)}</h1>\n{graph_markup(state)}\n</body>\n</html>\n")


def check_target(path) -> pathlib.Path:
    """``path`` as a Path a page can be written to; a clear error naming it if not."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"write_html() takes a file path (str or pathlib.Path), got {type(path).__name__}")
    if not str(path):
        raise ValueError("write_html() needs a file name, such as 'graph.html'; got an empty path")
    target = pathlib.Path(path).expanduser()
    if target.is_dir():
        raise IsADirectoryError(f"cannot write the page to {str(path)!r}: it is a folder; "
                                f"give a file name, such as {str(target / 'graph.html')!r}")
    if not target.parent.is_dir():
        raise FileNotFoundError(f"cannot write the page to {str(path)!r}: the folder "
                                f"{str(target.parent)!r} does not exist")
    return target


def write_text_atomically(target: pathlib.Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``target``, then rename it: a reader
    (or a failure half-way) never sees half a page."""
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as error:
        raise _named(error, target) from None
    try:
        # mkstemp makes the file 0600; a page is for others to read (a web server running as
        # another user answers 403 otherwise): the mode any new file gets, 0644 under umask 022
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, target)
    except BaseException as error:
        pathlib.Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise _named(error, target) from None
        raise


def _umask() -> int:
    mask = os.umask(0o022)  # the only way to read it is to set it; put it straight back
    os.umask(mask)
    return mask


def _named(error: OSError, target: pathlib.Path) -> OSError:
    """The same kind of error, saying which page could not be written."""
    message = f"cannot write the page to {str(target)!r}: {error.strerror or error}"
    return type(error)(error.errno, message) if error.errno is not None else type(error)(message)


def write_html(widget, path, title: str | None = None) -> pathlib.Path:
    """Write ``widget`` as one self-contained page at ``path``, titled ``title``; return the
    path written."""
    target = check_target(path)
    write_text_atomically(target, render_page(widget, title))
    return target
