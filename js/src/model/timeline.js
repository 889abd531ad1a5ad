// The timeline: what the picture shows after the first `step` events of a trace.
// Pure: no DOM. The state is recomputed from the events (O(step) with Set/Map
// work, ~1 ms for 10,000 events), which keeps it a plain function of (trace, step)
// and makes scrubbing backwards as cheap as forwards.

const BACKWARD = new Set(["backward_begin", "backward_step", "accumulate"]);

/** @typedef {import("./document.js").TraceDocument} TraceDocument */
/** @typedef {import("./document.js").TraceNode} TraceNode */
/** @typedef {import("./document.js").TraceEvent} TraceEvent */

/**
 * Indexes a trace document once: lookups the other modules need per step.
 * @param {TraceDocument | null | undefined} trace
 */
export function indexTrace(trace) {
  /** @type {TraceDocument} */
  const doc = trace && Array.isArray(trace.nodes) ? trace : { nodes: [], edges: [], events: [], passes: [] };
  /** @type {Map<string, TraceNode>} */
  const nodes = new Map();
  const createdAt = new Map(), nodePass = new Map();
  for (const node of doc.nodes) nodes.set(node.id, node);
  const events = doc.events || [];
  events.forEach((e, i) => {
    if (e.type === "create" && !createdAt.has(e.node)) {
      createdAt.set(e.node, i);
      nodePass.set(e.node, e.pass || 0);
    }
  });
  const edges = (doc.edges || []).filter((e) => nodes.has(e.src) && nodes.has(e.dst))
    .map((e) => ({ ...e, key: edgeKey(e.src, e.dst) }));
  const inputs = new Map(), outputs = new Map(), consumers = new Map(), producer = new Map();
  const push = (map, k, v) => (map.get(k) || map.set(k, []).get(k)).push(v);
  for (const e of edges) {
    if (nodes.get(e.dst).kind === "op") { push(inputs, e.dst, e); push(consumers, e.src, e.dst); }
    else { push(outputs, e.src, e); producer.set(e.dst, e.src); }
  }
  const passes = doc.passes && doc.passes.length ? doc.passes
    : [{ index: 0, first_event: 0, last_event: events.length - 1, backward: false,
      params_used: [], params_unused: [], params_with_grad: [], grad_none: null }];
  const uncreated = [...nodes.keys()].filter((id) => !createdAt.has(id));
  const roots = new Set();
  for (const e of events) if (e.type === "backward_begin") for (const r of e.roots || []) roots.add(r);
  return { doc, nodes, events, edges, createdAt, nodePass, inputs, outputs, consumers, producer, passes, roots, uncreated };
}

export const edgeKey = (src, dst) => `${src}>${dst}`;

/** The role that colours a tensor: leaf (requires grad: parameters and inputs),
 * constant, output (a backward root, or nothing consumes it) or intermediate. */
/**
 * @param {ReturnType<typeof indexTrace>} index
 * @param {TraceNode} node
 */
export function tensorRole(index, node) {
  if (node.kind !== "tensor") return node.kind;
  if (!node.requires_grad) return "constant";
  if (node.is_leaf) return "leaf";
  if (index.roots.has(node.id) || !index.consumers.has(node.id)) return "output";
  return "intermediate";
}

/** Which node an event is about (the node drawn as current). */
export function eventNode(event) {
  if (!event) return null;
  if (event.node) return event.node;
  if (event.type === "backward_begin" && event.roots && event.roots.length) return event.roots[0];
  return null;
}

/**
 * The view after `step` events (0 = nothing shown).
 * @param {ReturnType<typeof indexTrace>} index
 * @param {number} step
 */
