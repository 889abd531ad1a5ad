// The graph in words, for a screen reader: each node's accessible name (what a sighted
// learner reads on its box), the graph's own description, and the sentence that
// announces a step. Pure: no DOM. Every number is the document's, formatted by
// format.js (never computed); a minus is written "−" so it is read "minus", not "dash".
import { num, nodeName, tensorName, summaryText } from "./format.js";
import { forwardArithmetic, leafArithmetic } from "./arith.js";
import { valueView, gradState } from "./nodecontent.js";
import { caption } from "./caption.js";

/** A PyTorch op name as a word and, for two operands, the word between them. */
const OP_WORDS = {
  AddBackward0: ["add", "plus"], SubBackward0: ["subtract", "minus"], RsubBackward1: ["subtract", "minus"],
  MulBackward0: ["multiply", "times"], DivBackward0: ["divide", "divided by"], PowBackward0: ["power", "to the power"],
  PowBackward1: ["power", "to the power"], MmBackward0: ["matrix multiply", "matrix times"],
  MvBackward0: ["matrix-vector multiply", "matrix times"], BmmBackward0: ["batch matrix multiply", "matrix times"],
  NegBackward0: ["negate"], ExpBackward0: ["exponential"], LogBackward0: ["logarithm"], TanhBackward0: ["tanh"],
  SigmoidBackward0: ["sigmoid"], ReluBackward0: ["relu"], SumBackward0: ["sum"], SumBackward1: ["sum"],
  MeanBackward0: ["mean"], MeanBackward1: ["mean"], SqrtBackward0: ["square root"], TBackward0: ["transpose"],
  AddmmBackward0: ["linear layer (add, matrix multiply)"], ViewBackward0: ["view"], ReshapeAliasBackward0: ["reshape"],
};

