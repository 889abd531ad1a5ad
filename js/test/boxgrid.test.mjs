import { test } from "node:test";
import assert from "node:assert/strict";
import { createBoxGrid } from "../src/model/boxgrid.js";
import { labelArea, placeEdgeLabel } from "../src/model/edgelabels.js";

// A 10,000-box chain with a few boxes wider than a cell, as layered.js lays out a long trace.
const items = Array.from({ length: 10000 }, (_, i) => ({ id: `n${i}`, box: { x: i * 90, y: (i % 3) * 60, width: i % 97 ? 70 : 700, height: 40 } }));
const meets = (b, a) => b.x + b.width / 2 >= a.x0 && b.x - b.width / 2 <= a.x1 && b.y + b.height / 2 >= a.y0 && b.y - b.height / 2 <= a.y1;

test("the grid finds exactly the boxes that meet an area, each once", () => {
  const grid = createBoxGrid(items);
  for (const area of [{ x0: 0, y0: 0, x1: 10, y1: 10 }, { x0: 4000, y0: -50, x1: 4600, y1: 500 },
    { x0: -1000, y0: -1000, x1: -900, y1: -900 }, { x0: 8700, y0: 30, x1: 8800, y1: 31 }]) {
    const found = grid.near(area).map((it) => it.id).sort();
    assert.deepEqual(found, items.filter((it) => meets(it.box, area)).map((it) => it.id).sort(), JSON.stringify(area));
  }
});

test("a label placed among the boxes near it lands where it lands among all of them", () => {
  const grid = createBoxGrid(items);
  for (const at of [5, 500, 9998]) {
    const points = [[at * 90 + 35, 0], [at * 90 + 55, 60]], text = "← 0.25";
    const near = grid.near(labelArea(points, text)).map((it) => it.box);
    assert.ok(near.length < 40, `${near.length} boxes near`);
    assert.deepEqual(placeEdgeLabel(points, text, near, "LR", []), placeEdgeLabel(points, text, items.map((it) => it.box), "LR", []));
  }
});
