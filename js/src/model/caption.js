// The sentence under the graph for the event on screen. Pure: no DOM; plain text.
// Apart from format.js because it reads the arithmetic (arith.js), which formats its
// numbers with format.js: format <- arith <- caption, no circle.
import { badgeText, nodeName, summaryText } from "./format.js";
import { forwardArithmetic, leafArithmetic } from "./arith.js";
import { isUpdateEvent, updateCaption } from "./updates.js";

const LISTED = 6;

// The gradients the pass left in .grad, each as its node's badge shows it (a small
// matrix keeps its rows: a 2×2 read as four numbers hides which is which), in the order
// the graph made the tensors: the answer the learner stepped for, without a click.
function gradientsSoFar(index, state) {
  const found = [...index.nodes.keys()].filter((id) => state.grads.get(id));
  if (!found.length) return "";
  const shown = (g) => ((g.shape || []).length > 1 && (g.values || []).length <= LISTED
    ? summaryText(g, { max: LISTED }) : badgeText(g));
  const listed = found.slice(0, LISTED)
    .map((id) => `${nodeName(index.nodes.get(id))}.grad = ${shown(state.grads.get(id))}`);
  const more = found.length > LISTED ? `, and ${found.length - LISTED} more` : "";
  return `: ${listed.join(", ")}${more}`;
}

// The forward is built and its backward waits: the next event begins it, or (live)
// the kernel has not run it yet.
function atForwardEnd(index, state, live) {
  const next = index.events[state.step];
  if (next) return next.type === "backward_begin";
  return live && state.event.type === "create";
}

export const WAITS_FOR_BACKWARD = "the graph is built: press → to step the backward pass one node at a time, or ▶ to play it";
export const NO_BACKWARD = "the graph is built; no backward pass was recorded (← steps back through the forward)";

/** The sentence under the graph for the event on screen. Where the widget waits for
 * the learner (at 0, at a forward's end) it also says what to press; while playing it
 * says what is happening, never "press ▶". */
export function caption(index, state, { playing = false, live = false } = {}) {
  const e = state.event;
  if (!e) {
    if (!state.total) return "empty trace";
    return playing ? "building the graph: it pauses where the backward pass begins"
      : "press ▶ to build the graph (→ adds one node at a time); click a node to inspect it";
  }
  const said = eventCaption(index, state, e);
  if (!playing && atForwardEnd(index, state, live)) return `${said} — ${WAITS_FOR_BACKWARD}`;
  // a graph drawn without running backward (ag.show of a tensor): nothing waits, say so
  if (!playing && !live && state.step === state.total && !index.roots.size && e.type === "create") {
    return `${said} — ${NO_BACKWARD}`;
  }
  return said;
}

function eventCaption(index, state, e) {
  if (isUpdateEvent(e)) return updateCaption(index, e);
  const node = index.nodes.get(e.node);
  switch (e.type) {
    case "create":
      if (node && node.kind === "op") return `forward: ${node.op} (${node.symbol})`;
      // the arithmetic when the numbers are small enough to read (arith.js)
      return `forward: ${forwardArithmetic(index, e.node) || leafArithmetic(index, e.node) || `${nodeName(node)} created`}`;
    case "backward_begin":
      return `backward from ${(e.roots || []).map((r) => nodeName(index.nodes.get(r))).join(", ")}`;
    case "backward_step":
      return `backward: ${nodeName(node)} receives ${e.grad_output ? summaryText(e.grad_output, { max: 6 }) : "no gradient"}`;
    case "accumulate":
      return `${nodeName(node)}.grad = ${summaryText(e.grad, { max: 6 })}`;
    case "backward_end":
      return e.completed ? `backward done${gradientsSoFar(index, state)}` : "backward stopped";
    case "error":
      return `${e.error_type}: ${e.message}`;
    default:
      return e.type;
  }
}
