import { test } from "node:test";
import assert from "node:assert/strict";
import { indexTrace } from "../src/model/timeline.js";
import { createCursor, displayChanges } from "../src/model/cursor.js";
import { displayGraph, displayState, SCOPE_PREFIX } from "../src/model/collapse.js";
import { patchDisplayState } from "../src/model/displaypatch.js";
import { fixture, allFixtures } from "./helpers/fixtures.mjs";

// What the view reads of a display state; a box's map values are one member's (either
// way is right), so only whether it has one is compared.
function seen(ds) {
  const values = (m) => new Map([...m].map(([k, v]) => [k, k.startsWith(SCOPE_PREFIX) ? true : v]));
  return { visible: new Set(ds.visible), stepped: new Set(ds.stepped), gradNone: new Set(ds.gradNone),
    grads: values(ds.grads), received: values(ds.received), nonfinite: values(ds.nonfinite), updated: values(ds.updated),
    dead: new Set(ds.dead), lit: new Set(ds.lit), active: new Map(ds.active), current: ds.current, phase: ds.phase,
    error: ds.error };
}

// Walks `targets` as app.js does: patched after a move that names its changes, rebuilt after one that does not.
function walk(name, index, display, targets) {
  const cursor = createCursor(index);
  let ds = displayState(display, cursor.moveTo(0)), patched = 0;
  for (const target of targets) {
    const state = cursor.moveTo(target);
    if (displayChanges(display, state.changed)) { ds = patchDisplayState(ds, display, state); patched++; }
    else ds = displayState(display, state);
    assert.deepEqual(seen(ds), seen(displayState(display, state)), `${name}: at ${target}`);
  }
  return patched;
}

test("every fixture: the patched display state equals displayState after each step both ways", () => {
  for (const { name, doc } of allFixtures()) {
    const index = indexTrace(doc), n = index.events.length, display = displayGraph(index);
    const targets = [];
    for (let i = 1; i <= n; i++) targets.push(i, i - 1, i);
    for (let i = n - 1; i >= 0; i--) targets.push(i);
    assert.ok(walk(name, index, display, targets) > n, `${name}: most moves are patched, not rebuilt`);
  }
});

test("collapsed modules and a chosen pass: boxes are visible, stepped, dead as a whole", () => {
  for (const [name, options] of [["mlp_scopes", { collapsed: ["MLP.fc1"] }], ["mlp_scopes", { maxNodes: 4 }],
    ["dynamic_passes", { passIndex: 1 }], ["nan_sqrt", {}], ["error_matmul", {}]]) {
    const index = indexTrace(fixture(name)), n = index.events.length, display = displayGraph(index, options);
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const targets = [];
    for (let i = 1; i <= n; i++) targets.push(i);
    for (let i = n - 1; i >= 0; i--) targets.push(i);
    for (let k = 0; k < 40; k++) targets.push(next() % (n + 1));
    walk(name, index, display, targets);
  }
});
