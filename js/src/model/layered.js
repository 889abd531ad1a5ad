// A fast layered (Sugiyama-style) layout, linear-ish in graph size, for graphs
// too big for dagre: dagre takes 1.5-3 s for 1,000 nodes here (see layout.js).
// Steps: break cycles, longest-path layering (sources pulled next to their first
// consumer), dummy nodes for long edges (within a budget), barycenter ordering
// sweeps, then coordinates by isotonic regression (each node as close as possible
// to the mean of its neighbours while keeping the order and the gaps).
// Coordinates are computed "top to bottom": rank along y, order along x.
// Pure: no DOM.

const SWEEPS = 4;

/**
 * graph: {nodes: [{id, width, height}], edges: [{src, dst}]}, sizes already in
 * the top-to-bottom frame (width = extent across a layer).
 * Returns {pos: Map id -> {x, y}, ranks, edges: [{src, dst, points: [[x, y]...]}], width, height}.
 */
export function layered(graph, { nodesep = 14, ranksep = 36, dummyBudget = 3 } = {}) {
  const n = graph.nodes.length;
  const index = new Map(graph.nodes.map((node, i) => [node.id, i]));
  const edges = [];
  for (const e of graph.edges) {
    const s = index.get(e.src), d = index.get(e.dst);
    if (s !== undefined && d !== undefined && s !== d) edges.push([s, d]);
  }
  const order = topoOrder(n, edges); // reverses back edges in place
  const rank = assignRanks(n, edges, order);
  // Virtual graph: real nodes 0..n-1, dummies after; every kept edge spans one rank.
  const width = graph.nodes.map((node) => node.width);
  const height = graph.nodes.map((node) => node.height);
  const chains = []; // per input edge: the list of virtual node ids it passes through
  const vEdges = [];
  let budget = Math.max(64, dummyBudget * n);
  for (const [s, d] of edges) {
    const span = rank[d] - rank[s];
    const chain = [s];
    if (span > 1 && span - 1 <= budget) {
      budget -= span - 1;
      for (let r = rank[s] + 1; r < rank[d]; r++) {
        const v = rank.length;
        rank.push(r); width.push(0); height.push(0);
        chain.push(v);
      }
    }
    chain.push(d);
    for (let i = 1; i < chain.length; i++) vEdges.push([chain[i - 1], chain[i]]);
    chains.push(chain);
  }
  const layers = buildLayers(rank, order);
  const preds = adjacency(rank.length, vEdges, 1), succs = adjacency(rank.length, vEdges, 0);
  orderLayers(layers, preds, succs);
  const x = placeAcross(layers, preds, succs, width, nodesep);
  const { y, total } = placeAlong(layers, height, ranksep);
  let minX = Infinity, maxX = -Infinity;
  for (let v = 0; v < rank.length; v++) {
    minX = Math.min(minX, x[v] - width[v] / 2);
    maxX = Math.max(maxX, x[v] + width[v] / 2);
  }
  if (!isFinite(minX)) minX = maxX = 0;
  const pos = new Map();
  graph.nodes.forEach((node, i) => pos.set(node.id, { x: x[i] - minX, y: y[i] }));
  const outEdges = graph.edges.map((e) => ({ src: e.src, dst: e.dst, points: null }));
  // Edge points follow the chain; reversed (back) edges are flipped back to data flow.
  let k = 0;
  for (const e of outEdges) {
    const s = index.get(e.src), d = index.get(e.dst);
    if (s === undefined || d === undefined || s === d) continue;
    const chain = chains[k++];
    let pts = chain.map((v) => [x[v] - minX, y[v]]);
    if (chain[0] !== s) pts = pts.reverse();
    e.points = pts;
  }
  return { pos, edges: outEdges, width: maxX - minX, height: total };
}

// Kahn's algorithm in input order (creation order, so ties keep the story order).
// A cycle (possible once scopes are collapsed into boxes) is broken by forcing the
// earliest remaining node; its incoming edges from unplaced nodes are reversed.
function topoOrder(n, edges) {
  const indeg = new Int32Array(n);
  const out = adjacency(n, edges, 0);
  for (const [, d] of edges) indeg[d]++;
  const placed = new Uint8Array(n), order = [];
  const queue = [];
  for (let v = 0; v < n; v++) if (indeg[v] === 0) queue.push(v);
  let head = 0, scan = 0;
  while (order.length < n) {
    if (head === queue.length) {
      while (placed[scan]) scan++;
      queue.push(scan);
      indeg[scan] = 0;
    }
    const v = queue[head++];
    if (placed[v]) continue;
    placed[v] = 1;
    order.push(v);
    for (const w of out[v]) if (!placed[w] && --indeg[w] === 0) queue.push(w);
  }
  const position = new Int32Array(n);
  order.forEach((v, i) => { position[v] = i; });
  for (const e of edges) if (position[e[0]] > position[e[1]]) e.reverse();
  return order;
}

