// What the camera should show for the state on screen (display ids): the current node on
// a step; at the end of a pass the answer (the loss and the leaves it reached, not the
// last node alone; on a big graph its loss); while a big graph waits for its backward,
// the whole graph (its current node, the loss, sits at the far end: centred on it, the
// graph's start is cut).

/** Above this many display nodes the graph at a forward's end is shown whole. */
export const BIG_GRAPH = 300;

/** ``{kind: "node", id}``, ``{kind: "answer", ids}``, ``{kind: "whole"}`` or ``{kind: "none"}``
 *  for ``state`` (timeline.js ``stateAt``) drawn as ``display`` (collapse.js). */
export function viewpoint(index, state, display) {
  const shown = (id) => display.groupOf.get(id);
  const waits = state.step > 0 && index.events[state.step] && index.events[state.step].type === "backward_begin";
  if (waits && display.nodes.length > BIG_GRAPH) return { kind: "whole" };
  const current = state.current ? shown(state.current) : null;
  if (current) return { kind: "node", id: current };
  if (state.phase !== "done") return { kind: "none" };
  // A big graph's answer spans all of it, unreadable and seconds to paint at that zoom:
  // its loss, readable, stands for it (f shows the whole).
  const roots = passRoots(index, state).map(shown).filter(Boolean);
  if (display.nodes.length > BIG_GRAPH && roots.length) return { kind: "node", id: roots[0] };
  const ids = new Set();
  for (const id of [...passRoots(index, state), ...state.grads.keys(), ...state.gradNone]) {
    const d = shown(id);
    if (d && state.visible.has(id)) ids.add(d);
  }
  return ids.size ? { kind: "answer", ids: [...ids] } : { kind: "none" };
}

// The roots (the loss) of the last backward begun before ``state.step``.
function passRoots(index, state) {
  for (let i = state.step - 1; i >= 0; i--) {
    const e = index.events[i];
    if (e.type === "backward_begin") return e.roots || [];
  }
  return [];
}
