import { test } from "node:test";
import assert from "node:assert/strict";
import { indexTrace, stateAt, phaseSegments } from "../src/model/timeline.js";
import { updateLines } from "../src/model/updates.js";
import { caption } from "../src/model/caption.js";
import { fixture } from "./helpers/fixtures.mjs";

// Two steps of SGD with momentum 0.9, lr 0.1, on loss = (2w + b − 3)², from w = 0.5, b = −1.
const index = indexTrace(fixture("sgd_update"));
const id = (label) => [...index.nodes.values()].find((n) => n.label === label).id;
const at = (type, k = 0) => index.events.map((e, i) => [e, i]).filter(([e]) => e.type === type)[k][1];

test("an update event writes the rule with the optimizer's own numbers", () => {
  const step = at("update");
  const lines = updateLines(index, index.events[step]);
  assert.equal(lines[0], "w: 0.5 − 0.1 × buf = 0.5 − 0.1 × -12 = 1.7");
  assert.equal(lines[1], "g = -12");
  assert.equal(lines[2], "buf = 0.9 × buf + g = -12 (the first step: buf = g)");
  // the second step's buffer holds the momentum: 0.9 × −12 + g
  const second = updateLines(index, index.events[at("update", 2)]);
  assert.equal(second[0], "w: 1.7 − 0.1 × buf = 1.7 − 0.1 × -10.8 = 2.78");
  assert.match(caption(index, stateAt(index, step + 1)), /^update \(SGD\.step\): w 0\.5 → 1\.7$/);
});

test("the state after an update holds the new value; zero_grad leaves the grads None", () => {
  const w = id("w"), b = id("b");
  const afterBackward = stateAt(index, at("backward_end") + 1);
  assert.ok(afterBackward.grads.has(w) && !afterBackward.updated.has(w));
  const afterUpdates = stateAt(index, at("update", 1) + 1);
  assert.equal(afterUpdates.phase, "update");
  assert.deepEqual(afterUpdates.updated.get(w).values, [1.7000000476837158]);
  assert.deepEqual(afterUpdates.updated.get(b).values, [-0.3999999761581421]);
  const cleared = stateAt(index, at("grads_cleared") + 1);
  assert.ok(!cleared.grads.has(w) && cleared.gradNone.has(w) && cleared.gradNone.has(b));
  assert.deepEqual(updateLines(index, index.events[at("grads_cleared")]), ["zero_grad(): w.grad, b.grad set to None"]);
  // the next pass's forward reads the updated weight
  assert.deepEqual(stateAt(index, at("update", 2)).updated.get(w).values, [1.7000000476837158]);
});

test("the scrubber marks the update as its own segment after each backward", () => {
  const phases = phaseSegments(index).map((s) => `${s.pass}:${s.phase}`);
  assert.deepEqual(phases, ["0:forward", "0:backward", "0:update", "1:forward", "1:backward", "1:update"]);
});
