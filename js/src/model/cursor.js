// The timeline walked one event at a time: a step forward applies one event to the
// state, a step back undoes it from a journal of what that event changed, so a step
// costs what the event touches, not the length of the trace. The states equal
// timeline.js's stateAt(index, step) (test/cursor.test.mjs checks every step of real
// traces); `changed` names the nodes and edges whose look the move may have changed,
// so the view redraws only those. Pure: no DOM.
import { eventNode, edgeKey, clamp, activeEdges, deadBranches, keptAcrossPasses } from "./timeline.js";
import { displayEdgeOf } from "./collapse.js";

/** @param {ReturnType<typeof import("./timeline.js").indexTrace>} index */
export function createCursor(index) {
  const total = index.events.length;
  // The mutable part of the state; `journal[i]` undoes event i.
  const s = { visible: new Set(index.uncreated), grads: new Map(), arrived: new Map(), received: new Map(),
    stepped: new Set(), lit: new Set(), nonfinite: new Map(), gradNone: new Set(),
    updated: new Map(), // a parameter's value as the optimizer left it (kept across passes, as stateAt does)
    error: null, phase: "start", pass: 0 };
  let step = 0, journal = [], derived = null;
  let touched = { nodes: new Set(), edges: new Set(), all: false };

  // Each change records how to take it back, and what it touched.
  const log = [];
  const node = (id) => touched.nodes.add(id);
  function setAdd(set, v, mark) {
    if (set.has(v)) return;
    set.add(v); mark(v);
    log.push(() => { set.delete(v); mark(v); });
  }
  function mapSet(map, k, v) {
    const had = map.has(k), old = map.get(k);
    if (had && old === v) return;
    map.set(k, v); node(k);
    log.push(() => { if (had) map.set(k, old); else map.delete(k); node(k); });
  }
  function mapDelete(map, k) {
    if (!map.has(k)) return;
    const old = map.get(k);
    map.delete(k); node(k);
    log.push(() => { map.set(k, old); node(k); });
  }
  function field(name, value) {
    const old = s[name];
    if (old === value) return;
    s[name] = value;
    log.push(() => { s[name] = old; });
  }
  const edge = (key) => touched.edges.add(key);

  function apply(event) {
    log.length = 0;
    if ((event.pass || 0) !== s.pass) {
      for (const k of [...s.grads.keys()]) mapDelete(s.grads, k);
      for (const k of [...s.received.keys()]) if (!keptAcrossPasses(index, k, event.pass || 0)) mapDelete(s.received, k);
      for (const k of [...s.arrived.keys()]) mapDelete(s.arrived, k);
    }
    field("pass", event.pass || 0);
    switch (event.type) {
      case "create":
        setAdd(s.visible, event.node, node);
        field("phase", "forward");
        if (event.nonfinite_origin) mapSet(s.nonfinite, event.node, "value");
        break;
      case "backward_begin":
        field("phase", "backward");
        replaceGradNone(new Set());
        break;
      case "backward_step":
        field("phase", "backward");
        setAdd(s.stepped, event.node, node);
        for (const out of index.outputs.get(event.node) || []) {
          setAdd(s.lit, out.key, edge);
          if (event.grad_output) mapSet(s.received, out.dst, event.grad_output);
        }
        for (const g of event.grad_inputs || []) {
          if (!g.node) continue;
          setAdd(s.lit, edgeKey(g.node, event.node), edge);
          if (g.grad) { mapSet(s.arrived, g.node, g.grad); mapSet(s.received, g.node, g.total || g.grad); }
        }
        if (event.nonfinite_origin) mapSet(s.nonfinite, event.node, "grad");
        break;
      case "accumulate":
        field("phase", "backward");
        mapSet(s.grads, event.node, event.grad);
        if (event.grad && (event.grad.nan || event.grad.inf)) mapSet(s.nonfinite, event.node, "grad");
        break;
      case "backward_end":
        field("phase", "done");
        replaceGradNone(new Set(event.grad_none || []));
        for (const id of s.gradNone) mapDelete(s.grads, id);
        break;
      case "update":
        field("phase", "update");
        if (event.values && event.values.new) mapSet(s.updated, event.node, event.values.new);
        break;
      case "grads_cleared":
        field("phase", "update");
        for (const id of event.nodes || []) {
          mapDelete(s.grads, id);
          if (event.set_to_none) setAdd(s.gradNone, id, node);
        }
        break;
      case "error":
        field("phase", "error");
        field("error", { node: event.node || null, type: event.error_type, message: event.message,
          line: event.line || null, op: event.op || null });
        break;
      default:
        break; // a newer minor version may add event types: timeline.js skips them too
    }
    return log.splice(0).reverse();
  }

  function replaceGradNone(next) {
    const old = s.gradNone, touch = () => { for (const id of old) node(id); for (const id of next) node(id); };
    touch();
    field("gradNone", next);
    log.push(touch); // undone, the old set's nodes change back too
  }

  function reset() {
    for (const set of [s.visible, s.stepped, s.lit, s.gradNone]) set.clear();
    for (const map of [s.grads, s.arrived, s.received, s.nonfinite, s.updated]) map.clear();
    for (const id of index.uncreated) s.visible.add(id);
    Object.assign(s, { error: null, phase: "start", pass: 0, gradNone: new Set() });
    step = 0;
    journal = [];
  }

  /** Moves to `target` (clamped); returns the state there, with `changed`:
   * {nodes: Set of trace ids, edges: Set of edge keys, all: true when everything may
   * have changed (a jump replayed from 0, or the phase went to or from "done")}. */
  function moveTo(target) {
    target = clamp(target, 0, total);
    const before = derived;
    touched = { nodes: new Set(), edges: new Set(), all: false };
    // Walking there costs |target - step| events; replaying from 0 costs target.
    if (target < step && step - target > target) { reset(); touched.all = true; }
    while (step < target) journal.push(apply(index.events[step++]));
    while (step > target) { step--; for (const undo of journal.pop()) undo(); }
    derived = derive();
    if (before.phase !== derived.phase && (before.phase === "done" || derived.phase === "done")) touched.all = true;
    for (const st of [before, derived]) {
      if (st.current) node(st.current);
      if (st.error && st.error.node) node(st.error.node);
      for (const key of st.active.keys()) edge(key);
      for (const id of st.dead) node(id);
    }
    return { ...derived, changed: touched };
  }

  // What depends on the event on screen (current node, active edges) or on the whole
  // pass (dead branches, only once its backward is done): cheap, or rare.
  function derive() {
    const event = step > 0 ? index.events[step - 1] : null;
    const dead = s.phase === "done" ? deadBranches(index, s.pass, s.visible, s.stepped, s.arrived, s.grads) : new Set();
    return { step, total, phase: s.phase, pass: s.pass, event, current: step > 0 ? eventNode(event) : null,
      visible: s.visible, grads: s.grads, arrived: s.arrived, received: s.received, stepped: s.stepped, lit: s.lit,
      active: activeEdges(index, event), nonfinite: s.nonfinite, gradNone: s.gradNone, error: s.error, dead,
      updated: s.updated };
  }
  derived = derive();
  return { moveTo, get step() { return step; } };
}

/** A move's `changed` seen through the display graph (boxes stand for their members):
 * {nodes: Set of display ids, edges: Set of display edge keys}, or null when the whole
 * view must be redrawn. */
export function displayChanges(display, changed) {
  if (!changed || changed.all) return null;
  const owner = displayEdgeOf(display);
  const nodes = new Set(), edges = new Set();
  for (const id of changed.nodes) { const d = display.groupOf.get(id); if (d) nodes.add(d); }
  for (const key of changed.edges) { const d = owner.get(key); if (d) edges.add(d); }
  return { nodes, edges };
}
