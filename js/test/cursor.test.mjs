import { test } from "node:test";
import assert from "node:assert/strict";
import { indexTrace, stateAt } from "../src/model/timeline.js";
import { createCursor } from "../src/model/cursor.js";
import { fixture, allFixtures } from "./helpers/fixtures.mjs";

// The cursor's state without its `changed` field, for comparing with stateAt.
const bare = ({ changed: _changed, ...state }) => state;

test("every fixture: a step back then forward, at every event, equals replaying from 0", () => {
  const fixtures = allFixtures();
  assert.ok(fixtures.length >= 10);
  for (const { name, doc } of fixtures) {
    const index = indexTrace(doc), cursor = createCursor(index), n = index.events.length;
    for (let i = 1; i <= n; i++) {
      assert.deepEqual(bare(cursor.moveTo(i)), stateAt(index, i), `${name}: forward to ${i}`);
      assert.deepEqual(bare(cursor.moveTo(i - 1)), stateAt(index, i - 1), `${name}: back from ${i}`);
      assert.deepEqual(bare(cursor.moveTo(i)), stateAt(index, i), `${name}: forward again to ${i}`);
    }
    for (let i = n - 1; i >= 0; i--) {
      assert.deepEqual(bare(cursor.moveTo(i)), stateAt(index, i), `${name}: back from the end to ${i}`);
    }
  }
});

test("jumps in any order (the scrubber, Home, End) land on stateAt's state", () => {
  for (const name of ["dynamic_passes", "error_matmul", "nan_sqrt", "mlp_scopes"]) {
    const index = indexTrace(fixture(name)), cursor = createCursor(index), n = index.events.length;
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (const target of [n, 0, n, Math.floor(n / 2), n - 1, 1, ...Array.from({ length: 40 }, () => next() % (n + 1))]) {
      assert.deepEqual(bare(cursor.moveTo(target)), stateAt(index, target), `${name}: jump to ${target}`);
    }
  }
});

test("a step names only what its event changed; a step into or out of the end names everything", () => {
  const index = indexTrace(fixture("mlp_scopes")), cursor = createCursor(index), n = index.events.length;
  const firstStep = index.events.findIndex((e) => e.type === "backward_step");
  const e = index.events[firstStep];
  cursor.moveTo(firstStep);
  const { changed } = cursor.moveTo(firstStep + 1);
  assert.equal(changed.all, false);
  // the op stepped, the tensors it sent gradients to and received one from; its edges
  const expected = new Set([e.node, ...(e.grad_inputs || []).filter((g) => g.node).map((g) => g.node),
    ...(index.outputs.get(e.node) || []).map((o) => o.dst)]);
  assert.deepEqual(changed.nodes, new Set([...expected, index.events[firstStep - 1].node || ""].filter((id) => index.nodes.has(id))));
  assert.ok(changed.edges.size >= 1 && changed.edges.size <= 1 + (e.grad_inputs || []).length * 2);
  const back = cursor.moveTo(firstStep);
  assert.equal(back.changed.all, false);
  assert.ok(back.changed.nodes.has(e.node));
  assert.equal(cursor.moveTo(n - 1).changed.all, false);
  assert.equal(cursor.moveTo(n).changed.all, true); // backward_end: every pending gradient becomes None
  assert.equal(cursor.moveTo(n - 1).changed.all, true);
  assert.equal(cursor.moveTo(3).changed.all, true); // far back: replayed from 0
});
