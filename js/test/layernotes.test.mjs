import { test } from "node:test";
import assert from "node:assert/strict";
import { layerNote, receivingRows, setting } from "../src/model/layernotes.js";
import { indexTrace } from "../src/model/timeline.js";
import { stepLatex, stepText } from "../src/model/latex.js";
import { fixture } from "./helpers/fixtures.mjs";

// small_cnn: conv(1 -> 3, 3x3, padding 1) on 2 images of 6x6, relu, max pool 2, avg pool 3;
// an embedding of 5 rows looked up at [1, 3, 1]; everything summed
const idx = indexTrace(fixture("small_cnn"));
const stepOf = (op) => idx.events.find((e) => e.type === "backward_step" && idx.nodes.get(e.node).op === op);

test("the settings come from the op's recorded constants", () => {
  const conv = [...idx.nodes.values()].find((n) => n.op === "ConvolutionBackward0");
  assert.deepEqual(setting(conv, "kernel_size"), [3, 3]);
  assert.deepEqual(setting(conv, "padding"), [1, 1]);
  assert.equal(setting(conv, "dilation"), null);
});

test("a convolution's step says where each weight's and pixel's gradient comes from", () => {
  const words = stepLatex(idx, stepOf("ConvolutionBackward0")).layer;
  assert.equal(words[0], "convolution (kernel 3×3, stride 1, padding 1): the kernel visited 72 positions per "
    + "output channel (2 images × 6×6).");
  assert.match(words[1], /each of the 9 weights of a kernel gets the sum, over those 72 positions/);
  assert.match(words[2], /the windows that covered it \(up to 9\).*each of the 3 channels\.$/);
});

test("max pooling routes each output's gradient to its window's arg-max; avg pooling spreads 1/k²", () => {
  const max = stepLatex(idx, stepOf("MaxPool2DWithIndicesBackward0")).layer;
  assert.equal(max[0], "max pool (kernel 2×2, stride 2): each of the 54 output gradients goes back to the one "
    + "input that was the largest of its 2×2 window (the arg-max); the other inputs of the window get 0.");
  assert.equal(max[1], "so at most 54 of the 216 inputs receive a gradient.");
  const avg = stepLatex(idx, stepOf("AvgPool2DBackward0")).layer;
  assert.equal(avg[0], "avg pool (kernel 3×3, stride 3): each output was the mean of 9 inputs, so each input "
    + "of a window gets 1/9 of that output's gradient (1/k², k = 3); 6 output gradients spread this way.");
});

test("an embedding's step names the rows that received gradient, repeated lookups summed", () => {
  const step = stepOf("EmbeddingBackward0");
  const words = stepLatex(idx, step).layer;
  assert.match(words[0], /^embedding: the output is 3 rows looked up/);
  assert.equal(words[1], "2 of 5 rows receive a gradient: row 1 ← [2, 2]; row 3 ← [1, 1].");
  assert.ok(stepText(idx, step).includes("row 1 ← [2, 2]"), "the plain-text fallback carries the words");
  assert.deepEqual(receivingRows({ shape: [2, 1], values: [0, 0] }), []);
  assert.equal(receivingRows({ shape: [100, 50], min: 0, max: 1 }), null, "a large gradient: no rows listed");
});

test("other ops, and a conv without recorded settings, get no layer words", () => {
  assert.equal(stepLatex(idx, stepOf("ReluBackward0")).layer, undefined);
  assert.equal(layerNote({ op: "ConvolutionBackward0" }, null, { shape: [1, 1, 2, 2] }, {}), null);
  assert.equal(layerNote(null, null, null, {}), null);
});
