// The display graph: which boxes are drawn once nn.Module scopes are collapsed,
// constants hidden, a pass selected, and `max_nodes` applied. Pure: no DOM.
// A collapsed scope becomes one node with id "scope:<path>"; edges are re-aimed
// at it, edges inside it disappear, and parallel edges merge (each display edge
// remembers the trace edges it stands for, so highlighting still works).
import { tensorRole } from "./timeline.js";
import { passNodes } from "./passes.js";
import { nodeText } from "./format.js";
import { opText, tensorContent } from "./nodecontent.js";

export const SCOPE_PREFIX = "scope:";

// A model's nodes share a few hundred scopes, and building the display graph asks each
// node's prefixes once per depth tried: made once per scope (frozen: every caller shares it).
const prefixCache = new Map();
const NO_PREFIXES = Object.freeze([]);
const PREFIX_CACHE_LIMIT = 100000;

/** Every prefix of a dotted scope, shortest first: "a.b.c" -> ["a", "a.b", "a.b.c"]. */
export function prefixes(scope) {
  if (!scope) return NO_PREFIXES;
  let out = prefixCache.get(scope);
  if (out) return out;
  const parts = scope.split(".");
  out = [];
  for (let i = 1; i <= parts.length; i++) out.push(parts.slice(0, i).join("."));
  if (prefixCache.size >= PREFIX_CACHE_LIMIT) prefixCache.clear();
  prefixCache.set(scope, Object.freeze(out));
  return out;
}

/** Scopes present in the trace with how many nodes each holds (nested counted in). */
export function scopeCounts(index) {
  const counts = new Map();
  for (const node of index.nodes.values()) {
    for (const p of prefixes(node.scope)) counts.set(p, (counts.get(p) || 0) + 1);
  }
  return counts;
}

// With max_nodes: collapse every scope at the deepest depth that brings the count
// under the limit (depth 1 = top-level modules if nothing else fits). Scopes the
// learner expanded stay open.
function autoCollapse(ids, index, maxNodes, open) {
  if (!maxNodes || ids.length <= maxNodes) return [];
  let deepest = 0;
  for (const id of ids) deepest = Math.max(deepest, prefixes(index.nodes.get(id).scope).length);
  let chosen = [];
  for (let depth = deepest; depth >= 1; depth--) {
    const boxes = new Set();
    let loose = 0;
    for (const id of ids) {
      const scopes = prefixes(index.nodes.get(id).scope); // the scope at this depth, unless opened
      const p = scopes.length >= depth && !open.has(scopes[depth - 1]) ? scopes[depth - 1] : undefined;
      if (p) boxes.add(p); else loose++;
    }
    chosen = [...boxes];
    if (loose + boxes.size <= maxNodes) break;
  }
  return chosen;
}

/**
 * options: {collapsed: [scope], expanded: [scope], hideConstants, maxNodes, passIndex}.
 * Returns {nodes: [{id, kind, text, role?, members?}], edges: [{src, dst, key, members}],
 * groupOf: Map traceId -> displayId, collapsed: [scope] (explicit + automatic)}.
 */
