// What the step panel says must be true: no derivative with respect to a Python
// number, a local derivative written apart from the total, no ∂e/∂e factor at the
// root, and a tensor root's gradient named as the vector-Jacobian product it is.
import { test } from "node:test";
import assert from "node:assert/strict";
import { indexTrace } from "../src/model/timeline.js";
import { stepLatex } from "../src/model/latex.js";
import { fixture, shared } from "./helpers/fixtures.mjs";

const steps = (idx) => idx.events.filter((e) => e.type === "backward_step").map((e) => [e, stepLatex(idx, e)]);

test("a Python number gets no derivative line: ∂(x*2)/∂x = 2 stays, ∂(x*2)/∂2 is gone", () => {
  const idx = indexTrace(fixture("shared_input"));
  const [, byTwo] = steps(idx).find(([e]) => (idx.nodes.get(e.node).consts || []).length);
  assert.equal(byTwo.formula, "\\frac{\\partial {\\text{(x*2)}}}{\\partial {\\text{x}}} = {2}");
  for (const [, s] of steps(idx)) {
    assert.doesNotMatch(s.formula || "", /\\partial \{?\d/, "no ∂/∂(number) in the formula");
    for (const line of s.lines) assert.doesNotMatch(line.text, /∂\d/);
  }
});

test("the local derivative names the op's expression; the total names the root; no ∂e/∂e at the root", () => {
  const idx = indexTrace(fixture("e_labelled"));
  const [[, root], , , [, mul]] = steps(idx);
  assert.deepEqual(root.lines.map((l) => l.text),
    ["∂e/∂(a*b) = ∂(a*b + log(d)*c)/∂(a*b) = 1", "∂e/∂(log(d)*c) = ∂(a*b + log(d)*c)/∂(log(d)*c) = 1"]);
  assert.match(root.formula, /^\\frac\{\\partial \{\\text\{\(a\*b \+ log\(d\)\*c\)\}\}\}/, "local: ∂(a*b + log(d)*c)/∂…, not ∂e/∂…");
  for (const [, s] of steps(idx)) for (const line of s.lines) assert.doesNotMatch(line.text, /∂e\/∂e/);
  assert.equal(mul.lines[0].text, "∂e/∂a = ∂e/∂(a*b) · ∂(a*b)/∂a = 1 · -3 = -3");
});

test("a tensor root's backward is named for what it is: the vector-Jacobian product with G", () => {
  const idx = indexTrace(shared("matmul"));
  for (const [, s] of steps(idx)) {
    assert.match(s.layer[0], /output is not a scalar: output.backward\(G\) sends back the vector-Jacobian product/);
    for (const line of s.lines) assert.match(line.text, /^∂L\//, "∂L/∂x with L = (output * G).sum(), never ∂output/∂x");
  }
});
