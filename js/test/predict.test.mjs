import { test } from "node:test";
import assert from "node:assert/strict";
import { questions, questionAt, questionsAt, nextQuestion, parseAnswer, isRight, record, explanation, verdict, settled,
  diagnose, summary, predictStop } from "../src/model/predict.js";
import { indexTrace, stateAt } from "../src/model/timeline.js";
import { stepLatex } from "../src/model/latex.js";
import { caption } from "../src/model/caption.js";
import { fixture } from "./helpers/fixtures.mjs";

const byLabel = (idx, label) => questions(idx).find((q) => q.name === label);

test("each scalar leaf is asked at the backward step that first sends it gradient, one after another at a shared step", () => {
  const doc = fixture("e_labelled"), idx = indexTrace(doc);
  const asked = questions(idx).map((q) => [q.name, q.gate, doc.events[q.gate].type]);
  assert.deepEqual(asked.map(([name]) => name), ["c", "d", "a", "b"]);
  for (const [, , type] of asked) assert.equal(type, "backward_step");
  const [a, b] = [byLabel(idx, "a"), byLabel(idx, "b")];
  assert.equal(a.gate, b.gate, "a*b sends both in one step");
  assert.ok(a.event > a.gate, "attempts are keyed by the accumulate that reveals .grad");
  let predictions = {};
  for (const q of questions(idx).slice(0, 2)) predictions = record(predictions, q, { answer: q.expected, correct: true });
  assert.equal(questionAt(idx, a.gate, predictions).name, "a");
  predictions = record(predictions, a, { answer: -3, correct: true });
  assert.equal(questionAt(idx, a.gate, predictions).name, "b", "right about a, then b at the same step");
  assert.deepEqual(questionsAt(idx, a.gate).map((q) => q.name), ["a", "b"]);
  assert.equal(nextQuestion(idx, 0, doc.events.length, predictions).name, "b");
  predictions = record(predictions, b, { revealed: true, correct: false, answer: null });
  assert.equal(nextQuestion(idx, 0, doc.events.length, predictions), null);
  assert.deepEqual([predictions.right, predictions.wrong, predictions.revealed], [3, 0, 1]);
});

test("at each question nothing on screen holds the answer: no product, edge label, badge or caption about the leaf", () => {
  for (const name of ["e_labelled", "shared_input"]) {
    const idx = indexTrace(fixture(name));
    for (const q of questions(idx)) {
      const state = stateAt(idx, q.gate);
      assert.ok(!state.grads.has(q.node), `${name}: ${q.name}'s badge`);
      assert.ok(!state.arrived.has(q.node), `${name}: ${q.name}'s gradient arrived`);
      for (const key of state.active.keys()) assert.ok(!key.startsWith(`${q.node}>`), `${name}: an edge label into ${q.name}`);
      const s = stepLatex(idx, state.event);
      assert.ok(!s || !s.lines.some((l) => l.node === q.node), `${name}: the panel's product for ${q.name}`);
      assert.ok(!caption(idx, state).includes(`${q.name}.grad`), `${name}: the caption`);
    }
  }
});

test("answers: numbers as typed, judged to the screen's precision", () => {
  assert.equal(parseAnswer(" −3 "), -3);
  assert.equal(parseAnswer("1/4"), 0.25);
  assert.equal(parseAnswer("1,386"), 1.386);
  assert.equal(parseAnswer("2.5e-3"), 0.0025);
  assert.equal(parseAnswer("three"), null);
  assert.equal(parseAnswer(""), null);
  assert.ok(isRight(1.386, 1.3862943649291992));
  assert.ok(!isRight(1.3, 1.3862943649291992));
  assert.ok(isRight(-3, -3) && !isRight(3, -3));
  assert.equal(verdict({ name: "a", answer: 5, correct: false }), "✗ 5 is not a.grad");
  assert.equal(verdict({ name: "a", answer: -3, expected: -3, correct: true }), "✓ -3 is right: a.grad = -3");
});

test("the slip behind a wrong answer, from the trace's numbers, with a hint naming a step and not the answer", () => {
  const e = indexTrace(fixture("e_labelled")), shared = indexTrace(fixture("shared_input"));
  const [x0, x1] = questions(shared);
  const cases = [
    [shared, x0, 3, "one-path", /one path sends x \(step 11\).*used 3 times.*\+=.*step 10 and step 11/],
    [shared, x1, 4, "accumulated", /already held a gradient from an earlier backward/],
    [e, byLabel(e, "a"), 2, "value", /2 is a's value, not its gradient.*∂e\/∂\(a\*b\) · ∂\(a\*b\)\/∂a at step 19/],
    [e, byLabel(e, "d"), 0.25, "no-upstream", /local derivative ∂log\(d\)\/∂d alone.*∂e\/∂log\(d\).*step 17/],
    [e, byLabel(e, "a"), 3, "sign", /size is right, the sign is not/],
    [e, byLabel(e, "c"), 7, null, /Not yet.*∂e\/∂\(log\(d\)\*c\) · ∂\(log\(d\)\*c\)\/∂c/],
  ];
  for (const [idx, q, answer, slip, text] of cases) {
    const d = diagnose(idx, q, answer);
    assert.equal(d.slip, slip, `${q.name} = ${answer}`);
    assert.match(d.text, text);
    assert.ok(!d.text.includes(String(q.expected)), `the hint for ${answer} gives ${q.name}.grad away: ${d.text}`);
  }
});

test("the explanation is the chain rule of the steps that sent the leaf its gradient", () => {
  const idx = indexTrace(fixture("e_labelled"));
  assert.deepEqual(explanation(idx, byLabel(idx, "a")), ["∂e/∂a = ∂e/∂(a*b) · ∂(a*b)/∂a = 1 · -3 = -3", "a.grad = -3"]);
  const shared = indexTrace(fixture("shared_input"));
  assert.equal(explanation(shared, questions(shared)[0]).length, 4, "three paths, then the sum .grad holds");
});

test("a pass's summary counts each question once: right first time, right after a hint, revealed", () => {
  const idx = indexTrace(fixture("e_labelled"));
  const [c, d, a, b] = ["c", "d", "a", "b"].map((n) => byLabel(idx, n));
  assert.equal(summary(idx, {}, 0), null);
  let p = record({}, c, { answer: c.expected, correct: true });
  p = record(p, d, { answer: 0.25, correct: false, slip: "no-upstream", reason: "log's derivative is 1/d" });
  p = record(p, d, { answer: 2.5, correct: true });
  p = record(p, a, { revealed: true, correct: false, answer: null });
  assert.ok(settled(p, d) && !settled(p, b));
  assert.equal(p.attempts[1].reason, "log's derivative is 1/d", "the learner's why travels with the answer");
  assert.equal(summary(idx, p, 0).text, "This pass: 1 right first time, 1 right after a hint, 1 revealed, 1 not answered.");
});

test("stepping stops at each open question and once after a pass's end, for its summary", () => {
  const idx = indexTrace(fixture("shared_input"));
  const [x0, x1] = questions(idx);
  const end0 = idx.events.findIndex((e) => e.type === "backward_end") + 1;
  assert.equal(predictStop(idx, 0, idx.events.length, {}), x0.gate);
  const answered = record({}, x0, { answer: 8, correct: true });
  assert.equal(predictStop(idx, x0.gate, idx.events.length, answered), end0);
  assert.equal(predictStop(idx, end0, idx.events.length, answered), x1.gate, "on from the summary");
  assert.equal(predictStop(idx, 0, x0.gate, {}), null, "nothing stops short of where the step goes");
});
