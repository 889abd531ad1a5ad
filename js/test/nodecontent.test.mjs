import { test } from "node:test";
import assert from "node:assert/strict";
import { valueView, opText, tensorContent, gradState, GRID_MAX, LINE, badLine } from "../src/model/nodecontent.js";
import { indexTrace, stateAt } from "../src/model/timeline.js";
import { displayGraph, displayState } from "../src/model/collapse.js";
import { layoutGraph } from "../src/model/layout.js";
import { fixture } from "./helpers/fixtures.mjs";
import { channelMaps } from "../src/model/format.js";

const small = (shape, values) => ({ shape, dtype: "float32", values, nan: 0, inf: 0 });

test("values: a scalar as its number, a small tensor as a grid, a large one as thumbnail + min/max", () => {
  assert.deepEqual(valueView(small([], [2])), { kind: "scalar", text: "2" });
  assert.deepEqual(valueView(small([1], [-3.25])), { kind: "scalar", text: "-3.25" });
  assert.deepEqual(valueView(small([3], [1, 2.5, -1])), { kind: "grid", rows: [["1", "2.5", "-1"]] });
  assert.deepEqual(valueView(small([2, 2], [1, 2, 3, 4])).rows, [["1", "2"], ["3", "4"]]);
  // 5 columns is past the grid's limit: the statistics, min and max picked from the values sent
  const wide = valueView(small([1, GRID_MAX + 1], [3, -7, 1, "NaN", 9]));
  assert.equal(wide.kind, "large");
  assert.equal(wide.min, "-7");
  assert.equal(wide.max, "9");
  const large = fixture("large_matmul").nodes.find((n) => n.kind === "tensor" && n.value && n.value.preview);
  const view = valueView(large.value);
  assert.equal(view.kind, "large");
  assert.ok(view.heat.rows <= 8 && view.heat.cols <= 8 && view.heat.cells.length === view.heat.rows * view.heat.cols);
  assert.equal(view.min, String(Number(large.value.min.toPrecision(4))));
  assert.equal(valueView(null), null);
});

test("an op shows its Python constants where they were written", () => {
  const op = (symbol, consts) => ({ kind: "op", op: "X", symbol, consts });
  assert.equal(opText(op("×", [{ arg: 1, value: 2 }])), "× 2");
  assert.equal(opText(op("+", [{ arg: 1, value: 3 }])), "+ 3");
  assert.equal(opText(op("^", [{ arg: 1, value: 2 }])), "** 2");
  assert.equal(opText(op("−", [{ arg: 0, value: 2 }])), "2 −");
  assert.equal(opText(op("×", undefined)), "×");
  assert.equal(opText(op("sum", [{ arg: 1, value: [0, 1] }])), "sum"); // not a number: left out
});

test("a convolution or pooling shows its window's settings, named", () => {
  const op = (symbol, consts) => ({ kind: "op", op: "X", symbol, consts });
  const setting = (name, value) => ({ name, value });
  assert.equal(opText(op("conv", [setting("kernel_size", "(5, 5)"), setting("stride", "(1, 1)"),
    setting("padding", "(2, 2)")])), "conv 5×5 stride 1 padding 2");
  assert.equal(opText(op("conv", [setting("kernel_size", "(3,)"), setting("stride", "(2,)"),
    setting("groups", "2")])), "conv 3 stride 2 groups 2");
  assert.equal(opText(op("max pool", [setting("kernel_size", "(2, 3)"), setting("stride", "(2, 1)"),
    setting("ceil_mode", "True")])), "max pool 2×3 stride 2×1 ceil mode True");
  assert.equal(opText(op("conv", [setting("kernel_size", "(4, 4)"), setting("padding", "same")])),
    "conv 4×4 padding same");
});

test("a box is sized for what it holds: wider for longer values, taller with a grad line or a grid", () => {
  const scalar = tensorContent({ kind: "tensor", label: "a", shape: [], value: small([], [2]), requires_grad: true, is_leaf: true });
  const longer = tensorContent({ kind: "tensor", label: "a", shape: [], value: small([], [-0.000123456]), requires_grad: true });
  const constant = tensorContent({ kind: "tensor", label: "a", shape: [], value: small([], [2]), requires_grad: false });
  assert.equal(scalar.title, "a");
  assert.ok(longer.width > scalar.width);
  assert.ok(scalar.height > constant.height, "a line is kept for the gradient");
  const grid = tensorContent({ kind: "tensor", label: "W", shape: [3, 2], value: small([3, 2], [1, 2, 3, 4, 5, 6]), requires_grad: true });
  assert.equal(grid.title, "W  [3,2]");
  assert.ok(grid.height >= 5 * 16, "title, grad header and three rows");
  // layout uses the content's size
  const lay = layoutGraph({ nodes: [{ id: "w", kind: "tensor", content: grid }], edges: [] });
  assert.equal(lay.nodes.get("w").height, grid.height);
});

