import { test } from "node:test";
import assert from "node:assert/strict";
import { broadcastDims, shapeNote } from "../src/model/stepnotes.js";
import { indexTrace } from "../src/model/timeline.js";
import { stepLatex } from "../src/model/latex.js";
import { shared } from "./helpers/fixtures.mjs";

test("a broadcast input is told that its gradient sums the copies", () => {
  assert.deepEqual(broadcastDims([1], [2, 1]), [{ dim: 0, size: 2 }]);
  assert.deepEqual(broadcastDims([3], [2, 3]), [{ dim: 0, size: 2 }]);
  assert.deepEqual(broadcastDims([2, 1], [2, 4]), [{ dim: 1, size: 4 }]);
  assert.equal(shapeNote("AddBackward0", "b", [3], [2, 3]), "b was broadcast over 2 rows: its gradient sums them");
  assert.equal(shapeNote("MulBackward0", "s", [], [2, 3]),
    "s was broadcast over 2 rows and 3 columns: its gradient sums them");
  assert.equal(shapeNote("AddBackward0", "x", [2, 3], [2, 3]), null, "nothing was broadcast");
  assert.equal(shapeNote("SumBackward0", "x", [2, 3], []), null, "a reduction spreads, it does not broadcast");
  assert.equal(shapeNote("TBackward0", "W", [3, 2], [2, 3]), "the gradient is transposed back to W's shape [3, 2]");
});

test("the matmul fixture's bias step says so", () => {
  const idx = indexTrace(shared("matmul"));
  const add = idx.events.find((e) => e.type === "backward_step" && idx.nodes.get(e.node).op === "AddBackward0");
  const bias = stepLatex(idx, add).lines.find((l) => idx.nodes.get(l.node).shape.length === 1);
  assert.equal(bias.note, "bias was broadcast over 2 rows: its gradient sums them");
});
