import { test } from "node:test";
import assert from "node:assert/strict";
import { findOutlines } from "../src/model/outlines.js";
import { displayGraph } from "../src/model/collapse.js";
import { indexTrace } from "../src/model/timeline.js";
import { layoutGraph } from "../src/model/layout.js";
import { fixture } from "./helpers/fixtures.mjs";

const outlinesOf = (doc, options = {}) => {
  const index = indexTrace(doc);
  const display = displayGraph(index, options);
  return { index, display, outlines: findOutlines(index, display) };
};

test("one outline per module call, nested, named by the module's attribute", () => {
  const { index, outlines } = outlinesOf(fixture("mlp_scopes"));
  const labels = outlines.map((o) => o.label);
  assert.deepEqual(labels.sort(), ["MLP", "act", "fc1", "fc2"]);
  const mlp = outlines.find((o) => o.label === "MLP");
  for (const o of outlines.filter((x) => x !== mlp)) {
    assert.equal(o.parent, mlp.id);
    for (const m of o.members) assert.ok(index.nodes.get(m).scope.startsWith(o.scope), m);
  }
  // parents come first (the layout nests them in that order)
  assert.equal(outlines[0], mlp);
});

test("three calls of one model in three passes are three outlines, not a repeat", () => {
  const { outlines } = outlinesOf(fixture("dynamic_passes"));
  assert.equal(outlines.filter((o) => o.label === "DynamicNet").length, 3);
  const repeats = outlines.filter((o) => o.kind === "repeat");
  // the passes call `mid` 0..3 times in a loop: each run of two or more is one "mid ×N"
  for (const r of repeats) {
    assert.match(r.label, /^mid ×[23]$/);
    const calls = outlines.filter((o) => o.parent === r.id);
    assert.equal(calls.length, Number(r.label.split("×")[1]));
    assert.ok(calls.every((c) => c.label === "mid"));
  }
  assert.ok(repeats.length >= 1);
});

test("ops repeating from the same line outside any module are one loop outline", () => {
  const nodes = [{ id: "t0", kind: "tensor", is_leaf: true, requires_grad: true }], edges = [], events = [];
  events.push({ type: "create", node: "t0" });
  let prev = "t0";
  for (let k = 0; k < 5; k++) {
    const op = `op${k}`, out = `t${k + 1}`;
    nodes.push({ id: op, kind: "op", op: "MulBackward0", line: { lineno: 4, code: "    y = y * 2" } },
      { id: out, kind: "tensor", requires_grad: true });
    edges.push({ src: prev, dst: op }, { src: op, dst: out });
    events.push({ type: "create", node: op }, { type: "create", node: out });
    prev = out;
  }
  const { outlines } = outlinesOf({ version: "1.1", nodes, edges, events });
  assert.equal(outlines.length, 1);
  assert.equal(outlines[0].label, "×5  y = y * 2");
  assert.equal(outlines[0].members.length, 10); // five ops and their outputs; not the input
});

test("the layout gives every outline a box around its members, nested ones inside", () => {
  for (const direction of ["LR", "TB"]) {
    const { display, outlines } = outlinesOf(fixture("dynamic_passes"));
    const lay = layoutGraph(display, { direction, outlines });
    const inside = (a, b) => a.x - a.width / 2 >= b.x - b.width / 2 - 0.5 && a.x + a.width / 2 <= b.x + b.width / 2 + 0.5
      && a.y - a.height / 2 >= b.y - b.height / 2 - 0.5 && a.y + a.height / 2 <= b.y + b.height / 2 + 0.5;
    for (const o of outlines) {
      const box = lay.outlines.get(o.id);
      assert.ok(box, o.id);
      for (const m of o.members) assert.ok(inside(lay.nodes.get(m), box), `${m} in ${o.label}`);
      if (o.parent) assert.ok(inside(box, lay.outlines.get(o.parent)), `${o.label} in its parent`);
    }
  }
});
