// The step panel's words for the layers whose gradient is no scalar chain rule: a
// convolution, a pooling and an embedding say which inputs get which part of the
// output's gradient, with the sizes and settings the document recorded (the op's
// kernel, stride and padding; the shapes; an embedding weight's gradient rows).
// Pure: formats what the document holds, computes no gradient.
import { num, nested } from "./format.js";

/** A recorded setting as numbers: "(2, 2)" -> [2, 2]; null when the op lacks it. */
export function setting(op, name) {
  const found = (op.consts || []).find((c) => c.name === name);
  if (!found) return null;
  return String(found.value).replace(/[() ]/g, "").split(",").filter((p) => p !== "").map(Number);
}

const times = (pair) => (pair.every((n) => n === pair[0]) && pair.length === 2 ? `${pair[0]}×${pair[0]}` : pair.join("×"));
const product = (shape) => shape.reduce((a, b) => a * b, 1);

function settings(op) {
  const kernel = setting(op, "kernel_size"), stride = setting(op, "stride") || kernel, padding = setting(op, "padding");
  const words = [`kernel ${times(kernel)}`, `stride ${stride.every((s) => s === stride[0]) ? stride[0] : stride.join("×")}`];
  if (padding && padding.some((p) => p)) words.push(`padding ${padding.every((p) => p === padding[0]) ? padding[0] : padding.join("×")}`);
  return { kernel, stride, words: words.join(", ") };
}

function convolution(op, out) {
  const { kernel, stride, words } = settings(op);
  const [n, channels, ...spatial] = out.shape;
  const positions = n * product(spatial);
  const covering = kernel.map((k, i) => Math.ceil(k / stride[i])).reduce((a, b) => a * b, 1);
  return [
    `convolution (${words}): the kernel visited ${positions} positions per output channel ` +
      `(${n} image${n === 1 ? "" : "s"} × ${spatial.join("×")}).`,
    `weight: each of the ${product(kernel)} weights of a kernel gets the sum, over those ${positions} positions, ` +
      "of the output's gradient there × the input pixel that weight covered.",
    `input: each pixel gets the output gradients of the windows that covered it (up to ${covering}), ` +
      "each × the weight it met there; bias: the output's gradient summed over images and positions, " +
      `one number for each of the ${channels} channels.`,
  ];
}

function maxPool(op, input, out) {
  const { kernel, words } = settings(op);
  const outputs = product(out.shape), inputs = input ? product(input.shape) : null;
  return [
    `max pool (${words}): each of the ${outputs} output gradients goes back to the one input that was ` +
      `the largest of its ${times(kernel)} window (the arg-max); the other inputs of the window get 0.`,
    inputs !== null
      ? `so at most ${outputs} of the ${inputs} inputs receive a gradient.`
      : "so most inputs receive no gradient.",
  ];
}

function avgPool(op, out) {
  const { kernel, words } = settings(op);
  const share = product(kernel);
  return [
    `avg pool (${words}): each output was the mean of ${share} inputs, so each input of a window gets ` +
      `1/${share} of that output's gradient (1/k², k = ${kernel[0]}${kernel[1] !== kernel[0] ? `×${kernel[1]}` : ""}); ` +
      `${product(out.shape)} output gradients spread this way.`,
  ];
}

/** The rows of an embedding weight's gradient that are not all 0, with their numbers (or null). */
export function receivingRows(grad) {
  const rows = nested(grad);
  if (!Array.isArray(rows) || !Array.isArray(rows[0])) return null;
  return rows.map((row, r) => ({ row: r, values: row })).filter(({ values }) => values.some((v) => v !== 0));
}

function embedding(out, weightGrad) {
  const looked = out.shape.slice(0, -1), count = product(looked);
  const lines = [`embedding: the output is ${count} rows looked up in the weight table; the gradient goes back ` +
    "to the rows that were looked up, and a row looked up several times gets the sum of those positions' gradients; " +
    "every other row gets 0."];
  const rows = weightGrad && receivingRows(weightGrad);
  if (rows) {
    const shown = rows.slice(0, 6).map(({ row, values }) => `row ${row} ← [${values.map(num).join(", ")}]`);
    lines.push(`${rows.length} of ${weightGrad.shape[0]} rows receive a gradient: ${shown.join("; ")}` +
      `${rows.length > 6 ? "; …" : ""}.`);
  }
  return lines;
}

/**
 * The sentences for a backward step of a convolution, pooling or embedding (else null):
 * `op` the op node, `input` its first input node, `out` its output node, `event` the step.
 */
export function layerNote(op, input, out, event) {
  if (!op || !out || !Array.isArray(out.shape)) return null;
  switch (op.op) {
    case "ConvolutionBackward0":
      return setting(op, "kernel_size") && out.shape.length >= 3 ? convolution(op, out) : null;
    case "MaxPool2DWithIndicesBackward0":
    case "MaxPool1DWithIndicesBackward0":
      return setting(op, "kernel_size") ? maxPool(op, input, out) : null;
    case "AvgPool2DBackward0":
      return setting(op, "kernel_size") ? avgPool(op, out) : null;
    case "EmbeddingBackward0": {
      const weight = (event.grad_inputs || []).find((g) => g.arg === 0);
      return embedding(out, weight && weight.grad);
    }
    default:
      return null;
  }
}