export function stateAt(index, step) {
  const total = index.events.length;
  step = clamp(step, 0, total);
  // A node with no create event (a hand-made document) is there from the start.
  const visible = new Set(index.uncreated), grads = new Map(), arrived = new Map(), stepped = new Set();
  // A computed tensor's gradient (∂root/∂t) so far: what its consumers sent (the
  // document's running `total` when several did), then its op's grad_output (the
  // root's only source: nobody sends the root its 1).
  const received = new Map();
  const lit = new Set(), nonfinite = new Map();
  // A parameter's value after the optimizer's updates so far (kept across passes: the next
  // forward reads the updated weights).
  const updated = new Map();
  let gradNone = new Set(), error = null, phase = "start", event = null, pass = 0;
  for (let i = 0; i < step; i++) {
    event = index.events[i];
    // Each pass shows its own gradients: a badge from the pass before would claim a
    // .grad this pass never computed (or that zero_grad set to None).
    if ((event.pass || 0) !== pass) {
      grads.clear(); arrived.clear();
      for (const id of [...received.keys()]) if (!keptAcrossPasses(index, id, event.pass || 0)) received.delete(id);
    }
    pass = event.pass || 0;
    switch (event.type) {
      case "create":
        visible.add(event.node);
        phase = "forward";
        if (event.nonfinite_origin) nonfinite.set(event.node, "value");
        break;
      case "backward_begin":
        phase = "backward";
        gradNone = new Set();
        break;
      case "backward_step": {
        phase = "backward";
        stepped.add(event.node);
        for (const out of index.outputs.get(event.node) || []) {
          lit.add(out.key);
          if (event.grad_output) received.set(out.dst, event.grad_output);
        }
        for (const g of event.grad_inputs || []) {
          if (!g.node) continue;
          lit.add(edgeKey(g.node, event.node));
          if (g.grad) { arrived.set(g.node, g.grad); received.set(g.node, g.total || g.grad); }
        }
        if (event.nonfinite_origin) nonfinite.set(event.node, "grad");
        break;
      }
      case "accumulate":
        phase = "backward";
        grads.set(event.node, event.grad);
        if (event.grad && (event.grad.nan || event.grad.inf)) nonfinite.set(event.node, "grad");
        break;
      case "backward_end":
        phase = "done";
        gradNone = new Set(event.grad_none || []);
        for (const id of gradNone) grads.delete(id);
        break;
      case "update":
        phase = "update";
        if (event.values && event.values.new) updated.set(event.node, event.values.new);
        break;
      case "grads_cleared":
        phase = "update";
        for (const id of event.nodes || []) {
          grads.delete(id);
          if (event.set_to_none) gradNone.add(id);
        }
        break;
      case "error":
        phase = "error";
        error = { node: event.node || null, type: event.error_type, message: event.message,
          line: event.line || null, op: event.op || null };
        break;
      default:
        break; // a newer minor version may add event types: skip what we do not know
    }
  }
  const current = step > 0 ? eventNode(event) : null;
  const dead = phase === "done" ? deadBranches(index, pass, visible, stepped, arrived, grads) : new Set();
  const active = activeEdges(index, step > 0 ? event : null);
  return { step, total, phase, pass, event: step > 0 ? event : null, current, visible, grads, arrived,
    received, stepped, lit, active, nonfinite, gradNone, error, dead, updated };
}

/** Whether the gradient `received` holds for `id` outlives the start of pass `pass`: a
 * computed tensor's ∂root/∂t is its own pass's, so in "all passes" an earlier pass's
 * tensors keep what their backward left instead of the "not on the path" None. */
export function keptAcrossPasses(index, id, pass) {
  const node = index.nodes.get(id);
  return !!node && !node.is_leaf && (index.nodePass.get(id) || 0) < pass;
}

// After a pass's backward, what it never reached: ops it did not step, tensors that
// require grad yet got no gradient (a branch the loss does not depend on). Constants
// are drawn as constants already.
export function deadBranches(index, pass, visible, stepped, arrived, grads) {
  const dead = new Set();
  for (const id of visible) {
    const node = index.nodes.get(id);
    if (!node || (index.nodePass.get(id) || 0) !== pass) continue;
    if (node.kind === "op" ? !stepped.has(id)
      : node.requires_grad && !arrived.has(id) && !grads.has(id) && !index.roots.has(id)) dead.add(id);
  }
  return dead;
}

// Edges that carry the current event's gradient: the op's output edge (the
// gradient arriving) and its input edges (the products sent back).
export function activeEdges(index, event) {
  const active = new Map();
  if (!event || event.type !== "backward_step") return active;
  for (const out of index.outputs.get(event.node) || []) active.set(out.key, { dir: "in", grad: event.grad_output });
  for (const g of event.grad_inputs || []) {
    if (g.node) active.set(edgeKey(g.node, event.node), { dir: "out", grad: g.grad, arg: g.arg });
  }
  return active;
}

/** The step range [min, max] a pass covers (pass -1: the whole trace). A pass starts
 * on its own first event: the step before it is the previous pass's end. */
