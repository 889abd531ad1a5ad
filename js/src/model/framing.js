// Where the view looks to frame the whole graph or a few boxes: arithmetic on the
// canvas's size and the layout's boxes only (render.js glides to what these return).
const PAD = 24;

/** The furthest out "fit" goes: a box (24-26 px tall) still a 7 px shape in its state's
 *  colour. A graph too long to show whole above it (a 1,000-node chain whole is ~0.006x,
 *  one hairline) is framed at this zoom around the current node instead. */
export const FIT_FLOOR = 0.3;

/** The whole graph (at most 1.5x, centred). With minScale, never further out than that:
 * a big graph then opens readable at its start (or centred on `focusBox`). */
export function wholeGraphFrame(layout, w, h, direction, { minScale = 0, focusBox = null } = {}) {
  const W = Math.max(1, layout.width), H = Math.max(1, layout.height);
  const whole = Math.min(1.5, (w - 2 * PAD) / W, (h - 2 * PAD) / H);
  if (whole >= minScale) return { x: (w - W * whole) / 2, y: (h - H * whole) / 2, k: whole };
  const k = minScale, lr = direction === "LR";
  // the start of the flow on the main axis, the centre on the cross axis (or the focus box)
  const x = focusBox ? w / 2 - focusBox.x * k : lr ? PAD : (w - W * k) / 2;
  const y = focusBox ? h / 2 - focusBox.y * k : lr ? (h - H * k) / 2 : PAD;
  return { x, y, k };
}

/** Boxes (centre x, y, width, height) whole, their notes above and a margin, centred, at most 1.5x. */
export function boxesFrame(boxes, w, h) {
  const left = Math.min(...boxes.map((b) => b.x - b.width / 2)), right = Math.max(...boxes.map((b) => b.x + b.width / 2));
  const top = Math.min(...boxes.map((b) => b.y - b.height / 2 - 16)), bottom = Math.max(...boxes.map((b) => b.y + b.height / 2));
  const k = Math.min(1.5, (w - 2 * PAD) / Math.max(1, right - left), (h - 2 * PAD) / Math.max(1, bottom - top));
  return { x: w / 2 - ((left + right) / 2) * k, y: h / 2 - ((top + bottom) / 2) * k, k };
}
