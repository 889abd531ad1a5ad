// Predict mode: before the backward step that first sends a scalar leaf its gradient,
// the widget asks the learner for the .grad that leaf will hold. Asking there, not
// at the `accumulate`, matters: that step's product and edge label are the answer.
// Pure: the questions of a trace, judging an answer against the document's value,
// naming the likely slip from the trace's own numbers, the chain-rule lines that
// explain it, and the record of attempts synced to Python (`predictions`).
import { num, tensorName, toNumber } from "./format.js";
import { stepLatex } from "./latex.js";

const scalarOf = (s) => (s && Array.isArray(s.values) && s.values.length === 1 ? toNumber(s.values[0]) : null);

/** Every question of the trace, in the order they are asked: one per scalar leaf and
 * pass, at its `gate` (the backward_step event that first sends it a gradient; several
 * leaves of one op share a gate and are asked in turn). `event` is the leaf's
 * accumulate event, which keys the attempts; `paths` the steps that send it gradient. */
export function questions(index) {
  if (index.predictQuestions) return index.predictQuestions;
  const list = [];
  index.events.forEach((e, at) => {
    if (e.type !== "accumulate" || e.retained || scalarOf(e.grad) === null) return;
    const node = index.nodes.get(e.node);
    if (!node || !node.is_leaf) return;
    const pass = e.pass || 0;
    const paths = [];
    for (let i = at - 1; i >= 0 && index.events[i].type !== "backward_begin"; i--) {
      const step = index.events[i];
      if (step.type !== "backward_step" || (step.pass || 0) !== pass) continue;
      for (const g of step.grad_inputs || []) {
        if (g.node === e.node && g.grad) paths.unshift({ event: i, op: step.node, grad: scalarOf(g.grad),
          local: typeof g.local === "number" ? g.local : null, upstream: scalarOf(step.grad_output) });
      }
    }
    const gate = paths.length ? paths[0].event : at;
    list.push({ node: e.node, name: tensorName(node), pass, event: at, gate, expected: e.grad.values[0], paths,
      value: scalarOf(node.value), order: [gate, paths.length ? argOrder(index.events[gate], e.node) : 0] });
  });
  list.sort((p, q) => p.order[0] - q.order[0] || p.order[1] - q.order[1]);
  index.predictQuestions = list;
  return list;
}

const argOrder = (step, node) => (step.grad_inputs || []).findIndex((g) => g.node === node);

/** The question open at step `at` (the step shows events before `at`; stepping on
 * applies event `at`), or null. */
export function questionAt(index, at, predictions) {
  return questions(index).find((q) => q.gate === at && !settled(predictions, q)) || null;
}

/** The first open question whose gate is at or after `from` and before `to`, or null. */
export function nextQuestion(index, from, to, predictions) {
  return questions(index).find((q) => q.gate >= from && q.gate < to && !settled(predictions, q)) || null;
}

/** Where stepping from `from` towards `to` stops in predict mode, or null: at the next
 * open question, or just after the backward_end of a pass that asked something, so its
 * summary is read before the next pass's first question. */
export function predictStop(index, from, to, predictions) {
  const q = nextQuestion(index, from, to, predictions);
  const end = questions(index).map((x) => passEnd(index, x))
    .filter((at) => at !== null && at > from && at < to).sort((a, b) => a - b)[0];
  const stops = [q ? q.gate : null, end ?? null].filter((at) => at !== null);
  return stops.length ? Math.min(...stops) : null;
}

// The step just after the backward_end of a question's pass (null: none recorded).
function passEnd(index, q) {
  for (let at = q.event; at < index.events.length; at++) {
    if (index.events[at].type === "backward_end") return at + 1;
  }
  return null;
}

/** The questions asked at one gate, settled or not, in the order they are asked. */
export function questionsAt(index, gate) {
  return questions(index).filter((q) => q.gate === gate);
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
  return Number.isFinite(answer) && Number.isFinite(e) && Math.abs(answer - e) <= 0.005 * Math.max(1, Math.abs(e));
}

const stepWord = (event) => `step ${event + 1}`; // the counter reads the step after the event

/** The likely slip behind a wrong answer, judged from the trace's numbers, with a hint
 * that points at the step where it goes wrong and gives no number of the answer:
 * {slip, text, step} (slip null: no known slip matches). */
