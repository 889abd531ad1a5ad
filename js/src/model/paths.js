// A gradient as the sum over paths (issue 33), from the document alone: every way a
// tensor reaches the output of a backward pass, the local derivatives along each path
// (the backward steps' `local`), their product, and the sum, which is what backward
// computed. An op that uses the tensor twice (x * x) is one step of a path whose local
// derivative is the sum of both (2 + 2 at x = 2). The same as ag_jupyter/tracing/paths.py.
import { nodeName } from "./format.js";

export const LISTED = 20; // paths listed in full; the rest are counted

const scalarOf = (s) => (s && s.values && s.values.length === 1 && (s.shape || []).length <= 1
  ? Number(s.values[0]) : null);

/** The events of backward pass `passIndex` (the last with a backward when undefined), or null. */
function passEvents(doc, passIndex) {
  const passes = (doc.passes || []).filter((p) => p.backward);
  if (!passes.length) return null;
  const chosen = passIndex === undefined || passIndex < 0 ? passes[passes.length - 1]
    : passes.find((p) => p.index === passIndex);
  return chosen ? { index: chosen.index, events: doc.events.slice(chosen.first_event, chosen.last_event + 1) } : null;
}

/**
 * The paths from tensor `id` to the root of a backward pass: {count, paths: [{nodes, ops,
 * names, locals: [{op, parts, local}], product}], sum?, backward, meetings, scalar, root};
 * null where the pass has no backward or the node is not on it.
 */
export function pathsTo(doc, id, passIndex = undefined, listed = LISTED) {
  const found = doc && passEvents(doc, passIndex);
  if (!found) return null;
  const nodes = new Map(doc.nodes.map((n) => [n.id, n]));
  const begin = found.events.find((e) => e.type === "backward_begin");
  if (!begin || !nodes.has(id) || nodes.get(id).kind !== "tensor") return null;
  const root = begin.roots[0];
  const steps = new Map();
  for (const e of found.events) if (e.type === "backward_step" && !steps.has(e.node)) steps.set(e.node, e);
  const consumers = new Map(), outputOf = new Map();
  for (const { src, dst, arg } of doc.edges) {
    if (nodes.get(src).kind === "tensor" && steps.has(dst)) {
      if (!consumers.has(src)) consumers.set(src, new Map());
      const ops = consumers.get(src);
      if (!ops.has(dst)) ops.set(dst, []);
      ops.get(dst).push(arg);
    } else if (nodes.get(src).kind === "op") outputOf.set(src, dst);
  }
  const counts = new Map();
  const count = (t) => {
    if (t === root) return 1;
    if (!counts.has(t)) {
      counts.set(t, 0);
      let n = 0;
      for (const op of (consumers.get(t) || new Map()).keys()) if (outputOf.has(op)) n += count(outputOf.get(op));
      counts.set(t, n);
    }
    return counts.get(t);
  };
  const total = count(id);
  const hopsFound = [];
  const walk = (t, hops) => {
    if (hopsFound.length >= listed) return;
    if (t === root) { hopsFound.push([...hops]); return; }
    for (const [op, args] of consumers.get(t) || []) {
      const out = outputOf.get(op);
      if (out !== undefined && count(out)) { hops.push([t, op, args]); walk(out, hops); hops.pop(); }
    }
  };
  walk(id, []);
  const scalar = [...steps.values()].every((s) => scalarOf(s.grad_output) !== null);
  const paths = hopsFound.map((hops) => onePath(hops, root, nodes, steps, scalar));
  let received = 0, any = false;
  for (const s of steps.values()) for (const g of s.grad_inputs) if (g.node === id) { any = true; received += scalarOf(g.grad) || 0; }
  const result = { node: id, name: nodeName(nodes.get(id)), root, rootName: nodeName(nodes.get(root)),
    pass: found.index, count: total, paths, scalar, backward: scalar && any ? received : null,
    meetings: meetings(id, root, consumers, outputOf, count, nodes) };
  if (scalar && total === paths.length) result.sum = paths.reduce((a, p) => a + p.product, 0);
  return result;
}

function onePath(hops, root, nodes, steps, scalar) {
  const path = { nodes: [...hops.map((h) => h[0]), root], ops: hops.map((h) => h[1]),
    names: [...hops.map((h) => nodeName(nodes.get(h[0]))), nodeName(nodes.get(root))] };
  if (!scalar) {
    const [, op, args] = hops[0];
    const sent = steps.get(op).grad_inputs.filter((g) => args.includes(g.arg));
    path.lastGradient = sent.length === 1 ? sent[0].grad : null;
    return path;
  }
  let product = 1;
  path.locals = hops.map(([, op, args]) => {
    const parts = steps.get(op).grad_inputs.filter((g) => args.includes(g.arg)).map((g) => g.local ?? null);
    const received = scalarOf(steps.get(op).grad_output);
    const local = parts.some((p) => p === null) ? (received === 0 ? null : NaN) : parts.reduce((a, b) => a + b, 0);
    product = local === null ? 0 : product * local;
    return { op, parts, local };
  });
  path.product = product;
  return path;
}

// Where paths from `start` meet: tensors more than one of whose uses lead on to the root
// (backward adds the branches there, once, which is why it is cheap).
function meetings(start, root, consumers, outputOf, count, nodes) {
  const seen = new Set(), out = [], todo = [start];
  while (todo.length) {
    const t = todo.pop();
    if (seen.has(t) || t === root) continue;
    seen.add(t);
    let uses = 0;
    for (const [op, args] of consumers.get(t) || []) {
      if (outputOf.has(op) && count(outputOf.get(op))) { uses += args.length; todo.push(outputOf.get(op)); }
    }
    if (uses > 1) out.push({ node: t, name: nodeName(nodes.get(t)), branches: uses });
  }
  return out;
}
