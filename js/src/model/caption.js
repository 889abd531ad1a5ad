// The sentence under the graph for the event on screen. Pure: no DOM; plain text.
// Apart from format.js because it reads the arithmetic (arith.js), which formats its
// numbers with format.js: format <- arith <- caption, no circle.
import { badgeText, nodeName, summaryText } from "./format.js";
import { forwardArithmetic, leafArithmetic } from "./arith.js";

const LISTED = 6;

// The gradients the pass left in .grad, each as its node's badge shows it, in the order
// the graph made the tensors: the answer the learner stepped for, without a click.
function gradientsSoFar(index, state) {
  const found = [...index.nodes.keys()].filter((id) => state.grads.get(id));
  if (!found.length) return "";
  const listed = found.slice(0, LISTED)
    .map((id) => `${nodeName(index.nodes.get(id))}.grad = ${badgeText(state.grads.get(id))}`);
  const more = found.length > LISTED ? `, and ${found.length - LISTED} more` : "";
  return `: ${listed.join(", ")}${more}`;
}

/** The sentence under the graph for the event on screen. */
export function caption(index, state) {
  const e = state.event;
  if (!e) return state.total ? "press ▶ or → to build the graph; click a node to inspect it" : "empty trace";
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
