// Predict mode: before a leaf's gradient is revealed (its `accumulate` event), the
// widget asks the learner for it. Pure: which event is a question, judging an
// answer against the document's value, the chain-rule lines that explain it, and
// the record of attempts synced to Python (`predictions`).
import { num, tensorName, toNumber } from "./format.js";
import { stepLatex } from "./latex.js";

/** The question asked before event `at` (0-based: applied when the step goes from
 * `at` to at + 1), or null: a scalar leaf's .grad arriving and not settled yet. */
export function questionAt(index, at, predictions) {
  const e = index.events[at];
  if (!e || e.type !== "accumulate" || e.retained || !e.grad || !Array.isArray(e.grad.values)) return null;
  if (e.grad.values.length !== 1) return null; // a tensor's gradient is not asked for
  const node = index.nodes.get(e.node);
  if (!node || !node.is_leaf) return null;
  const q = { node: e.node, name: tensorName(node), pass: e.pass || 0, event: at, expected: e.grad.values[0] };
  return settled(predictions, q) ? null : q;
}

/** The first question at or after event `from` and before `to`, or null. */
export function nextQuestion(index, from, to, predictions) {
  for (let at = Math.max(0, from); at < Math.min(to, index.events.length); at++) {
    const q = questionAt(index, at, predictions);
    if (q) return q;
  }
  return null;
}

const attemptsOf = (predictions, q) => ((predictions && predictions.attempts) || [])
  .filter((a) => a.node === q.node && a.event === q.event);

/** Answered right, or revealed: the gate is open. */
export function settled(predictions, q) {
  return attemptsOf(predictions, q).some((a) => a.correct || a.revealed);
}

/** The learner's text as a number (accepts a Unicode minus, `1/4`), or null. */
export function parseAnswer(text) {
  const t = String(text || "").trim().replace(/−/g, "-").replace(/,/g, ".");
  const frac = /^(-?\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)$/.exec(t);
  if (frac) return Number(frac[2]) === 0 ? null : Number(frac[1]) / Number(frac[2]);
  if (!/^-?(\d+\.?\d*|\.\d+)(e-?\d+)?$/i.test(t)) return null;
  return Number(t);
}

/** Right when within what the screen's 4 significant digits can say (0.5%, or 0.005
 * near 0): a learner reading 1.386 off a caption typed what we showed. */
export function isRight(answer, expected) {
  const e = toNumber(expected);
  return Number.isFinite(answer) && Math.abs(answer - e) <= 0.005 * Math.max(1, Math.abs(e));
}

/** The chain-rule lines (plain text) of the steps that sent the leaf its gradient in
 * that pass, in order, ending with what .grad holds. */
export function explanation(index, q) {
  const lines = [];
  for (let at = 0; at < q.event; at++) {
    const e = index.events[at];
    if (e.type !== "backward_step" || (e.pass || 0) !== q.pass) continue;
    const s = stepLatex(index, e);
    for (const line of (s && s.lines) || []) if (line.node === q.node) lines.push(line.text);
  }
  lines.push(`${q.name}.grad = ${num(q.expected)}`);
  return lines;
}

/** predictions with one more attempt: {attempts: [...], right, wrong, revealed}. */
export function record(predictions, q, attempt) {
  const attempts = [...((predictions && predictions.attempts) || []),
    { node: q.node, name: q.name, pass: q.pass, event: q.event, expected: toNumber(q.expected), ...attempt }];
  const count = (f) => attempts.filter(f).length;
  return { attempts, right: count((a) => a.correct), wrong: count((a) => !a.correct && !a.revealed),
    revealed: count((a) => a.revealed) };
}

/** The verdict sentence of an attempt. */
export function verdict(a) {
  if (a.revealed) return `shown: ${a.name}.grad = ${num(a.expected)}`;
  return a.correct ? `✓ ${num(a.answer)} is right` : `✗ ${num(a.answer)} is not ${a.name}.grad`;
}

export { attemptsOf };
