"""What a person sees, measured from the rendered DOM's bounding boxes (screen pixels):
node boxes that overlap, edge labels over node boxes, and whether the current node is
in view and readable."""

# rectangles that share more than half a pixel (touching edges do not count)
_OVERLAP = ("(a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5"
            " && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5")


def boxes_overlap(page):
    """Pairs of visible node boxes (their data-ids) whose rectangles intersect on screen."""
    return page.evaluate(f"""() => {{
      const overlap = {_OVERLAP};
      const nodes = [...document.querySelectorAll('g.ag-node:not(.ag-hidden)')]
        .map(g => [g.dataset.id, g.querySelector('.ag-shape').getBoundingClientRect()]);
      const out = [];
      for (let i = 0; i < nodes.length; i++) for (let j = i + 1; j < nodes.length; j++)
        if (overlap(nodes[i][1], nodes[j][1])) out.push([nodes[i][0], nodes[j][0]]);
      return out;
    }}""")


def _texts_over_boxes(page, selector: str):
    """The text of each element matching ``selector`` whose rectangle intersects a visible node box."""
    return page.evaluate(f"""() => {{
      const overlap = {_OVERLAP};
      const boxes = [...document.querySelectorAll('g.ag-node:not(.ag-hidden) .ag-shape')]
        .map(s => s.getBoundingClientRect());
      return [...document.querySelectorAll({selector!r})]
        .filter(t => boxes.some(b => overlap(t.getBoundingClientRect(), b))).map(t => t.textContent);
    }}""")


def labels_over_boxes(page):
    """Edge gradient labels (their text) whose rectangle intersects a visible node box."""
    return _texts_over_boxes(page, ".ag-edge-grad text")


def outline_labels_over_boxes(page):
    """Module and repeat outline names (their text) whose rectangle intersects a visible node box."""
    return _texts_over_boxes(page, ".ag-outline:not(.ag-hidden) .ag-outline-label")


# The current node's box against its canvas (and the overview in its corner), and the
# smallest text it shows, in screen pixels: font size times the zoom.
CURRENT_IN_VIEW = """(root) => {
  const scope = root || document;
  const g = scope.querySelector('g.ag-node.ag-current');
  if (!g) return null;
  const shape = g.querySelector('.ag-shape');
  const r = shape.getBoundingClientRect(), c = scope.querySelector('.ag-canvas').getBoundingClientRect();
  const zoom = r.width / Number(shape.getAttribute('width'));
  const sizes = [...g.querySelectorAll('text')].filter(t => t.textContent.trim())
    .map(t => parseFloat(getComputedStyle(t).fontSize) * zoom);
  const m = scope.querySelector('.ag-minimap');
  const mr = m && getComputedStyle(m).display !== 'none' ? m.getBoundingClientRect() : null;
  return { id: g.dataset.id, box: [r.left, r.top, r.right, r.bottom].map(Math.round),
    canvas: [c.left, c.top, c.right, c.bottom].map(Math.round),
    inside: r.left >= c.left - 0.5 && r.right <= c.right + 0.5 && r.top >= c.top - 0.5 && r.bottom <= c.bottom + 0.5,
    underMinimap: !!mr && r.left < mr.right && mr.left < r.right && r.top < mr.bottom && mr.top < r.bottom,
    text: sizes.length ? Math.min(...sizes) : 0 };
}"""


def current_in_view(page, min_text=11.0, timeout_ms=10_000, root=None):
    """Wait (the view glides for 240 ms; a loaded machine stretches that) until the
    current node is inside the canvas, clear of the overview, with its text at least
    ``min_text`` px; return the last measurement (None when no node is current).
    ``root``: a selector for the widget when a page has several."""
    check = f"""(sel) => {{ const m = ({CURRENT_IN_VIEW})(sel && document.querySelector(sel));
      return !m || (m.inside && !m.underMinimap && m.text >= {min_text} - 0.05); }}"""
    try:
        page.wait_for_function(check, arg=root, timeout=timeout_ms, polling="raf")
    except Exception:  # noqa: BLE001 - the measurement below says what is wrong
        pass
    return page.evaluate(f"(sel) => ({CURRENT_IN_VIEW})(sel && document.querySelector(sel))", root)