test("gradient states on the README graph: pending, arrived (running total), the leaf's .grad, None after the end", () => {
  const doc = fixture("e_labelled");
  const index = indexTrace(doc);
  const display = displayGraph(index);
  const id = (label) => doc.nodes.find((n) => n.label === label).id;
  const ab = doc.nodes.find((n) => n.expr === "a*b").id;
  const at = (step) => displayState(display, stateAt(index, step));
  const forward = doc.events.findIndex((e) => e.type === "backward_begin") + 1;
  assert.equal(gradState(at(forward), ab).state, "pending");
  assert.equal(gradState(at(forward), id("a"), true).state, "pending");
  // once "+" stepped, a*b holds the 1 it was sent; a (a leaf) waits for its accumulate
  const plus = doc.events.findIndex((e) => e.type === "backward_step") + 1;
  assert.deepEqual(gradState(at(plus), ab).summary.values, [1]);
  assert.equal(gradState(at(plus), id("a"), true).state, "pending");
  const end = at(doc.events.length);
  assert.deepEqual(gradState(end, id("a"), true), { state: "value", summary: doc.nodes.find((n) => n.label === "a").grad });
  assert.deepEqual(gradState(end, id("e")).summary.values, [1]);
  const zero = { grads: new Map([["x", small([2], [0, 0])]]), gradNone: new Set(), phase: "done" };
  assert.equal(gradState(zero, "x", true).state, "zero");
  assert.equal(gradState(zero, "y", true).state, "none");
});

test("a box is wide enough for the gradient it will show, not only for its value", () => {
  const node = { kind: "tensor", label: "x", shape: [3], value: small([3], [1, 0, 2]), requires_grad: true, is_leaf: true };
  const narrow = tensorContent(node);
  const wide = tensorContent(node, small([3], [1, "Infinity", 0.7071]));
  assert.ok(wide.width > narrow.width + 2 * 7 * 4, `${wide.width} vs ${narrow.width}`);
});

test("transpose's superscript is written full size in its pill", () => {
  assert.equal(opText({ kind: "op", op: "TBackward0", symbol: "ᵀ" }), "T");
});

test("an image batch's box draws sample 0's channels side by side, from the document's channel maps", () => {
  const doc = fixture("small_cnn");
  const conv = doc.nodes.find((n) => n.kind === "tensor" && String(n.shape) === "2,3,6,6");
  const maps = channelMaps(conv.value);
  assert.equal(maps.channels, 3);
  assert.equal(maps.maps.length, 3);
  assert.deepEqual([maps.maps[0].rows, maps.maps[0].cols], [6, 6]);
  const view = valueView(conv.value);
  // 3 channels: 2 across, 2 down, 6x6 each with one blank cell between
  assert.deepEqual([view.heat.rows, view.heat.cols, view.heat.shown], [13, 13, 3]);
  assert.equal(view.heat.cells[6], null, "the gap between channel 0 and channel 1");
  assert.equal(view.heat.cells[7], maps.maps[1].data[0], "channel 1 starts after the gap");
  assert.equal(view.heat.cells[7 * 13], maps.maps[2].data[0], "channel 2 starts the second row of maps");
  assert.equal(view.heat.cells[7 * 13 + 7], null, "no fourth channel");
  const two = valueView({ ...conv.value, channels: undefined });
  assert.ok(two.heat && !two.heat.shown, "a 1.2 document's 4-D summary keeps the old thumbnail");
});

test("a large tensor's min and max are marked ≈ when they come from a sample, not when exact", () => {
  const base = { shape: [300, 301], dtype: "float32", nan: 0, inf: 0, min: -0.7, max: 0.9, mean: 0, std: 0.3, norm: 9 };
  assert.deepEqual([valueView({ ...base, sampled: true }).min, valueView({ ...base, sampled: true }).max], ["≈-0.7", "≈0.9"]);
  assert.equal(valueView({ ...base, sampled: true, exact_extrema: true }).min, "-0.7");
  assert.equal(valueView({ ...base, sampled: false }).max, "0.9");
});

test("a large tensor with NaN or inf entries says how many under its finite min and max, and its box has room", () => {
  const base = { shape: [10, 10], dtype: "float32", nan: 0, inf: 0, min: 0, max: 0, mean: 0, std: 0, norm: 0 };
  assert.equal(valueView(base).bad, "");
  assert.equal(valueView({ ...base, inf: 50 }).bad, "50 inf");
  assert.equal(valueView({ ...base, nan: 3, inf: 50 }).bad, "3 nan, 50 inf");
  assert.equal(badLine(valueView({ ...base, inf: 50 }).bad), "⚠ 50 inf"); // the line the box draws
  const node = { id: "t0", kind: "tensor", shape: [10, 10], requires_grad: true, is_leaf: true };
  const clean = tensorContent({ ...node, value: base }), infinite = tensorContent({ ...node, value: { ...base, inf: 50 } });
  assert.equal(infinite.height - clean.height, LINE);
});

test("an empty tensor's box shows its shape and no min or max (it has none)", () => {
  const empty = { shape: [0, 4], dtype: "float32", values: [], nan: 0, inf: 0 };
  assert.equal(valueView(empty), null);
  const box = tensorContent({ id: "t0", kind: "tensor", shape: [0, 4], requires_grad: false, is_leaf: true, label: "e", value: empty });
  assert.equal(box.title, "e  [0,4]");
  assert.equal(box.value, null);
});
