// Layout of the visible graph, left-to-right or top-to-bottom. Pure: no DOM.
//
// Choice, by measurement (js/README.md has the table): dagre gives the nicest
// drawings (network-simplex ranks, routed edges) but costs ~180 ms at 100 nodes
// and 1.5-3 s at 1,000 nodes on these machines, so it is used only for small
// graphs, which is what a learner's cell makes. Above DAGRE_LIMIT nodes the fast
// layered layout in layered.js takes over (tens of ms for 1,000 nodes).
import dagre from "@dagrejs/dagre";
import { layered } from "./layered.js";

export const DAGRE_LIMIT = 120;
const NODESEP = 14, RANKSEP = 34;
const OUTLINE_PAD = 6, OUTLINE_LABEL = 14; // px around an outline's members, and its name's band

/** Estimated box size of a display node (no DOM to measure text in, on purpose:
 * layout must be pure and fast; 7 px per character fits JupyterLab's UI font). */
export function nodeSize(node) {
  if (node.content) return { width: node.content.width, height: node.content.height };
  const text = node.text || "";
  // Ops are circles for one- or two-letter symbols, stadiums for longer ones.
  if (node.kind === "op") return { width: Math.max(26, 12 + 6.5 * text.length), height: 26 };
  if (node.kind === "scope") return { width: Math.max(60, 16 + 7 * text.length), height: 34 };
  return { width: Math.max(36, 14 + 7 * text.length), height: 24 };
}

/**
 * graph: {nodes: [{id, kind, text}], edges: [{src, dst}]}; outlines: [{id, parent, members}]
 * (outlines.js), parents first. Returns {nodes: Map id -> {x, y, width, height} (centres),
 * edges: [{src, dst, points}], outlines: Map id -> box, width, height, engine}. Points
 * follow data flow, from src to dst.
 */
export function layoutGraph(graph, { direction = "LR", engine = "auto", outlines = [] } = {}) {
  const lr = direction === "LR";
  const sized = graph.nodes.map((node) => {
    const { width, height } = node.width ? node : nodeSize(node);
    return { id: node.id, width, height };
  });
  const use = engine === "auto" ? (sized.length <= DAGRE_LIMIT ? "dagre" : "layered") : engine;
  // Both engines work top-to-bottom; for LR swap the axes going in and coming out.
  const tb = sized.map((s) => (lr ? { id: s.id, width: s.height, height: s.width } : s));
  const raw = use === "dagre" ? viaDagre(tb, graph.edges, outlines) : viaLayered(tb, graph.edges);
  const nodes = new Map();
  for (const s of sized) {
    const p = raw.pos.get(s.id);
    nodes.set(s.id, { x: lr ? p.y : p.x, y: lr ? p.x : p.y, width: s.width, height: s.height });
  }
  const boxes = new Map();
  for (const [id, b] of raw.clusters || []) boxes.set(id, lr ? { x: b.y, y: b.x, width: b.height, height: b.width } : b);
  const edges = raw.edges.map((e) => ({
    src: e.src, dst: e.dst,
    points: (e.points || straight(nodes, e)).map(([x, y]) => (lr ? [y, x] : [x, y])).map(round),
  }));
  for (const e of edges) clip(e, nodes, lr);
  return { nodes, edges, outlines: outlineBoxes(outlines, nodes, boxes),
    width: lr ? raw.height : raw.width, height: lr ? raw.width : raw.height, engine: use };
}

// dagre lays outlines out as clusters (no other node inside); the fast engine does not
// know them, so there an outline is its members' bounding box. Either way an outline
// gets OUTLINE_PAD around its members and a band on top for its name.
function outlineBoxes(outlines, nodes, clusters) {
  const out = new Map();
  for (const o of [...outlines].reverse()) { // children first: a parent wraps them
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    const cover = (b) => { x0 = Math.min(x0, b.x - b.width / 2); x1 = Math.max(x1, b.x + b.width / 2);
      y0 = Math.min(y0, b.y - b.height / 2); y1 = Math.max(y1, b.y + b.height / 2); };
    for (const m of o.members) if (nodes.has(m)) cover(nodes.get(m));
    for (const c of outlines) if (c.parent === o.id && out.has(c.id)) cover(out.get(c.id));
    if (!isFinite(x0)) continue;
    const c = clusters.get(o.id);
    if (c) cover(c);
    else { x0 -= OUTLINE_PAD; x1 += OUTLINE_PAD; y0 -= OUTLINE_PAD + OUTLINE_LABEL; y1 += OUTLINE_PAD; }
    out.set(o.id, { x: (x0 + x1) / 2, y: (y0 + y1) / 2, width: x1 - x0, height: y1 - y0 });
  }
  return out;
}

