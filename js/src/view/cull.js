// Only what is near the view is in the document. Chromium paints an SVG's every
// child whenever anything in it changes (no per-element paint caching inside an SVG),
// so on a big graph one class flipped on a step repainted every box: ~0.1 ms a node
// a frame. Boxes and edges far outside the view are taken out of their layer, found
// through a grid of cells, so a pan costs what enters and leaves the view and a step's
// frame paints what is on screen (display: none was not enough: at 10,000 nodes the
// hidden children still cost ~40 ms of layout and pre-paint a frame). Small graphs are
// left whole.
const CELL = 512; // graph units a cell
export const CULL_MIN = 300; // display nodes below which nothing is culled

/** items: [{el, layer, x0, y0, x1, y1, make?}] (graph coordinates; layer: the element `el`
 * lives in; `el` null: not made yet, `make()` makes it as it first comes near the view);
 * boxes: how many of them are node boxes. */
export function createCuller() {
  let cells = new Map(), items = [], shown = new Set(), pinned = new Set(), whole = true;

  const hide = (it) => { if (it.el) it.el.remove(); };
  const show = (it) => it.layer.appendChild(it.el || (it.el = it.make()));

  function setItems(list, boxes) {
    items = list;
    cells = new Map();
    shown = new Set(items.filter((it) => it.el));
    whole = boxes < CULL_MIN;
    if (whole) return;
    for (const it of items) {
      const c0 = Math.floor(it.x0 / CELL), c1 = Math.floor(it.x1 / CELL);
      const r0 = Math.floor(it.y0 / CELL), r1 = Math.floor(it.y1 / CELL);
      for (let c = c0; c <= c1; c++) for (let r = r0; r <= r1; r++) {
        const key = `${c},${r}`;
        (cells.get(key) || cells.set(key, []).get(key)).push(it);
      }
    }
  }

  /** The view moved: `t` is d3-zoom's transform, `w`x`h` the canvas's size. Keeps in
   * the render tree what lies within half a view of the screen (and the pinned). */
  function update(t, w, h) {
    if (whole || !w || !h) return;
    const mx = w / 2, my = h / 2;
    const x0 = (-t.x - mx) / t.k, x1 = (w - t.x + mx) / t.k, y0 = (-t.y - my) / t.k, y1 = (h - t.y + my) / t.k;
    const next = new Set(pinned);
    const span = (Math.floor(x1 / CELL) - Math.floor(x0 / CELL) + 1) * (Math.floor(y1 / CELL) - Math.floor(y0 / CELL) + 1);
    if (span > cells.size) { for (const list of cells.values()) for (const it of list) next.add(it); }
    else {
      for (let c = Math.floor(x0 / CELL); c <= Math.floor(x1 / CELL); c++) {
        for (let r = Math.floor(y0 / CELL); r <= Math.floor(y1 / CELL); r++) for (const it of cells.get(`${c},${r}`) || []) next.add(it);
      }
    }
    for (const it of shown) if (!next.has(it)) hide(it);
    for (const it of next) if (!shown.has(it)) show(it);
    shown = next;
  }

  /** Items always in the document (the current node: tests and the camera measure it;
   * the keyboard's node: it takes the focus). */
  function pin(list) {
    pinned = new Set(list);
    for (const it of pinned) if (!shown.has(it)) { show(it); shown.add(it); }
  }

  /** Runs `fn` with everything in the render tree (an export draws the whole graph). */
  function withAll(fn) {
    const hidden = items.filter((it) => !shown.has(it));
    for (const it of hidden) show(it);
    try { return fn(); } finally { for (const it of hidden) hide(it); }
  }

  return { setItems, update, pin, withAll, pinned: () => [...pinned] };
}
