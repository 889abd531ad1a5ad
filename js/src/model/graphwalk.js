// Where an arrow key takes the focus in the graph: along the edges (toward the inputs
// one way, the consumers the other) and across to siblings. Pure: the display graph
// and the layout's positions in, a node id out. In LR the data flows rightwards: ←
// goes to an input, → to a consumer, ↑/↓ to the sibling above or below; in TB the
// axes swap.

const KEYS = {
  LR: { ArrowLeft: "inputs", ArrowRight: "consumers", ArrowUp: "before", ArrowDown: "after" },
  TB: { ArrowUp: "inputs", ArrowDown: "consumers", ArrowLeft: "before", ArrowRight: "after" },
};

/** Which way `key` walks in `direction` ("inputs", "consumers", "before", "after"), or null. */
export function walkWay(key, direction) {
  return (KEYS[direction === "TB" ? "TB" : "LR"] || {})[key] || null;
}

/**
 * The node an arrow key moves to from `id`, or null when there is none that way.
 * display: collapse.displayGraph(); positions: Map id -> {x, y} (layout nodes);
 * visible: Set of the ids on screen (nodes not made yet are skipped).
 */
export function walkFrom(display, positions, visible, id, key, direction = "LR") {
  const way = walkWay(key, direction);
  const here = positions.get(id);
  if (!way || !here) return null;
  const lr = direction !== "TB";
  const along = (p) => (lr ? p.x : p.y), across = (p) => (lr ? p.y : p.x);
  const shown = (n) => visible.has(n) && positions.has(n);
  const nearest = (ids) => ids.filter(shown)
    .sort((a, b) => Math.abs(across(positions.get(a)) - across(here)) - Math.abs(across(positions.get(b)) - across(here)))[0] || null;
  if (way === "inputs") return nearest(display.edges.filter((e) => e.dst === id).map((e) => e.src));
  if (way === "consumers") return nearest(display.edges.filter((e) => e.src === id).map((e) => e.dst));
  // Siblings: nodes in the same layer (the same place along the flow), the nearest
  // one above/before or below/after.
  const sign = way === "before" ? -1 : 1;
  let best = null, gap = Infinity;
  for (const d of display.nodes) {
    if (d.id === id || !shown(d.id)) continue;
    const p = positions.get(d.id);
    if (Math.abs(along(p) - along(here)) > 1) continue;
    const delta = (across(p) - across(here)) * sign;
    if (delta > 0 && delta < gap) { best = d.id; gap = delta; }
  }
  return best;
}
