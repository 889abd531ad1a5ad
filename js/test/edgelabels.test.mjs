import { test } from "node:test";
import assert from "node:assert/strict";
import { placeEdgeLabel, backwardArrow } from "../src/model/edgelabels.js";

const rect = (c, text) => ({ x0: c.x - (7 * text.length + 4) / 2, x1: c.x + (7 * text.length + 4) / 2, y0: c.y - 7, y1: c.y + 7 });
const hits = (r, b) => r.x0 < b.x + b.width / 2 && b.x - b.width / 2 < r.x1 && r.y0 < b.y + b.height / 2 && b.y - b.height / 2 < r.y1;

test("the arrow points against the data flow", () => {
  assert.equal(backwardArrow("LR"), "←");
  assert.equal(backwardArrow("TB"), "↑");
});

test("an edge label goes beside the edge's middle, and moves off a node box in the way", () => {
  const points = [[0, 0], [100, 0]];
  const free = placeEdgeLabel(points, "← 2", [], "LR");
  assert.deepEqual(free, { x: 50, y: -10 });
  const box = { x: 50, y: -20, width: 60, height: 24 }; // sits right above the edge
  const moved = placeEdgeLabel(points, "← 2", [box], "LR");
  assert.ok(!hits(rect(moved, "← 2"), box), JSON.stringify(moved));
  // two labels on the same spot do not cover each other
  const placed = [];
  const a = placeEdgeLabel(points, "← 1.386", [], "LR", placed);
  const b = placeEdgeLabel(points, "← 1.386", [], "LR", placed);
  assert.notDeepEqual(a, b);
  // TB: to the right of a vertical edge
  const tb = placeEdgeLabel([[0, 0], [0, 100]], "↑ 2", [], "TB");
  assert.ok(tb.x > 0 && tb.y === 50);
});
