import { test } from "node:test";
import assert from "node:assert/strict";
import { viewpoint, BIG_GRAPH } from "../src/model/viewpoint.js";
import { indexTrace, stateAt, forwardEnds } from "../src/model/timeline.js";
import { displayGraph } from "../src/model/collapse.js";
import { fixture } from "./helpers/fixtures.mjs";
import { synthTrace, blocksFor } from "./helpers/synth.mjs";

const look = (index, step, display = displayGraph(index)) => viewpoint(index, stateAt(index, step), display);

test("on a step the camera looks at the current node", () => {
  const index = indexTrace(fixture("e_labelled"));
  for (let step = 1; step < index.events.length; step++) {
    const state = stateAt(index, step);
    if (state.current) assert.deepEqual(look(index, step), { kind: "node", id: state.current });
  }
  assert.deepEqual(look(index, 0), { kind: "none" });
});

test("at the end of each pass it looks at the loss and every leaf the pass reached", () => {
  const index = indexTrace(fixture("dynamic_passes"));
  const ends = index.events.flatMap((e, i) => (e.type === "backward_end" ? [i + 1] : []));
  assert.ok(ends.length >= 2);
  for (const end of ends) {
    const state = stateAt(index, end);
    const view = look(index, end);
    assert.equal(view.kind, "answer");
    const roots = index.events.slice(0, end).findLast((e) => e.type === "backward_begin").roots;
    for (const id of [...roots, ...state.grads.keys(), ...state.gradNone]) assert.ok(view.ids.includes(id), id);
    assert.ok(view.ids.every((id) => index.nodes.has(id) && state.visible.has(id)));
    assert.ok(view.ids.length > roots.length, "more than the loss alone");
  }
});

test("with modules collapsed the answer names display nodes only", () => {
  const index = indexTrace(fixture("mlp_scopes"));
  const display = displayGraph(index, { collapsed: ["MLP.fc1"] });
  const view = look(index, index.events.length, display);
  assert.equal(view.kind, "answer");
  const ids = new Set(display.nodes.map((n) => n.id));
  assert.ok(view.ids.every((id) => ids.has(id)));
  const inBox = display.nodes.find((n) => n.id === "scope:MLP.fc1").members;
  assert.ok(view.ids.every((id) => !inBox.includes(id)));
  assert.ok(view.ids.length >= 5, "the loss and the four parameters");
});

test("a big graph's pass ends on its loss (its answer spans the whole graph)", () => {
  const big = indexTrace(synthTrace({ blocks: blocksFor(2 * BIG_GRAPH) }));
  const end = big.events.length;
  const roots = big.events.findLast((e) => e.type === "backward_begin").roots;
  assert.deepEqual(look(big, end), { kind: "node", id: roots[0] });
});

test("a big graph waiting for its backward is shown whole; a small one at its loss", () => {
  const big = indexTrace(synthTrace({ blocks: blocksFor(2 * BIG_GRAPH) }));
  const [wait] = forwardEnds(big);
  assert.ok(displayGraph(big).nodes.length > BIG_GRAPH);
  assert.deepEqual(look(big, wait), { kind: "whole" });
  assert.equal(look(big, wait + 1).kind, "node", "the first backward step follows its node again");
  const small = indexTrace(synthTrace({ blocks: 2 }));
  assert.equal(look(small, forwardEnds(small)[0]).kind, "node");
});