export function diagnose(index, q, answer) {
  const expected = toNumber(q.expected);
  const at = (a, b) => b !== null && isRight(a, b);
  const opName = (p) => chainOf(index, p, q).local;
  const sum = q.paths.reduce((s, p) => s + (p.grad ?? 0), 0);
  if (q.paths.length > 1) {
    const one = q.paths.find((p) => at(answer, p.grad));
    if (one) {
      const others = q.paths.filter((p) => p !== one).map((p) => stepWord(p.event)).join(" and ");
      return { slip: "one-path", step: one.event, text: `${num(answer)} is what one path sends ${q.name} (${stepWord(one.event)}). `
        + `${q.name} is used ${q.paths.length} times, and .grad adds (+=) what every path sends: look also at ${others}.` };
    }
  }
  if (q.paths.length && !isRight(sum, expected) && at(answer, sum)) {
    return { slip: "accumulated", step: q.paths[0].event, text: `${num(answer)} is what this backward sends ${q.name}; `
      + `but ${q.name}.grad already held a gradient from an earlier backward, and backward adds to it (no zero_grad in between).` };
  }
  if (at(answer, q.value)) {
    const first = q.paths[0];
    return { slip: "value", step: first ? first.event : q.event, text: `${num(answer)} is ${q.name}'s value, not its gradient. `
      + `${q.name}.grad says how much the loss changes when ${q.name} moves a little: `
      + `${first ? `start from ${chainOf(index, first, q).chain} at ${stepWord(first.event)}` : "follow the chain rule back"}.` };
  }
  const local = q.paths.find((p) => p.local !== null && p.upstream !== null && !isRight(p.upstream, 1) && at(answer, p.local));
  const locals = q.paths.length > 1 && q.paths.every((p) => p.local !== null) ? q.paths.reduce((s, p) => s + p.local, 0) : null;
  if (local || (at(answer, locals) && q.paths.some((p) => !isRight(p.upstream ?? 1, 1)))) {
    const p = local || q.paths.find((x) => !isRight(x.upstream ?? 1, 1));
    const c = chainOf(index, p, q);
    return { slip: "no-upstream", step: p.event, text: `${num(answer)} is the local derivative ${opName(p)} alone. `
      + `The chain rule multiplies it by the gradient arriving from above, ${c.upstream}, `
      + `written on the edge into ${c.out} at ${stepWord(p.event)}.` };
  }
  if (expected !== 0 && at(-answer, expected)) {
    const p = q.paths[0];
    return { slip: "sign", step: p ? p.event : q.event, text: `The size is right, the sign is not. Follow the sign of each factor`
      + `${p ? ` of ${chainOf(index, p, q).chain} at ${stepWord(p.event)}` : ""}.` };
  }
  const p = q.paths[0];
  return { slip: null, step: p ? p.event : q.event, text: p
    ? `Not yet. Work back from the loss: ${q.name}'s gradient at ${stepWord(p.event)} is ${chainOf(index, p, q).chain}`
      + `${q.paths.length > 1 ? `, and ${q.paths.length - 1} more path${q.paths.length > 2 ? "s add" : " adds"} to it` : ""}.`
    : `Not yet: follow the chain rule back from the loss to ${q.name}.` };
}

// The factors of one path's product as the step panel writes them, without numbers:
// chain "∂e/∂(a*b) · ∂(a*b)/∂a", local "∂(a*b)/∂a", upstream "∂e/∂(a*b)", out "(a*b)".
function chainOf(index, path, q) {
  const s = stepLatex(index, index.events[path.event]);
  const line = s && s.lines.find((l) => l.node === q.node);
  const f = (line && line.factors) || { upstream: "the incoming gradient", local: "the local derivative", out: "the op's output" };
  return { ...f, chain: f.upstream && f.local ? `${f.upstream} · ${f.local}` : f.local };
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

/** predictions with one more attempt: {attempts: [...], right, wrong, revealed}. An
 * attempt may carry the learner's one line of why (`reason`) and the slip named. */
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
  return a.correct ? `✓ ${num(a.answer)} is right: ${a.name}.grad = ${num(a.expected)}`
    : `✗ ${num(a.answer)} is not ${a.name}.grad`;
}

/** How a pass went, once its questions are all settled: each question counted once, as
 * right first time, right after a hint (a wrong answer before), or revealed. */
export function summary(index, predictions, pass) {
  const asked = questions(index).filter((q) => q.pass === pass);
  const tally = { first: 0, hinted: 0, revealed: 0, open: 0 };
  for (const q of asked) {
    const attempts = attemptsOf(predictions, q);
    const end = attempts.findIndex((a) => a.correct || a.revealed);
    if (end < 0) tally.open++;
    else if (attempts[end].revealed) tally.revealed++;
    else tally[end === 0 ? "first" : "hinted"]++;
  }
  const settledCount = tally.first + tally.hinted + tally.revealed;
  if (!settledCount) return null;
  return { ...tally, text: `This pass: ${tally.first} right first time, ${tally.hinted} right after a hint, `
    + `${tally.revealed} revealed${tally.open ? `, ${tally.open} not answered` : ""}.` };
}

export { attemptsOf };
