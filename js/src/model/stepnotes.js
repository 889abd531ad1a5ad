// Sentences the step panel adds under a product where the shapes change on the way
// back: a broadcast input gets the sum of the gradient over the copies it was spread
// into, a transposed one gets the gradient transposed back. Pure: shapes and names
// from the document, no numbers computed.

const BROADCASTING = new Set(["AddBackward0", "SubBackward0", "MulBackward0", "DivBackward0", "PowBackward0",
  "PowBackward1", "MaximumBackward0", "MinimumBackward0", "WhereBackward0", "AddmmBackward0", "ExpandBackward0"]);
const TRANSPOSING = new Set(["TBackward0", "TransposeBackward0", "PermuteBackward0"]);

function sameShape(a, b) {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

/** The output dims an input of shape `inShape` was broadcast along: [{dim, size}]. */
export function broadcastDims(inShape, outShape) {
  const offset = outShape.length - inShape.length;
  const dims = [];
  outShape.forEach((size, dim) => {
    const own = dim - offset >= 0 ? inShape[dim - offset] : undefined;
    if (size > 1 && (own === undefined || own === 1)) dims.push({ dim, size });
  });
  return dims;
}

function along(dims, rank) {
  const word = ({ dim, size }) => {
    if (rank === 2) return `${size} ${dim === 0 ? "rows" : "columns"}`;
    return `${size} entries of dimension ${dim}`;
  };
  return dims.map(word).join(" and ");
}

/**
 * The sentence for one gradient sent back (or null): `op` the op's node name, `name` the
 * input's name as the panel writes it, `inShape` its shape, `outShape` the op output's.
 */
export function shapeNote(op, name, inShape, outShape) {
  if (!Array.isArray(inShape) || !Array.isArray(outShape)) return null;
  if (TRANSPOSING.has(op) && !sameShape(inShape, outShape)) {
    return `the gradient is transposed back to ${name}'s shape [${inShape.join(", ")}]`;
  }
  if (!BROADCASTING.has(op) || sameShape(inShape, outShape)) return null;
  const dims = broadcastDims(inShape, outShape);
  if (!dims.length) return null;
  return `${name} was broadcast over ${along(dims, outShape.length)}: its gradient sums them`;
}
