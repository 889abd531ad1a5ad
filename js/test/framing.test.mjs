import { test } from "node:test";
import assert from "node:assert/strict";
import { wholeGraphFrame, FIT_FLOOR } from "../src/model/framing.js";

test("a graph that fits above the floor is framed whole, centred", () => {
  const f = wholeGraphFrame({ width: 600, height: 200 }, 1000, 400, "LR", { minScale: FIT_FLOOR });
  assert.ok(f.k >= FIT_FLOOR && f.k <= 1.5);
  assert.ok(f.x >= 0 && f.x + 600 * f.k <= 1000 && f.y >= 0 && f.y + 200 * f.k <= 400);
});

test("a chain too long to show whole stops at the floor, centred on the focus box", () => {
  // a 1,000-node chain laid out left to right: whole it would be ~0.006x
  const layout = { width: 170000, height: 40 };
  assert.ok(wholeGraphFrame(layout, 1100, 420, "LR").k < 0.01);
  const focusBox = { x: 85000, y: 20 };
  const f = wholeGraphFrame(layout, 1100, 420, "LR", { minScale: FIT_FLOOR, focusBox });
  assert.equal(f.k, FIT_FLOOR);
  assert.equal(f.x + focusBox.x * f.k, 550);
  assert.equal(f.y + focusBox.y * f.k, 210);
  // a 24 px box is still a shape of several pixels at the floor
  assert.ok(24 * FIT_FLOOR >= 6);
});