export function passRange(index, passIndex) {
  const total = index.events.length;
  const p = passIndex >= 0 ? index.passes[passIndex] : null;
  if (!p) return { min: 0, max: total };
  return { min: Math.min(total, p.first_event + 1), max: Math.min(total, p.last_event + 1) };
}

/** Segments of the scrubber: runs of forward / backward / error events, by pass. */
export function phaseSegments(index) {
  const segs = [];
  index.events.forEach((e, i) => {
    const phase = e.type === "error" ? "error" : BACKWARD.has(e.type) || e.type === "backward_end" ? "backward"
      : e.type === "update" || e.type === "grads_cleared" ? "update" : "forward";
    const last = segs[segs.length - 1];
    if (last && last.phase === phase && last.pass === (e.pass || 0)) last.to = i + 1;
    else segs.push({ from: i, to: i + 1, phase, pass: e.pass || 0 });
  });
  return segs;
}

/** True when, in live mode, stepping past the last event should ask Python for more:
 * the backward the kernel holds has not ended. Before its first step the document
 * ends with the forward pass (the kernel records backward_begin only when it runs). */
export function canAdvance(index) {
  const last = index.events[index.events.length - 1];
  return !!last && last.type !== "backward_end" && last.type !== "error";
}

/** The steps where a forward pass is built and its backward not begun (the next
 * event is a backward_begin): playing pauses there, so the backward waits for the
 * learner (→ steps it, ▶ plays it) and never runs past unseen. */
export function forwardEnds(index) {
  const ends = [];
  index.events.forEach((e, i) => { if (e.type === "backward_begin" && i > 0) ends.push(i); });
  return ends;
}

/**
 * The player as a pure reducer. state: {step, min, max, playing, live, canAdvance,
 * pauses?} (pauses: forwardEnds). Returns a new state; `advance: true` asks the host
 * (Python) for the next event.
 */
export function player(state, action) {
  const s = { ...state, advance: false };
  const at = (n) => clamp(n, s.min, s.max);
  switch (action.type) {
    case "first": return { ...s, step: s.min, playing: false };
    case "last": // live: run the rest of the real backward (Python answers with the end)
      return s.live && s.canAdvance ? { ...s, step: s.max, playing: false, advance: "all" }
        : { ...s, step: s.max, playing: false };
    case "back": return { ...s, step: at(s.step - 1), playing: false };
    case "goto": return { ...s, step: at(action.step) };
    case "step": return forward({ ...s, playing: false });
    case "pause": return { ...s, playing: false };
    case "play": return { ...s, playing: true, step: s.step >= s.max && !(s.live && s.canAdvance) ? s.min : s.step };
    case "toggle": return player(s, { type: s.playing ? "pause" : "play" });
    case "tick": return s.playing ? forward(s) : s;
    case "bounds": return { ...s, min: action.min, max: action.max, step: clamp(s.step, action.min, action.max) };
    default: return s;
  }
}

function forward(s) {
  if (s.step < s.max) {
    const step = s.step + 1;
    const pause = (s.pauses || []).includes(step);
    return { ...s, step, playing: s.playing && !pause && (step < s.max || (s.live && s.canAdvance)) };
  }
  if (s.live && s.canAdvance) return { ...s, advance: true };
  return { ...s, playing: false };
}

/** Milliseconds between ticks for `speed` events per second (clamped to sane values). */
export function tickDelay(speed) {
  const v = Number(speed);
  return Math.round(1000 / clamp(Number.isFinite(v) && v > 0 ? v : 4, 0.25, 60));
}

export function clamp(v, lo, hi) {
  return Math.min(hi, Math.max(lo, Number.isFinite(v) ? v : lo));
}

/** The source line the code strip shows for ``state``: the error's, else the current
 *  node's; once a pass's backward is done no node is current, and the strip keeps the line
 *  that made the pass's root (the loss) rather than going blank. */
export function stripLine(index, state) {
  const current = index.nodes.get(state.current);
  const line = (state.error && state.error.line) || (current && current.line);
  if (line || state.phase !== "done") return line || null;
  for (const id of index.roots) {
    const node = index.nodes.get(id);
    if (node && node.line && (index.nodePass.get(id) || 0) === state.pass) return node.line;
  }
  return null;
}
