// The optimizer's update on screen (issue 33 item 4): what the step panel writes at an
// `update` event, `w: old − lr × (…) = new` in the optimizer's own numbers with its terms
// written out (momentum buffer; Adam's m, v and bias corrections; weight decay), and at a
// `grads_cleared` event which gradients zero_grad() forgot. Pure: every number is the
// document's, only formatted (format.js).
import { nodeName, num, summaryText } from "./format.js";

/** Whether an event belongs to the update that follows backward. */
export const isUpdateEvent = (e) => !!e && (e.type === "update" || e.type === "grads_cleared");

// A summary as a line writes it: a scalar's number, a small tensor's entries, a large one's statistics.
function shown(s) {
  if (!s) return "–";
  if (Array.isArray(s.values) && s.values.length === 1) return num(s.values[0]);
  return summaryText(s, { max: 8 });
}

function gradientLine(name, v, s, coupled) {
  const decay = coupled && s.weight_decay ? ` (.grad + ${num(s.weight_decay)} × ${name}: weight decay)` : "";
  return `g = ${shown(v.grad)}${decay}`;
}

function sgdLines(name, v, s) {
  const lines = [`${name}: ${shown(v.old)} − ${num(s.lr)} × ${s.momentum ? (s.nesterov ? "(g + momentum × buf)" : "buf") : "g"}`
    + ` = ${shown(v.old)} − ${num(s.lr)} × ${shown(v.direction)} = ${shown(v.new)}`, gradientLine(name, v, s, true)];
  if (s.momentum) {
    const damp = s.dampening ? `(1 − ${num(s.dampening)}) × g` : "g";
    lines.push(`buf = ${num(s.momentum)} × buf + ${damp} = ${shown(v.momentum_buffer)} (the first step: buf = g)`);
  }
  return lines;
}

function adamLines(name, v, s) {
  const [beta1, beta2] = s.betas || [];
  const decayed = s.decoupled_weight_decay && s.weight_decay
    ? `${shown(v.old)} × (1 − ${num(s.lr)} × ${num(s.weight_decay)})` : shown(v.old);
  const decay = s.decoupled_weight_decay && s.weight_decay ? ` × (1 − lr × ${num(s.weight_decay)})` : "";
  const second = s.amsgrad ? "max v" : "v";
  return [
    `${name}: ${name}${decay} − ${num(s.lr)} × m̂ / (√v̂ + ε) = ${decayed} − ${num(s.lr)} × ${shown(v.direction)}`
      + ` = ${shown(v.new)}`,
    gradientLine(name, v, s, !s.decoupled_weight_decay),
    `m = ${num(beta1)} × m + (1 − ${num(beta1)}) × g = ${shown(v.exp_avg)}`,
    `${second} = ${num(beta2)} × v + (1 − ${num(beta2)}) × g² = ${shown(v.exp_avg_sq)}`,
    `step ${num(s.step)}: m̂ = m / (1 − ${num(beta1)}^${num(s.step)}) = m / ${num(s.bias_correction1)},`
      + ` v̂ = ${second} / (1 − ${num(beta2)}^${num(s.step)}) = ${second} / ${num(s.bias_correction2)}, ε = ${num(s.eps)}`,
  ];
}

/** The lines for an update or grads_cleared event (none for any other event). */
export function updateLines(index, event) {
  if (!isUpdateEvent(event)) return [];
  if (event.type === "grads_cleared") {
    const names = (event.nodes || []).map((id) => `${nodeName(index.nodes.get(id))}.grad`);
    if (!names.length) return ["zero_grad(): no parameter held a gradient"];
    return [`zero_grad(): ${names.join(", ")} ${event.set_to_none ? "set to None" : "set to zeros"}`];
  }
  const name = nodeName(index.nodes.get(event.node));
  const v = event.values || {}, s = event.settings || {};
  if (v.exp_avg) return adamLines(name, v, s);
  if (v.direction) return sgdLines(name, v, s);
  return [`${name}: ${shown(v.old)} → ${shown(v.new)}`]; // an optimizer this page has no words for yet
}

/** The caption of an update or grads_cleared event. */
export function updateCaption(index, event) {
  if (event.type === "grads_cleared") return "zero_grad(): the gradients are cleared, ready for the next pass";
  const name = nodeName(index.nodes.get(event.node));
  return `update (${event.optimizer}.step): ${name} ${shown(event.values.old)} → ${shown(event.values.new)}`;
}
