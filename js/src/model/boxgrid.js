// Boxes found by where they are: a grid of cells over the layout, so asking what lies
// near one spot of a 10,000-node graph looks at the boxes there, not at all of them
// (a gradient label's placement, each step). Pure: no DOM.
const CELL = 256; // graph units a cell

/** items: [{box: {x, y, width, height} (centre)}, ...]. */
export function createBoxGrid(items) {
  const cells = new Map();
  const range = (lo, hi) => [Math.floor(lo / CELL), Math.floor(hi / CELL)];
  for (const it of items) {
    const b = it.box, [c0, c1] = range(b.x - b.width / 2, b.x + b.width / 2), [r0, r1] = range(b.y - b.height / 2, b.y + b.height / 2);
    for (let c = c0; c <= c1; c++) for (let r = r0; r <= r1; r++) {
      const key = `${c},${r}`;
      (cells.get(key) || cells.set(key, []).get(key)).push(it);
    }
  }
  /** The items whose box meets the area {x0, y0, x1, y1} (each once, in no set order). */
  function near({ x0, y0, x1, y1 }) {
    const out = new Set(), [c0, c1] = range(x0, x1), [r0, r1] = range(y0, y1);
    for (let c = c0; c <= c1; c++) for (let r = r0; r <= r1; r++) {
      for (const it of cells.get(`${c},${r}`) || []) {
        const b = it.box;
        if (b.x + b.width / 2 >= x0 && b.x - b.width / 2 <= x1 && b.y + b.height / 2 >= y0 && b.y - b.height / 2 <= y1) out.add(it);
      }
    }
    return [...out];
  }
  return { near };
}
