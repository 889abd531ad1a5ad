import { test } from "node:test";
import assert from "node:assert/strict";
import { layoutGraph, nodeSize, edgePath, DAGRE_LIMIT } from "../src/model/layout.js";
import { layered, isotonic } from "../src/model/layered.js";
import { displayGraph } from "../src/model/collapse.js";
import { indexTrace } from "../src/model/timeline.js";
import { fixture, allFixtures } from "./helpers/fixtures.mjs";
import { synthTrace, blocksFor } from "./helpers/synth.mjs";

const graphOf = (doc, opts) => displayGraph(indexTrace(doc), opts);

function assertNoOverlap(lay) {
  const boxes = [...lay.nodes.entries()];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [, a] = boxes[i], [, b] = boxes[j];
      const apart = Math.abs(a.x - b.x) * 2 >= a.width + b.width - 0.5 || Math.abs(a.y - b.y) * 2 >= a.height + b.height - 0.5;
      assert.ok(apart, `${boxes[i][0]} overlaps ${boxes[j][0]}`);
    }
  }
}

// Data flows along the main axis: every edge goes from a smaller to a larger x (LR) or y (TB).
function assertFlow(lay, lr) {
  for (const e of lay.edges) {
    const a = lay.nodes.get(e.src), b = lay.nodes.get(e.dst);
    assert.ok(lr ? a.x < b.x : a.y < b.y, `${e.src}->${e.dst}`);
  }
}

for (const engine of ["dagre", "layered"]) {
  test(`${engine}: fixtures lay out without overlaps, edges follow the flow, LR and TB`, () => {
    for (const { name, doc } of allFixtures()) {
      for (const direction of ["LR", "TB"]) {
        const lay = layoutGraph(graphOf(doc), { direction, engine });
        assert.equal(lay.engine, engine, name);
        assert.equal(lay.nodes.size, doc.nodes.length, name);
        assertNoOverlap(lay);
        assertFlow(lay, direction === "LR");
        for (const e of lay.edges) assert.ok(e.points.length >= 2, name);
        for (const p of lay.nodes.values()) assert.ok(Number.isFinite(p.x) && Number.isFinite(p.y), name);
      }
    }
  });
}

test("auto picks dagre for small graphs and the layered layout above the limit", () => {
  assert.equal(layoutGraph(graphOf(fixture("e_labelled"))).engine, "dagre");
  const big = graphOf(synthTrace({ blocks: blocksFor(DAGRE_LIMIT * 2) }));
  assert.equal(layoutGraph(big).engine, "layered");
});

// Its speed is benchmarks/bench_lab.py's "first picture" row at 10,000 nodes, not a timed assertion here.
test("layered: 5,000 nodes flow one way, no overlaps on 1,000", () => {
  const g = graphOf(synthTrace({ blocks: blocksFor(5000) }));
  const lay = layoutGraph(g, { engine: "layered" });
  assertFlow(lay, true);
  assertNoOverlap(layoutGraph(graphOf(synthTrace({ blocks: blocksFor(1000) })), { engine: "layered" }));
});

test("layered: leaves sit next to their consumer; cycles (collapsed boxes) still lay out", () => {
  const out = layered({
    nodes: ["a", "b", "c", "w", "z"].map((id) => ({ id, width: 20, height: 10 })),
    edges: [{ src: "a", dst: "b" }, { src: "b", dst: "c" }, { src: "w", dst: "c" }, { src: "c", dst: "z" }, { src: "z", dst: "b" }],
  });
  assert.equal(out.pos.size, 5);
  const ys = ["a", "b", "c", "w"].map((id) => out.pos.get(id).y);
  assert.ok(ys[3] > ys[0], "w is pulled next to c, not left at rank 0");
  for (const e of out.edges) assert.ok(e.points.length >= 2);
});

test("isotonic placement keeps order and gaps and stays near the wish", () => {
  const x = isotonic([0, 1, 2], [10, 0, 5], [10, 10, 10], 5);
  assert.ok(x[1] - x[0] >= 15 - 1e-9 && x[2] - x[1] >= 15 - 1e-9);
  const free = isotonic([0, 1], [0, 100], [10, 10], 5);
  assert.deepEqual([...free], [0, 100]);
});

test("node sizes and edge paths", () => {
  assert.deepEqual(nodeSize({ kind: "op", text: "×" }), { width: 26, height: 26 });
  assert.ok(nodeSize({ kind: "op", text: "permute" }).width > 50);
  assert.ok(nodeSize({ kind: "tensor", text: "a much longer label" }).width > nodeSize({ kind: "tensor", text: "a" }).width);
  assert.equal(edgePath([[0, 0], [10, 10]], "LR"), "M0,0C5,0 5,10 10,10");
  assert.equal(edgePath([[0, 0]]), "");
});