export function displayGraph(index, options = {}) {
  const { collapsed = [], expanded = [], hideConstants = false, maxNodes = 0, passIndex = -1 } = options;
  const inPass = passIndex >= 0 ? passNodes(index, passIndex) : null;
  const ids = [];
  for (const [id, node] of index.nodes) {
    if (inPass && !inPass.has(id)) continue;
    if (hideConstants && node.kind === "tensor" && tensorRole(index, node) === "constant") continue;
    ids.push(id);
  }
  // Keep creation order: it is the order the story is told in (and layout ties use it).
  ids.sort((a, b) => (index.createdAt.get(a) ?? Infinity) - (index.createdAt.get(b) ?? Infinity));
  const open = new Set(expanded);
  const closed = new Set([...collapsed.filter((s) => !open.has(s)), ...autoCollapse(ids, index, maxNodes, open)]);
  const groupOf = new Map(), boxes = new Map(), nodes = [], sampleGrads = gradSamples(index);
  for (const id of ids) {
    const node = index.nodes.get(id);
    const box = prefixes(node.scope).find((p) => closed.has(p));
    if (!box) {
      groupOf.set(id, id);
      const content = node.kind === "tensor" ? tensorContent(node, sampleGrads.get(id)) : null;
      nodes.push({ id, kind: node.kind, text: node.kind === "op" ? opText(node) : nodeText(node),
        role: tensorRole(index, node), content });
      continue;
    }
    const boxId = SCOPE_PREFIX + box;
    groupOf.set(id, boxId);
    let entry = boxes.get(boxId);
    if (!entry) {
      entry = { id: boxId, kind: "scope", scope: box, members: [], text: "" };
      boxes.set(boxId, entry);
      nodes.push(entry);
    }
    entry.members.push(id);
  }
  for (const entry of boxes.values()) entry.text = `${entry.scope}  (${entry.members.length})`;
  const edges = [], byKey = new Map();
  for (const e of index.edges) {
    const src = groupOf.get(e.src), dst = groupOf.get(e.dst);
    if (!src || !dst || src === dst) continue;
    const key = `${src}>${dst}`;
    let d = byKey.get(key);
    if (!d) {
      d = { src, dst, key, members: [] };
      byKey.set(key, d);
      edges.push(d);
    }
    d.members.push(e.key);
  }
  return { nodes, edges, groupOf, collapsed: [...closed] };
}

/** The timeline state seen through the display graph (boxes stand for members). */
export function displayState(display, state) {
  const g = (id) => (id ? display.groupOf.get(id) || null : null);
  const visible = new Set();
  for (const id of state.visible) { const d = g(id); if (d) visible.add(d); }
  const lit = new Set(), edgeOf = displayEdgeOf(display);
  for (const m of state.lit) { const d = edgeOf.get(m); if (d) lit.add(d); }
  const active = displayActive(display, state.active);
  const mapKeys = (m) => { const out = new Map(); for (const [k, v] of m) { const d = g(k); if (d) out.set(d, v); } return out; };
  const mapSet = (s) => { const out = new Set(); for (const k of s) { const d = g(k); if (d) out.add(d); } return out; };
  return { visible, current: g(state.current), lit, active, grads: mapKeys(state.grads),
    received: mapKeys(state.received || new Map()), phase: state.phase,
    nonfinite: mapKeys(state.nonfinite), gradNone: mapSet(state.gradNone), stepped: mapSet(state.stepped),
    error: state.error ? g(state.error.node) : null,
    dead: state.dead && state.dead.size ? allMembers(display, state.dead) : new Set(),
    updated: mapKeys(state.updated || new Map()) };
}

const edgeOwners = new WeakMap(); // display graph -> Map(trace edge key -> display edge key)

/** Map(trace edge key -> the display edge that stands for it). */
export function displayEdgeOf(display) {
  let owner = edgeOwners.get(display);
  if (!owner) {
    owner = new Map();
    for (const e of display.edges) for (const m of e.members) owner.set(m, e.key);
    edgeOwners.set(display, owner);
  }
  return owner;
}

/** The step's active edges (few) seen through the display graph: parallel edges merged
 * into one show the first one's gradient. */
export function displayActive(display, active) {
  const out = new Map(), edgeOf = displayEdgeOf(display);
  for (const [m, a] of active) { const d = edgeOf.get(m); if (d && !out.has(d)) out.set(d, a); }
  return out;
}

// The display nodes all of whose members are in `ids` (a module box is dead only whole).
function allMembers(display, ids) {
  const total = new Map(), hit = new Map();
  for (const [member, group] of display.groupOf) {
    total.set(group, (total.get(group) || 0) + 1);
    if (ids.has(member)) hit.set(group, (hit.get(group) || 0) + 1);
  }
  return new Set([...hit].filter(([group, n]) => n === total.get(group)).map(([group]) => group));
}

// One gradient per tensor that the document sends it (its op's grad_output, or a
// leaf's .grad), for sizing its box before any of them is on screen.
function gradSamples(index) {
  const out = new Map();
  for (const e of index.events) {
    if (e.type === "accumulate" && e.grad) out.set(e.node, e.grad);
    else if (e.type === "backward_step" && e.grad_output) {
      for (const edge of index.outputs.get(e.node) || []) out.set(edge.dst, e.grad_output);
    }
  }
  return out;
}