/** "−3" for -3: numbers as they are read aloud. */
export function spoken(text) {
  return String(text).replace(/(^|[\s([,=])-(?=\d|inf)/g, "$1−");
}

// A one-number tensor's number as its box writes it, else null (no preview decoded).
const scalarText = (s) => (s && Array.isArray(s.values) && s.values.length === 1 ? num(s.values[0]) : null);

const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The op's word ("multiply"), its PyTorch name when it has none here. */
export function opWord(node) {
  const words = OP_WORDS[node && node.op];
  if (words) return words[0];
  const name = (node && (node.op || node.symbol)) || "op";
  return name.replace(/Backward\d*$/, "");
}

// A tensor's value as its box shows it: the number, the small grid's rows, or (large)
// its shape with min and max.
function valueWords(node, view) {
  const v = view === undefined ? valueView(node.value) : view;
  if (!v) return Array.isArray(node.shape) && node.shape.length ? `shape ${shapeWords(node.shape)}` : "";
  if (v.kind === "scalar") return `value ${v.text}`;
  if (v.kind === "grid") return `shape ${shapeWords(node.shape)}, values ${v.rows.map((r) => r.join(", ")).join("; ")}`;
  const sampled = node.value && node.value.sampled ? " (from a sample)" : "";
  const bad = v.bad ? `, ${v.bad} entries` : "";
  return `shape ${shapeWords(node.shape)}, min ${v.min}, max ${v.max}${sampled}${bad}`;
}

const shapeWords = (shape) => (Array.isArray(shape) ? shape.join(" by ") : "unknown");

function gradWords(info) {
  if (info.state === "pending") return "gradient not computed yet";
  if (info.state === "none") return "gradient None, not on the path";
  const s = info.summary;
  if (Array.isArray(s.values) && s.values.length <= 16) return `gradient ${summaryText(s, { max: 16 })}`;
  return `gradient norm ${num(s.norm)}`;
}

/** What a tensor is, in the key's words. */
const ROLE_WORDS = { leaf: "leaf", output: "output", constant: "constant", intermediate: "intermediate" };

/**
 * The accessible name of display node `d` (collapse.displayGraph) in display state `ds`:
 * `a, leaf, value 2, gradient −3`; an op: `multiply, a times b, gives a*b = −6`; a
 * collapsed module: `module fc1, 4 nodes inside, collapsed`.
 */
export function nodeLabel(index, d, ds) {
  if (d.kind === "scope") return `module ${d.scope}, ${count(d.members.length, "node")} inside, collapsed`;
  const node = index.nodes.get(d.id);
  if (!node) return d.text || d.id;
  const parts = node.kind === "op" ? opParts(index, node) : tensorParts(node, d, ds);
  if (ds.error === d.id) parts.push("the error happened here");
  if (ds.current === d.id) parts.push("current step");
  return spoken(parts.filter(Boolean).join(", "));
}

function tensorParts(node, d, ds) {
  // the box's own value view when there is one (displayGraph made it: decoding a large
  // tensor's preview again for its name would cost more than the rest of a step)
  const parts = [tensorName(node), ROLE_WORDS[d.role] || "tensor", valueWords(node, d.content ? d.content.value : undefined)];
  if (node.requires_grad) parts.push(gradWords(gradState(ds, d.id, !!node.is_leaf)));
  return parts;
}

function opParts(index, node) {
  const inputs = [...(index.inputs.get(node.id) || [])].sort((a, b) => a.arg - b.arg)
    .map((e) => ({ arg: e.arg, text: tensorName(index.nodes.get(e.src)) }));
  for (const c of node.consts || []) if (typeof c.value === "number") inputs.push({ arg: c.arg, text: num(c.value) });
  inputs.sort((a, b) => a.arg - b.arg);
  const words = OP_WORDS[node.op];
  const between = words && words[1] && inputs.length === 2 ? `${inputs[0].text} ${words[1]} ${inputs[1].text}`
    : inputs.length ? `of ${inputs.map((i) => i.text).join(" and ")}` : "";
  const out = (index.outputs.get(node.id) || []).map((e) => index.nodes.get(e.dst))[0];
  const outValue = out && scalarText(out.value);
  const gives = !out ? "" : outValue !== null ? `gives ${tensorName(out)} = ${outValue}` : `gives ${tensorName(out)}`;
  // "logarithm of d", but "multiply, a times b"
  return between.startsWith("of ") ? [`${opWord(node)} ${between}`, "", gives] : [opWord(node), between, gives];
}

const spokenName = (node) => (node && node.kind === "op" ? opWord(node) : nodeName(node));

/** The graph itself: how many nodes, its output(s), where the step is. */
export function graphLabel(index, display, state) {
  const outputs = outputWords(index, display);
  const where = !state.event ? "nothing built yet"
    : `step ${state.step} of ${state.total}, ${state.phase}${state.current ? ` at ${spokenName(index.nodes.get(state.current))}` : ""}`;
  const out = outputs.length ? `, output ${outputs.slice(0, 3).join(" and ")}` : "";
  return spoken(`computation graph, ${count(display.nodes.length, "node")}${out}; ${where}`);
}

const outputsSaid = new WeakMap(); // display -> {index, words}: said each step, found once
function outputWords(index, display) {
  const known = outputsSaid.get(display);
  if (known && known.index === index) return known.words;
  const words = display.nodes.filter((d) => d.role === "output").map((d) => {
    const node = index.nodes.get(d.id), v = node && scalarText(node.value);
    return v !== null && v !== undefined ? `${tensorName(node)} = ${v}` : tensorName(node);
  });
  outputsSaid.set(display, { index, words });
  return words;
}

/** The sentence that announces the step on screen (state: timeline.stateAt): the
 * backward step `backward: multiply a*b received 1; sends −3 to a, 2 to b`, a leaf's
 * `a.grad is now −3`, a forward step what it made. Empty before the first step. With
 * `hideGradients` (predict mode: the learner is asked for them) a backward step names
 * its node only. */
export function stepSentence(index, state, { hideGradients = false } = {}) {
  const e = state.event;
  if (!e) return "";
  const node = index.nodes.get(e.node);
  const at = `step ${state.step} of ${state.total}. `;
  if (hideGradients && (e.type === "backward_step" || e.type === "accumulate" || e.type === "backward_end")) {
    return `${at}backward: ${e.type === "accumulate" ? `${tensorName(node)}.grad arrives` : e.type === "backward_end"
      ? "done" : opWord(node)} (predict mode: the gradient is yours to work out)`;
  }
  switch (e.type) {
    case "create":
      if (node && node.kind === "op") return spoken(`${at}forward: ${opParts(index, node).filter(Boolean).join(", ")}`);
      return spoken(`${at}forward: made ${forwardArithmetic(index, e.node) || leafArithmetic(index, e.node) || tensorName(node)}`);
    case "backward_step": {
      const out = (index.outputs.get(e.node) || []).map((o) => index.nodes.get(o.dst))[0];
      const got = e.grad_output ? summaryText(e.grad_output, { max: 6 }) : "no gradient";
      const sent = (e.grad_inputs || []).filter((g) => g.node && g.grad)
        .map((g) => {
          const to = index.nodes.get(g.node);
          const total = g.total ? ` (${tensorName(to)} holds ${summaryText(g.total, { max: 6 })} so far)` : "";
          return `${summaryText(g.grad, { max: 6 })} to ${tensorName(to)}${total}`;
        });
      const what = `${opWord(node)}${out ? ` ${tensorName(out)}` : ""}`;
      return spoken(`${at}backward: ${what} received ${got}${sent.length ? `; sends ${sent.join(", ")}` : ""}`);
    }
    case "accumulate":
      return spoken(`${at}${tensorName(node)}.grad is now ${summaryText(e.grad, { max: 6 })}`);
    default:
      return spoken(at + caption(index, state));
  }
}
