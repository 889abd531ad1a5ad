import { test } from "node:test";
import assert from "node:assert/strict";
import { pathsTo } from "../src/model/paths.js";
import { evaluate, nudgeHere, downhillHere, replayProblem, defaultH, agreement } from "../src/model/replay.js";
import { fixture } from "./helpers/fixtures.mjs";

const idOf = (doc, label) => doc.nodes.find((n) => n.label === label).id;

test("x reaches y = x*x + x*2 along two paths, 6 and 2, and z = x*4 along one", () => {
  const doc = fixture("shared_input");
  const x = idOf(doc, "x");
  const first = pathsTo(doc, x, 0);
  assert.equal(first.count, 2);
  assert.deepEqual(first.paths.map((p) => p.product), [6, 2]);
  assert.deepEqual(first.paths[0].locals[0].parts, [3, 3], "x*x uses x twice: 3 + 3");
  assert.equal(first.sum, 8);
  assert.equal(first.backward, 8);
  assert.equal(first.paths[0].names.at(-1), "y");
  assert.deepEqual(first.meetings.map((m) => [m.name, m.branches]), [["x", 3]]);
  const second = pathsTo(doc, x); // the last pass: z = x * 4
  assert.equal(second.count, 1);
  assert.equal(second.sum, 4);
  assert.equal(second.rootName, "z");
});

test("the README example: a reaches e along one path, a·b's local derivative b = -3", () => {
  const doc = fixture("e_labelled");
  const found = pathsTo(doc, idOf(doc, "a"));
  assert.equal(found.count, 1);
  assert.deepEqual(found.paths[0].names, ["a", found.paths[0].names[1], "e"]);
  assert.equal(found.sum, -3);
});

test("the page re-runs the README graph itself: nudging a gives a slope of -3", () => {
  const doc = fixture("e_labelled");
  const e = idOf(doc, "e"), a = idOf(doc, "a");
  assert.equal(replayProblem(doc, e), null);
  assert.ok(Math.abs(evaluate(doc, e).values[0] - (2 * -3 + Math.log(4) * 10)) < 1e-6);
  const r = nudgeHere(doc, e, a, -3, 1e-3);
  assert.equal(r.L_plus, (2 + 1e-3) * -3 + Math.log(4) * 10);
  assert.ok(Math.abs(r.slope + 3) < 1e-9 && r.digits >= 9, `${r.slope} ${r.digits}`);
  const step = downhillHere(doc, e, 0.01);
  assert.ok(step.L_new < step.L);
  assert.ok(Math.abs(step.change - step.predicted_change) < 0.01 * Math.abs(step.predicted_change));
});

test("a graph the page cannot re-run says that a kernel is needed", () => {
  const doc = fixture("mlp_scopes");
  const root = doc.events.find((ev) => ev.type === "backward_begin").roots[0];
  assert.match(replayProblem(doc, root), /needs a kernel/);
});

test("h's default and the digits that agree", () => {
  assert.ok(Math.abs(defaultH([2, -3]) - 3e-3) < 1e-15);
  assert.equal(defaultH([0]), 1e-3);
  const close = agreement(-3.000021, -3);
  assert.equal(close.digits, 5);
  assert.ok(Math.abs(close.relativeError - 0.000021 / 3.000021) < 1e-12);
  assert.equal(agreement(1, 1).digits, 16);
});

test("the answers read as a learner reads them", async () => {
  const { answerLines, digits7 } = await import("../src/view/checkpanel.js");
  assert.equal(digits7(-3.000020980834961), "-3.000021");
  assert.equal(digits7(7), "7");
  const nudge = answerLines({ what: "nudge", h: 1e-3, L_plus: 7.859944, L_minus: 7.865944, slope: -3.000021,
    grad: -3, digits: 5, relative_error: 7e-6 });
  assert.deepEqual(nudge.slice(0, 3), ["L(x+h) = 7.859944, L(x−h) = 7.865944 (h = 0.001)",
    "slope (L(x+h) − L(x−h)) / 2h = -3.000021; grad = -3", "5 digits agree (relative error 7.0e-6)"]);
  assert.match(nudge[3], /re-run by the kernel/);
  const step = answerLines({ what: "downhill", lr: 0.01, L: 7.862944, L_new: 7.650516, predicted: 7.651226,
    change: -0.212428, predicted_change: -0.211718, kernel: "the kernel's tensors are unchanged" });
  assert.equal(step[0], "L = 7.862944 → 7.650516 after every leaf moved by −0.01 × grad");
  assert.equal(step[2], "the kernel's tensors are unchanged");
});
