import { test } from "node:test";
import assert from "node:assert/strict";
import { forwardArithmetic, leafArithmetic, nameOperand, valueText } from "../src/model/arith.js";
import { indexTrace } from "../src/model/timeline.js";
import { fixture } from "./helpers/fixtures.mjs";

const small = (shape, values) => ({ shape, dtype: "float32", values, nan: 0, inf: 0 });

test("the README example's forward steps read as arithmetic, with the document's numbers", () => {
  const doc = fixture("e_labelled"), idx = indexTrace(doc);
  const byExpr = (x) => doc.nodes.find((n) => n.expr === x || n.label === x).id;
  assert.equal(forwardArithmetic(idx, byExpr("a*b")), "a*b = 2 × (-3) = -6");
  assert.equal(forwardArithmetic(idx, byExpr("log(d)")), "log(d) = log(4) = 1.386");
  assert.equal(forwardArithmetic(idx, byExpr("log(d)*c")), "log(d)*c = 1.386 × 10 = 13.86");
  assert.equal(forwardArithmetic(idx, byExpr("e")), "e = a*b + log(d)*c = -6 + 13.86 = 7.863");
  assert.equal(leafArithmetic(idx, byExpr("a")), "a = 2");
  assert.equal(forwardArithmetic(idx, byExpr("a")), null, "a leaf has no op");
});

test("constants, brackets and sizes", () => {
  const nodes = [
    { id: "x", kind: "tensor", label: "x", value: small([], [3]) },
    { id: "op", kind: "op", op: "SubBackward0", symbol: "−", consts: [{ arg: 0, value: 2 }] },
    { id: "y", kind: "tensor", expr: "2 - x", value: small([], [-1]) },
    { id: "op2", kind: "op", op: "PowBackward0", symbol: "^", consts: [{ arg: 1, value: 2 }] },
    { id: "z", kind: "tensor", label: "z", value: small([], [1]) },
    { id: "big", kind: "tensor", label: "W", value: small([5], [1, 2, 3, 4, 5]) },
  ];
  const edges = [{ src: "x", dst: "op", arg: 1 }, { src: "op", dst: "y", arg: 0 }, { src: "y", dst: "op2", arg: 0 },
    { src: "op2", dst: "z", arg: 0 }];
  const idx = indexTrace({ version: "1.1", nodes, edges, events: [], passes: [] });
  assert.equal(forwardArithmetic(idx, "y"), "2 - x = 2 − 3 = -1");
  assert.equal(forwardArithmetic(idx, "z"), "z = (2 - x) ** 2 = (-1) ** 2 = 1");
  assert.equal(valueText(small([2], [1, 2])), "[1, 2]");
  assert.equal(valueText(small([5], [1, 2, 3, 4, 5])), null, "too many numbers for a sentence");
  assert.equal(leafArithmetic(idx, "big"), null);
  assert.equal(nameOperand("log(d)"), "log(d)");
  assert.equal(nameOperand("a*b"), "(a*b)");
});
