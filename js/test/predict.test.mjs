import { test } from "node:test";
import assert from "node:assert/strict";
import { questionAt, nextQuestion, parseAnswer, isRight, record, explanation, verdict, settled } from "../src/model/predict.js";
import { indexTrace } from "../src/model/timeline.js";
import { fixture } from "./helpers/fixtures.mjs";

test("a question before each scalar leaf's .grad arrives, until it is answered right or shown", () => {
  const doc = fixture("e_labelled"), idx = indexTrace(doc);
  const accumulates = doc.events.map((e, i) => [e, i]).filter(([e]) => e.type === "accumulate");
  assert.equal(accumulates.length, 4);
  const [first, at] = accumulates[0];
  const q = questionAt(idx, at, {});
  assert.equal(q.node, first.node);
  assert.equal(q.expected, first.grad.values[0]);
  assert.equal(questionAt(idx, at - 1, {}), null, "only accumulate events ask");
  assert.deepEqual(nextQuestion(idx, 0, doc.events.length, {}), q, "the first gate on the way");
  const wrong = record({}, q, { answer: 99, correct: false });
  assert.ok(!settled(wrong, q) && questionAt(idx, at, wrong));
  const right = record(wrong, q, { answer: q.expected, correct: true });
  assert.equal(questionAt(idx, at, right), null);
  assert.deepEqual([right.right, right.wrong, right.revealed, right.attempts.length], [1, 1, 0, 2]);
  assert.equal(nextQuestion(idx, 0, doc.events.length, right).node, accumulates[1][0].node);
  const shown = record(right, nextQuestion(idx, 0, doc.events.length, right), { revealed: true, correct: false, answer: null });
  assert.equal(shown.revealed, 1);
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
  assert.equal(verdict({ name: "a", answer: -3, correct: true }), "✓ -3 is right");
});

test("the explanation is the chain rule of the steps that sent the leaf its gradient", () => {
  const doc = fixture("e_labelled"), idx = indexTrace(doc);
  const a = doc.nodes.find((n) => n.label === "a");
  const at = doc.events.findIndex((e) => e.type === "accumulate" && e.node === a.id);
  const lines = explanation(idx, questionAt(idx, at, {}));
  assert.deepEqual(lines, ["∂e/∂a = ∂e/∂(a*b) · ∂(a*b)/∂a = 1 · -3 = -3", "a.grad = -3"]);
});
