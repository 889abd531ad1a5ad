// The display state (collapse.js's displayState) brought up to date after one move of
// the cursor, in place: only the boxes and edges the move named in `changed` are
// looked at again, so a step at 10,000 nodes costs what it changed, not a pass over
// every node. Equal to displayState on everything the view reads (the sets exactly;
// a map's value for a box of several members is one member's, as there). Pure: no DOM.
import { displayActive, displayEdgeOf } from "./collapse.js";

const NODE_SETS = ["visible", "stepped", "gradNone"];
const NODE_MAPS = ["grads", "received", "nonfinite", "updated"];

/** ds: the display state of the move's start, for `display`; state: the cursor's state
 * after the move (with `changed`, not `all`). Returns ds, updated. */
export function patchDisplayState(ds, display, state) {
  const groupOf = display.groupOf, members = membersOf(display);
  const groups = new Set();
  for (const id of state.changed.nodes) { const d = groupOf.get(id); if (d) groups.add(d); }
  for (const d of groups) {
    const inside = members.get(d) || [d];
    for (const name of NODE_SETS) {
      const from = state[name], to = ds[name];
      if (inside.some((m) => from.has(m))) to.add(d); else to.delete(d);
    }
    for (const name of NODE_MAPS) {
      const from = state[name] || new Map(), to = ds[name];
      let value;
      for (const m of inside) if (from.has(m)) value = from.get(m);
      if (value !== undefined) to.set(d, value); else to.delete(d);
    }
    const dead = state.dead && state.dead.size > 0 && inside.every((m) => state.dead.has(m));
    if (dead) ds.dead.add(d); else ds.dead.delete(d);
  }
  const edgeOf = displayEdgeOf(display), litMembers = litMembersOf(display);
  for (const key of state.changed.edges) {
    const d = edgeOf.get(key);
    if (!d) continue;
    if (litMembers.get(d).some((m) => state.lit.has(m))) ds.lit.add(d); else ds.lit.delete(d);
  }
  const g = (id) => (id ? groupOf.get(id) || null : null);
  return Object.assign(ds, { current: g(state.current), phase: state.phase, active: displayActive(display, state.active),
    error: state.error ? g(state.error.node) : null });
}

const memberLists = new WeakMap(); // display -> Map(box id -> its members)
function membersOf(display) {
  let out = memberLists.get(display);
  if (!out) {
    out = new Map();
    for (const d of display.nodes) if (d.members) out.set(d.id, d.members);
    memberLists.set(display, out);
  }
  return out;
}

const edgeLists = new WeakMap(); // display -> Map(display edge key -> its trace edges)
function litMembersOf(display) {
  let out = edgeLists.get(display);
  if (!out) {
    out = new Map(display.edges.map((e) => [e.key, e.members]));
    edgeLists.set(display, out);
  }
  return out;
}
