import { test } from "node:test";
import assert from "node:assert/strict";
import { walkFrom, walkWay } from "../src/model/graphwalk.js";
import { indexTrace } from "../src/model/timeline.js";
import { displayGraph } from "../src/model/collapse.js";
import { layoutGraph } from "../src/model/layout.js";
import { fixture } from "./helpers/fixtures.mjs";

function walker(direction) {
  const doc = fixture("e_labelled"), index = indexTrace(doc), display = displayGraph(index);
  const positions = layoutGraph(display, { direction }).nodes;
  const id = (x) => doc.nodes.find((n) => n.expr === x || n.label === x).id;
  const all = new Set(display.nodes.map((d) => d.id));
  return { index, id, walk: (from, key, visible = all) => walkFrom(display, positions, visible, from, key, direction) };
}

test("left and right follow the edges in LR: an input one way, the consumer the other", () => {
  const g = walker("LR");
  const mul = g.index.producer.get(g.id("a*b"));
  assert.equal(g.walk(g.id("a"), "ArrowRight"), mul);
  assert.equal(g.walk(mul, "ArrowRight"), g.id("a*b"));
  assert.ok([g.id("a"), g.id("b")].includes(g.walk(mul, "ArrowLeft")));
  assert.equal(g.walk(g.id("a"), "ArrowLeft"), null, "a leaf has no input");
  assert.equal(g.walk(g.id("e"), "ArrowRight"), null, "the output has no consumer");
});

test("up and down go across to the siblings of a layer, and back", () => {
  const g = walker("LR");
  const down = g.walk(g.id("a"), "ArrowDown") || g.walk(g.id("a"), "ArrowUp");
  assert.ok(down && g.index.nodes.get(down).is_leaf, "a's neighbour in its layer is another leaf");
  const back = g.walk(down, g.walk(g.id("a"), "ArrowDown") ? "ArrowUp" : "ArrowDown");
  assert.equal(back, g.id("a"));
});

test("in TB the axes swap; nodes not made yet are skipped", () => {
  const g = walker("TB");
  const mul = g.index.producer.get(g.id("a*b"));
  assert.equal(g.walk(g.id("a"), "ArrowDown"), mul);
  assert.ok([g.id("a"), g.id("b")].includes(g.walk(mul, "ArrowUp")));
  assert.equal(g.walk(g.id("a"), "ArrowDown", new Set([g.id("a")])), null);
  assert.equal(walkWay("Enter", "LR"), null);
});