function assignRanks(n, edges, order) {
  const rank = new Array(n).fill(0);
  const preds = adjacency(n, edges, 1), succs = adjacency(n, edges, 0);
  for (const v of order) for (const p of preds[v]) rank[v] = Math.max(rank[v], rank[p] + 1);
  // Pull nodes towards their consumers, last first: a source (a leaf, a parameter)
  // sits just before its first consumer, not at rank 0, and so does a chain like
  // weight -> T -> (used much later). Only for nodes with no more inputs than
  // outputs, where moving later never makes the edges longer in total.
  for (let i = order.length - 1; i >= 0; i--) {
    const v = order[i];
    if (!succs[v].length || preds[v].length > succs[v].length) continue;
    let min = Infinity;
    for (const s of succs[v]) min = Math.min(min, rank[s]);
    rank[v] = Math.max(rank[v], min - 1);
  }
  return rank;
}

function adjacency(n, edges, from) {
  const list = Array.from({ length: n }, () => []);
  const to = 1 - from;
  for (const e of edges) list[e[from]].push(e[to]);
  return list;
}

function buildLayers(rank, order) {
  let max = 0;
  for (const r of rank) max = Math.max(max, r);
  const layers = Array.from({ length: max + 1 }, () => []);
  for (const v of order) layers[rank[v]].push(v);
  for (let v = order.length; v < rank.length; v++) layers[rank[v]].push(v); // dummies
  return layers;
}

// Barycenter heuristic: sort each layer by the mean position of its neighbours in
// the layer just swept; alternate downward and upward sweeps.
function orderLayers(layers, preds, succs) {
  const pos = new Float64Array(preds.length);
  const stamp = () => layers.forEach((layer) => layer.forEach((v, i) => { pos[v] = i; }));
  stamp();
  for (let it = 0; it < SWEEPS; it++) {
    const down = it % 2 === 0;
    const nbrs = down ? preds : succs;
    const seq = down ? layers.keys() : [...layers.keys()].reverse();
    for (const r of seq) {
      const layer = layers[r];
      const key = new Map();
      for (const v of layer) {
        const ns = nbrs[v];
        if (!ns.length) { key.set(v, pos[v]); continue; }
        let sum = 0;
        for (const u of ns) sum += pos[u];
        key.set(v, sum / ns.length);
      }
      layer.sort((a, b) => key.get(a) - key.get(b) || pos[a] - pos[b]);
      layer.forEach((v, i) => { pos[v] = i; });
    }
  }
}

function placeAcross(layers, preds, succs, width, nodesep) {
  const x = new Float64Array(width.length);
  for (const layer of layers) {
    let at = 0;
    for (const v of layer) { x[v] = at + width[v] / 2; at += width[v] + nodesep; }
  }
  for (let it = 0; it < SWEEPS; it++) {
    const down = it % 2 === 0;
    const nbrs = down ? preds : succs;
    const seq = down ? [...layers.keys()] : [...layers.keys()].reverse();
    for (const r of seq) {
      const layer = layers[r];
      const want = layer.map((v) => {
        const ns = nbrs[v];
        if (!ns.length) return x[v];
        let sum = 0;
        for (const u of ns) sum += x[u];
        return sum / ns.length;
      });
      const placed = isotonic(layer, want, width, nodesep);
      layer.forEach((v, i) => { x[v] = placed[i]; });
    }
  }
  return x;
}

// Minimise sum (x_i - want_i)^2 subject to x_{i+1} - x_i >= half widths + gap:
// subtract the cumulative gaps to get a monotone problem, solve it with the
// pool-adjacent-violators algorithm (O(layer)), add the gaps back.
export function isotonic(layer, want, width, gap) {
  const m = layer.length, offset = new Float64Array(m);
  for (let i = 1; i < m; i++) {
    offset[i] = offset[i - 1] + (width[layer[i - 1]] + width[layer[i]]) / 2 + gap;
  }
  const value = [], weight = [], count = [];
  for (let i = 0; i < m; i++) {
    value.push(want[i] - offset[i]); weight.push(1); count.push(1);
    while (value.length > 1 && value[value.length - 2] > value[value.length - 1]) {
      const v2 = value.pop(), w2 = weight.pop(), c2 = count.pop();
      const w1 = weight[weight.length - 1];
      value[value.length - 1] = (value[value.length - 1] * w1 + v2 * w2) / (w1 + w2);
      weight[weight.length - 1] = w1 + w2;
      count[count.length - 1] += c2;
    }
  }
  const out = new Float64Array(m);
  let i = 0;
  value.forEach((v, b) => { for (let k = 0; k < count[b]; k++, i++) out[i] = v + offset[i]; });
  return out;
}

function placeAlong(layers, height, ranksep) {
  const y = new Float64Array(height.length);
  let at = 0;
  for (const layer of layers) {
    let h = 0;
    for (const v of layer) h = Math.max(h, height[v]);
    for (const v of layer) y[v] = at + h / 2;
    at += h + ranksep;
  }
  return { y, total: Math.max(0, at - ranksep) };
}
