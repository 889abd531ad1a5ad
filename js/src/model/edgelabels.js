// Where the gradient written on an edge goes: beside the edge's middle, on the
// first side that covers no node box (labels must never hide a node's value), else on
// the nearest free spot around it.
// Pure: no DOM; sizes are estimates, 7 px a character, 14 px high.

const CHAR = 7, HEIGHT = 14, GAP = 4;
const RINGS = 8, GRID_X = 16, GRID_Y = 10; // the search grid around the edge's middle, px

/** The text on an edge: an arrow against the data flow (backward goes right to
 * left in LR, bottom to top in TB) and the gradient. */
export function backwardArrow(direction) {
  return direction === "TB" ? "↑" : "←";
}

const overlaps = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

function boxRect(b) {
  return { x0: b.x - b.width / 2 - GAP, x1: b.x + b.width / 2 + GAP, y0: b.y - b.height / 2 - GAP, y1: b.y + b.height / 2 + GAP };
}

/**
 * points: the edge's points (data flow); text: the label; boxes: iterable of
 * {x, y, width, height} (centres); placed: rects of labels already placed (this
 * one is added). Returns {x, y} (the label's centre; its text is centred there).
 */
export function placeEdgeLabel(points, text, boxes, direction = "LR", placed = []) {
  const w = CHAR * text.length + 4, h = HEIGHT;
  const { p, q, mid } = middle(points);
  // along the edge's cross axis: above/below in LR, right/left in TB, farther each time
  const steps = [];
  for (let k = 0; k < 6; k++) {
    const d = 10 + k * 12;
    steps.push(direction === "TB" ? [w / 2 + 6 + k * 12, 0] : [0, -d], direction === "TB" ? [-(w / 2 + 6 + k * 12), 0] : [0, d]);
  }
  // and along the edge, towards either end, when the sides are crowded
  for (const f of [0.25, -0.25]) steps.push(direction === "TB" ? [w / 2 + 6, f * (p[1] - q[1] || 40)] : [f * (p[0] - q[0] || 40), -10]);
  // then, between crowded boxes (a short edge between two columns), the nearest free
  // spot on a widening grid around the middle, so a label never lands on a box
  for (let ring = 1; ring <= RINGS; ring++) {
    const around = [];
    for (let i = -ring; i <= ring; i++) {
      for (let j = -ring; j <= ring; j++) {
        if (Math.max(Math.abs(i), Math.abs(j)) === ring) around.push([i * GRID_X, j * GRID_Y]);
      }
    }
    around.sort((a, b) => Math.hypot(a[0], a[1]) - Math.hypot(b[0], b[1]));
    steps.push(...around);
  }
  // only the boxes that a candidate could touch are checked (big graphs stay cheap)
  const reach = reachOf(w);
  const rects = [];
  for (const b of boxes) {
    if (Math.abs(b.x - mid[0]) < reach + b.width / 2 && Math.abs(b.y - mid[1]) < reach + b.height / 2) rects.push(boxRect(b));
  }
  for (const [dx, dy] of steps) {
    const c = { x: mid[0] + dx, y: mid[1] + dy };
    const r = { x0: c.x - w / 2, x1: c.x + w / 2, y0: c.y - h / 2, y1: c.y + h / 2 };
    if (!rects.some((b) => overlaps(r, b)) && !placed.some((b) => overlaps(r, b))) {
      placed.push(r);
      return c;
    }
  }
  const [dx, dy] = steps[0];
  return { x: mid[0] + dx, y: mid[1] + dy };
}

function middle(points) {
  const i = Math.floor(points.length / 2);
  const p = points[i] || points[0], q = points[Math.max(0, i - 1)];
  return { p, q, mid: [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2] };
}

const reachOf = (w) => RINGS * Math.max(GRID_X, GRID_Y) + w + 80;

/** The area where the label of `text` on the edge through `points` may go: a box
 * outside it is never in the way (pass placeEdgeLabel only the boxes that meet it). */
export function labelArea(points, text) {
  const { mid } = middle(points), reach = reachOf(CHAR * text.length + 4);
  return { x0: mid[0] - reach, x1: mid[0] + reach, y0: mid[1] - reach, y1: mid[1] + reach };
}
