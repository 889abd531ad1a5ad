// Outlines: the structure a flat drawing loses. Pure: no DOM.
//
// - A module call: the nodes one call of an nn.Module made. The document gives each
//   node its innermost module path (`scope`), not the call, so a call is a run of
//   nodes, in creation order, whose scope starts with that path; a node outside it
//   ends the run. Nested calls nest. A collapsed module's box sits in its parent's call.
// - Repeats: calls of the same module one after another in the same parent call,
//   with only the parent's own nodes between them (`h = layer(h).clamp(0)` in a
//   loop), are outlined together as "layer ×N"; so are runs of ops outside any
//   module that repeat the same ops from the same instructions (`while ...: y = y * 2`;
//   the document's line offset says which instruction), outlined as "×N" with the code.
import { prefixes, SCOPE_PREFIX } from "./collapse.js";

const MAX_PERIOD = 4; // ops in one iteration of a loop outside modules

/**
 * Returns [{id, kind: "module"|"repeat", label, scope?, parent: id|null, members: [display id]}],
 * parents before children; members are the display nodes directly or deeply inside.
 */
export function findOutlines(index, display) {
  const outlines = [], open = [];
  const add = (o) => { outlines.push(o); return o; };
  const top = []; // top-level items in order: {node} or {call}
  for (const d of display.nodes) {
    const path = scopeOf(index, d);
    const scopes = prefixes(path);
    let depth = 0;
    while (depth < open.length && depth < scopes.length && open[depth].scope === scopes[depth]) depth++;
    open.length = depth; // the calls this node is not in have ended
    for (let i = depth; i < scopes.length; i++) {
      const call = add({ id: `call:${outlines.length}`, kind: "module", scope: scopes[i],
        label: scopes[i].split(".").pop(), parent: i ? open[i - 1].id : null, members: [], items: [] });
      (i ? open[i - 1].items : top).push({ call });
      open.push(call);
    }
    for (const call of open) call.members.push(d.id);
    (open.length ? open[open.length - 1].items : top).push({ node: d });
  }
  const repeats = [];
  for (const call of [{ id: null, items: top }, ...outlines]) {
    repeats.push(...moduleRepeats(index, call), ...lineRepeats(index, call));
  }
  for (const o of outlines) delete o.items;
  // a repeat outline is the parent of the calls it holds
  for (const r of repeats) for (const o of outlines) if (r.calls.includes(o.id)) o.parent = r.id;
  for (const r of repeats) delete r.calls;
  const all = [...repeats, ...outlines];
  const byId = new Map(all.map((o) => [o.id, o]));
  const depth = (o) => (o.parent ? 1 + depth(byId.get(o.parent)) : 0);
  return all.map((o) => [depth(o), o]).sort((a, b) => a[0] - b[0]).map(([, o]) => o); // parents first
}

function scopeOf(index, d) {
  if (d.kind === "scope") return d.id.slice(SCOPE_PREFIX.length).split(".").slice(0, -1).join(".");
  const node = index.nodes.get(d.id);
  return (node && node.scope) || "";
}

// Consecutive calls of one module among a call's items, with only plain nodes between,
// in one pass (a backward between two calls makes them two passes, not a loop).
function moduleRepeats(index, parent) {
  const out = [];
  let run = [];
  const flush = () => {
    if (run.length > 1) {
      const calls = run.filter((it) => it.call).map((it) => it.call);
      const last = run.map((it) => !!it.call).lastIndexOf(true);
      const members = run.slice(0, last + 1).flatMap((it) => (it.call ? it.call.members : [it.node.id]));
      if (calls.length > 1) {
        out.push({ id: `repeat:${calls[0].id}`, kind: "repeat", label: `${calls[0].label} ×${calls.length}`,
          scope: calls[0].scope, parent: parent.id, members, calls: calls.map((c) => c.id) });
      }
    }
    run = [];
  };
  for (const it of parent.items) {
    if (it.call) {
      const first = run.find((r) => r.call);
      const pass = (c) => index.nodePass.get(c.members[0]);
      if (first && (first.call.scope !== it.call.scope || pass(first.call) !== pass(it.call))) flush();
      run.push(it);
    } else if (run.length) run.push(it);
  }
  flush();
  return out;
}

// Where an op was made: the document's bytecode offset (1.4) tells the instruction, so
// only the same instruction running again repeats; `x * x + 3 * x` has two products on
// one line, not a loop. A document before 1.4 has only the line to go by.
const site = (line) => (line ? `${line.file}:${line.function}:${line.lineno}:${line.offset ?? ""}` : "");

// Runs of ops directly in this call (no module between) that repeat with a short period.
function lineRepeats(index, parent) {
  const out = [];
  const items = parent.items;
  const ops = [];
  items.forEach((it, i) => { if (it.node && it.node.kind === "op") ops.push(i); });
  const sigs = new Map(ops.map((i) => { const n = index.nodes.get(items[i].node.id); return [i, `${n.op}@${site(n.line)}`]; }));
  const sig = (i) => sigs.get(i);
  // calls[i]: module calls among items[0..i), so "none between a and b" costs O(1)
  // (checked by slicing, a 5,000-op loop took ~0.4 s of the first picture)
  const calls = [0];
  items.forEach((it, i) => calls.push(calls[i] + (it.node ? 0 : 1)));
  const plain = (a, b) => calls[b] === calls[a]; // no module call between
  let k = 0;
  while (k < ops.length) {
    let best = null;
    for (let p = 1; p <= MAX_PERIOD && k + 2 * p <= ops.length; p++) {
      let n = 1;
      while (k + (n + 1) * p <= ops.length && [...Array(p).keys()].every((j) => sig(ops[k + j]) === sig(ops[k + n * p + j]))
        && plain(ops[k], ops[k + (n + 1) * p - 1] + 1)) n++;
      if (n > 1 && (!best || n * p > best.n * best.p)) best = { p, n };
    }
    if (!best) { k++; continue; }
    const first = ops[k], lastOp = ops[k + best.n * best.p - 1];
    let end = lastOp + 1; // the last op's output tensor belongs to the loop too
    while (end < items.length && items[end].node && items[end].node.kind === "tensor"
      && index.producer.get(items[end].node.id) === items[lastOp].node.id) end++;
    const node = index.nodes.get(items[first].node.id);
    const lines = new Set(ops.slice(k, k + best.p).map((i) => (index.nodes.get(items[i].node.id).line || {}).lineno));
    const code = lines.size === 1 && node.line && node.line.code ? node.line.code.trim() : "";
    out.push({ id: `repeat:${items[first].node.id}`, kind: "repeat", label: code ? `×${best.n}  ${code}` : `×${best.n}`,
      parent: parent.id, members: items.slice(first, end).map((it) => it.node.id), calls: [] });
    k += best.n * best.p;
  }
  return out;
}