function viaLayered(nodes, edges) {
  const out = layered({ nodes, edges }, { nodesep: NODESEP, ranksep: RANKSEP });
  // layered() returns points in its own top-to-bottom frame already.
  return { pos: out.pos, edges: out.edges, width: out.width, height: out.height };
}

function viaDagre(nodes, edges, outlines = []) {
  const g = new dagre.graphlib.Graph({ multigraph: true, compound: outlines.length > 0 });
  g.setGraph({ rankdir: "TB", nodesep: NODESEP, ranksep: RANKSEP, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const s of nodes) g.setNode(s.id, { width: s.width, height: s.height });
  // each node in its innermost outline, each outline in its parent (outlines come parents first)
  for (const o of outlines) {
    g.setNode(o.id, {});
    if (o.parent) g.setParent(o.id, o.parent);
    for (const m of o.members) if (g.hasNode(m)) g.setParent(m, o.id);
  }
  edges.forEach((e, i) => { if (e.src !== e.dst) g.setEdge(e.src, e.dst, {}, `e${i}`); });
  dagre.layout(g);
  const pos = new Map(nodes.map((s) => [s.id, { x: g.node(s.id).x, y: g.node(s.id).y }]));
  const out = edges.map((e, i) => {
    const label = e.src !== e.dst && g.edge({ v: e.src, w: e.dst, name: `e${i}` });
    return { src: e.src, dst: e.dst, points: label ? label.points.map((p) => [p.x, p.y]) : null };
  });
  const clusters = new Map();
  for (const o of outlines) {
    const c = g.node(o.id);
    if (c && isFinite(c.x) && c.width > 0) clusters.set(o.id, { x: c.x, y: c.y, width: c.width, height: c.height });
  }
  const info = g.graph();
  return { pos, edges: out, clusters, width: info.width || 0, height: info.height || 0 };
}

function straight(nodes, e) {
  const a = nodes.get(e.src), b = nodes.get(e.dst);
  return a && b ? [[a.x, a.y], [b.x, b.y]] : [];
}

const round = ([x, y]) => [Math.round(x * 10) / 10, Math.round(y * 10) / 10];

// Start and end an edge on the node's border along the flow axis, so arrowheads
// are not hidden under the node box.
function clip(edge, nodes, lr) {
  const pts = edge.points;
  if (pts.length < 2) return;
  const a = nodes.get(edge.src), b = nodes.get(edge.dst);
  if (!a || !b) return;
  if (lr) {
    pts[0] = [a.x + a.width / 2, pts[0][1]];
    pts[pts.length - 1] = [b.x - b.width / 2, pts[pts.length - 1][1]];
  } else {
    pts[0] = [pts[0][0], a.y + a.height / 2];
    pts[pts.length - 1] = [pts[pts.length - 1][0], b.y - b.height / 2];
  }
}

/** SVG path data for an edge: straight for two points, else a smooth curve through
 * the points (cubic segments with tangents along the flow axis). */
export function edgePath(points, direction = "LR") {
  if (!points || points.length < 2) return "";
  const lr = direction === "LR";
  let d = `M${points[0][0]},${points[0][1]}`;
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1], [x1, y1] = points[i];
    if (lr) {
      const mx = (x0 + x1) / 2;
      d += `C${mx},${y0} ${mx},${y1} ${x1},${y1}`;
    } else {
      const my = (y0 + y1) / 2;
      d += `C${x0},${my} ${x1},${my} ${x1},${y1}`;
    }
  }
  return d;
}
