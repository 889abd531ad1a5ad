"""A graph on a MyST / Jupyter Book 2 page: ``widget.to_myst(path)``.

mystmd's ``{anywidget}`` directive (myst-directives, 2026) embeds an anywidget module on a
page with no kernel and no iframe. Its documented form::

    :::{anywidget} ./graph.mjs
    :css: ./graph.css
    { ...JSON (or JSON5) object: the props the module's render() reads with model.get... }
    :::

The argument is the ES module, ``:css:`` a stylesheet, the body the model. ``to_myst``
writes the module (``static/myst.mjs``: the widget driven by an in-page model, as a
written page is, so it steps with only ``model.get``), the styles with KaTeX's fonts
inline, the model as JSON (``{trace, view, note}``, as a page holds it) and a Markdown
file holding the directive, all side by side; paste the directive into a page or
``{include}`` the file.
"""
from __future__ import annotations

import json
import pathlib

from .page import STATIC, check_target, page_state, write_text_atomically

FILES = {".mjs": "myst.mjs", ".css": "widget.css"}


def directive(stem: str, state: dict) -> str:
    """The ``{anywidget}`` directive for files ``<stem>.mjs``/``.css`` and model ``state``."""
    body = json.dumps(state, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    # a line of the body that starts with ':::' would close the directive: JSON never
    # starts a line with one here (it is written on one line)
    return f":::{{anywidget}} ./{stem}.mjs\n:css: ./{stem}.css\n{body}\n:::\n"


def write_myst(widget, path) -> pathlib.Path:
    """Write ``widget`` for a MyST page: ``<path>`` (a ``.md`` file with the directive) and
    ``.mjs``, ``.css``, ``.json`` beside it. Returns the Markdown file's path."""
    target = check_target(path)
    if target.suffix != ".md":
        raise ValueError(f"to_myst() writes a Markdown file with the directive: give a path ending in .md, "
                         f"such as {str(target.with_suffix('.md'))!r}; got {str(path)!r}")
    missing = [name for name in FILES.values() if not (STATIC / name).exists()]
    if missing:
        raise FileNotFoundError(f"the widget bundle is not built ({', '.join(missing)} missing in {STATIC}); "
                                f"run `npm ci && npm run build` in js/, or reinstall ag_jupyter")
    state = page_state(widget)
    for suffix, name in FILES.items():
        write_text_atomically(target.with_suffix(suffix), (STATIC / name).read_text(encoding="utf-8"))
    write_text_atomically(target.with_suffix(".json"), json.dumps(state, allow_nan=False, ensure_ascii=False))
    write_text_atomically(target, directive(target.stem, state))
    return target
