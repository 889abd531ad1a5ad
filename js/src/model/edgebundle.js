// Many edges into one box from a column of sources share a trunk. A model collapsed
// into one box with its 2,500 parameters in a column beside it drew 2,500 lines
// fanning over the graph's whole height into that box: each ran across every view
// of the column, so none could be culled and every frame painted them all. Bundled,
// each source keeps a short edge of its own into the trunk (its state, its gradient
// label, culled with it) and one trunk per box carries them in: the learner still
// sees which tensors feed the box, and a frame paints what is near the view.
export const BUNDLE_MIN = 64; // direct edges into one box from which they are bundled

/** lay: layout ({nodes: id -> {x, y, width, height}, edges: [{src, dst, points}]});
 * direction: "LR" | "TB". Returns {stubs: Map(edge index -> points from its source
 * to the trunk), trunks: [{dst, edges: [edge index], points}]} (points in graph units;
 * a trunk's run along its sources, then its way into the box). Only direct edges (two
 * points) whose sources all lie before the box are bundled. */
export function bundleFans(lay, direction = "LR") {
  const lr = direction !== "TB";
  const along = (p) => (lr ? p[0] : p[1]), across = (p) => (lr ? p[1] : p[0]);
  const at = (a, c) => (lr ? [a, c] : [c, a]); // a point from its two coordinates
  const into = new Map();
  lay.edges.forEach((e, i) => {
    if (e.points.length !== 2) return;
    (into.get(e.dst) || into.set(e.dst, []).get(e.dst)).push(i);
  });
  const stubs = new Map(), trunks = [];
  for (const [dst, list] of into) {
    const box = lay.nodes.get(dst);
    if (list.length < BUNDLE_MIN || !box) continue;
    const near = along([box.x, box.y]) - (lr ? box.width : box.height) / 2; // the box's side facing them
    const starts = list.map((i) => lay.edges[i].points[0]);
    const last = Math.max(...starts.map(along));
    if (!(last < near)) continue;
    const bus = last + (near - last) / 2;
    const spots = starts.map(across), middle = across([box.x, box.y]);
    list.forEach((i, k) => stubs.set(i, [starts[k], at(bus, spots[k])]));
    const from = Math.min(middle, ...spots), to = Math.max(middle, ...spots);
    trunks.push({ dst, edges: list, points: [at(bus, from), at(bus, to), at(bus, middle), at(near, middle)] });
  }
  return { stubs, trunks };
}

/** A trunk's SVG path: its run along the sources, then straight into the box. */
export function trunkPath(points) {
  const [a, b, c, d] = points;
  return `M${a[0]},${a[1]}L${b[0]},${b[1]}M${c[0]},${c[1]}L${d[0]},${d[1]}`;
}
