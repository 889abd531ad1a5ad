// The shared fixtures written by the tracer's tests (tests/fixtures/). Skipped,
// with a note, where that folder does not exist yet.
import { test } from "node:test";
import assert from "node:assert/strict";
import { indexTrace, stateAt, tensorRole } from "../src/model/timeline.js";
import { displayGraph, displayState } from "../src/model/collapse.js";
import { layoutGraph } from "../src/model/layout.js";
import { comparePasses, passNodes } from "../src/model/passes.js";
import { badgeText, heatGrid, nodeText, summaryText } from "../src/model/format.js";
import { stepLatex } from "../src/model/latex.js";
import { shared } from "./helpers/fixtures.mjs";

const need = (name) => (shared(name) ? false : `tests/fixtures/${name}.json not present`);

test("e_graph: the issue's example ends with a=-3, b=2, c=log 4, d=2.5", { skip: need("e_graph") }, () => {
  const idx = indexTrace(shared("e_graph"));
  const end = stateAt(idx, idx.events.length);
  const grads = Object.fromEntries(["t0", "t1", "t2", "t3"].map((id) => [id, badgeText(end.grads.get(id))]));
  assert.deepEqual(grads, { t0: "-3", t1: "2", t2: "1.386", t3: "2.5" });
  assert.equal(end.phase, "done");
  // Without labels (the magics add them) tensors show a role or the expression, ops their symbol.
  assert.equal(nodeText(idx.nodes.get("t0")), "param");
  assert.equal(nodeText(idx.nodes.get("t4")), "param*param");
  assert.equal(tensorRole(idx, idx.nodes.get("t7")), "output");
  const mul = idx.events.find((e) => e.type === "backward_step" && e.grad_inputs.some((g) => g.node === "t0"));
  const line = stepLatex(idx, mul).lines.find((l) => l.node === "t0");
  assert.equal(line.text, "∂output/∂param = ∂output/∂(param*param) · ∂(param*param)/∂param = 1 · -3 = -3");
});

test("matmul: small matrices as numbers, the chain rule as matrices", { skip: need("matmul") }, () => {
  const idx = indexTrace(shared("matmul"));
  const end = stateAt(idx, idx.events.length);
  assert.equal(summaryText(end.grads.get("t0")), "[[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]");
  const step = idx.events.find((e) => e.type === "backward_step" && idx.nodes.get(e.node).op === "MmBackward0");
  const s = stepLatex(idx, step);
  assert.match(s.incoming, /\\begin\{bmatrix\}1 \\\\ 1\\end\{bmatrix\}/);
  assert.ok(s.lines.every((l) => l.tex.includes("bmatrix")));
  const lay = layoutGraph(displayGraph(idx));
  assert.equal(lay.nodes.size, idx.nodes.size);
});

test("large: statistics and a heatmap from the preview", { skip: need("large") }, () => {
  const idx = indexTrace(shared("large"));
  const x = idx.nodes.get("t0");
  assert.match(summaryText(x.value), /^min .* max .* mean .* std /);
  const grid = heatGrid(x.value);
  assert.equal(grid.data.length, x.value.preview.rows * x.value.preview.cols);
  assert.match(badgeText(stateAt(idx, idx.events.length).grads.get("t0")), /^‖g‖ /);
});

test("passes: the branch taken only in the second pass is marked, the unused param dimmed", { skip: need("passes") }, () => {
  const idx = indexTrace(shared("passes"));
  assert.equal(idx.passes.length, 2);
  const c0 = comparePasses(idx, 0);
  assert.deepEqual(c0.unused, ["t1"]);
  assert.ok(passNodes(idx, 0).has("t1"), "an unused parameter is still drawn, dimmed");
  const c1 = comparePasses(idx, 1);
  assert.equal([...c1.added].filter((id) => idx.nodes.get(id).kind === "op").length, 1);
  const d = displayGraph(idx, { passIndex: 0 });
  const end0 = displayState(d, stateAt(idx, idx.passes[0].last_event + 1));
  assert.ok(end0.gradNone.has("t1"));
});
