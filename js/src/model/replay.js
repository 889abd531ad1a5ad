// A written page has no kernel to re-run the graph: for graphs of elementwise ops and
// whole reductions it evaluates the recorded graph again itself (issue 33), from the
// leaves' recorded values (the document keeps every entry of a tensor of at most 64),
// in float64. Anything else says that a kernel is needed. The kernel's replay
// (ag_jupyter/tracing/replay.py) re-runs the engine's own ops instead.

const UNARY = {
  NegBackward0: (a) => -a, ExpBackward0: Math.exp, LogBackward0: Math.log, SqrtBackward0: Math.sqrt,
  AbsBackward0: Math.abs, SinBackward0: Math.sin, CosBackward0: Math.cos, TanhBackward0: Math.tanh,
  SigmoidBackward0: (a) => 1 / (1 + Math.exp(-a)), ReluBackward0: (a) => (a > 0 ? a : 0),
};
const BINARY = {
  AddBackward0: (a, b) => a + b, SubBackward0: (a, b) => a - b, RsubBackward1: (a, b) => a - b,
  MulBackward0: (a, b) => a * b, DivBackward0: (a, b) => a / b, PowBackward0: (a, b) => a ** b,
  PowBackward1: (a, b) => a ** b, MaximumBackward0: Math.max, MinimumBackward0: Math.min,
};
const WHOLE = {
  SumBackward0: (xs) => xs.reduce((s, x) => s + x, 0),
  MeanBackward0: (xs) => xs.reduce((s, x) => s + x, 0) / xs.length,
};

/** Why this page cannot re-run the graph of `rootId` itself (null where it can). */
export function replayProblem(doc, rootId) {
  try { evaluate(doc, rootId); return null; } catch (error) { return error.message; }
}

const number = (v) => (typeof v === "number" ? v : Number(v === "Infinity" ? Infinity : v === "-Infinity" ? -Infinity : NaN));

/**
 * The root's value ({shape, values}) with the leaves in `changes` (id -> flat values)
 * replaced. Throws an Error that says what needs a kernel.
 */
export function evaluate(doc, rootId, changes = new Map()) {
  const nodes = new Map(doc.nodes.map((n) => [n.id, n]));
  const producer = new Map(), inputs = new Map();
  for (const { src, dst, arg } of doc.edges) {
    if (nodes.get(src).kind === "op") producer.set(dst, src);
    else {
      if (!inputs.has(dst)) inputs.set(dst, []);
      inputs.get(dst)[arg] = src;
    }
  }
  const memo = new Map();
  const value = (id) => {
    if (memo.has(id)) return memo.get(id);
    const node = nodes.get(id);
    const op = producer.has(id) ? nodes.get(producer.get(id)) : null;
    let out;
    if (!op) {
      const v = node.value;
      if (!v || !Array.isArray(v.values)) {
        throw new Error(`re-running this graph needs a kernel: ${node.label || id} has more entries than the page keeps`);
      }
      out = { shape: v.shape, values: changes.has(id) ? changes.get(id) : v.values.map(number) };
    } else out = apply(op, inputs.get(op.id) || [], value);
    memo.set(id, out);
    return out;
  };
  return value(rootId);
}

function apply(op, tensorArgs, value) {
  const args = [];
  tensorArgs.forEach((id, k) => { if (id !== undefined) args[k] = value(id); });
  for (const c of op.consts || []) if (c.arg !== undefined) args[c.arg] = { shape: [], values: [number(c.value)] };
  const name = op.op;
  if (UNARY[name] && args.length === 1) return map1(args[0], UNARY[name]);
  if (BINARY[name] && args.length === 2 && args[0] && args[1]) return broadcast(args[0], args[1], BINARY[name]);
  if (WHOLE[name] && args.length === 1) return { shape: [], values: [WHOLE[name](args[0].values)] };
  throw new Error(`re-running ${name} needs a kernel (this page re-runs elementwise ops and whole sums and means)`);
}

const map1 = (a, f) => ({ shape: a.shape, values: a.values.map(f) });

function broadcast(a, b, f) {
  const rank = Math.max(a.shape.length, b.shape.length);
  const pad = (s) => [...Array(rank - s.length).fill(1), ...s];
  const sa = pad(a.shape), sb = pad(b.shape);
  const shape = sa.map((n, k) => {
    if (n !== sb[k] && n !== 1 && sb[k] !== 1) throw new Error(`shapes ${a.shape} and ${b.shape} do not broadcast`);
    return Math.max(n, sb[k]);
  });
  const size = shape.reduce((p, n) => p * n, 1);
  const values = new Array(size);
  for (let flat = 0; flat < size; flat++) {
    let rest = flat, ia = 0, ib = 0, strideA = 1, strideB = 1;
    for (let k = rank - 1; k >= 0; k--) {
      const i = rest % shape[k];
      rest = Math.floor(rest / shape[k]);
      if (sa[k] !== 1) ia += i * strideA;
      if (sb[k] !== 1) ib += i * strideB;
      strideA *= sa[k];
      strideB *= sb[k];
    }
    values[flat] = f(a.values[ia], b.values[ib]);
  }
  return { shape, values };
}

/** h's default: about 1e-3 of the value's scale (1e-3 near 0), as the kernel's. */
export function defaultH(values) {
  const scale = Math.max(0, ...values.map((v) => Math.abs(number(v))).filter(Number.isFinite));
  return scale > 1e-3 ? 1e-3 * scale : 1e-3;
}

/** Significant digits `a` and `b` share (16 when equal), and their relative error. */
export function agreement(a, b) {
  if (a === b) return { digits: 16, relativeError: 0 };
  const scale = Math.max(Math.abs(a), Math.abs(b));
  const relativeError = scale ? Math.abs(a - b) / scale : 0;
  const digits = !Number.isFinite(relativeError) || relativeError >= 1 ? 0 : Math.min(16, Math.floor(-Math.log10(relativeError)));
  return { digits, relativeError };
}

/** The page's nudge: the output at x ± h in entry `flat` of leaf `id`, the slope and
 * its agreement with `grad` (the same fields as the kernel's answer). */
export function nudgeHere(doc, rootId, id, grad, h, flat = 0) {
  const leaf = doc.nodes.find((n) => n.id === id);
  if (!leaf || !leaf.value || !Array.isArray(leaf.value.values)) {
    throw new Error(`nudging ${leaf ? leaf.label || id : id} needs a kernel: it has more entries than the page keeps`);
  }
  const base = leaf.value.values.map(number);
  const at = (sign) => {
    const moved = [...base];
    moved[flat] += sign * h;
    return evaluate(doc, rootId, new Map([[id, moved]])).values[0];
  };
  const plus = at(1), minus = at(-1);
  const slope = (plus - minus) / (2 * h);
  const { digits, relativeError } = agreement(slope, grad);
  return { h, index: flat, x: base[flat], L: evaluate(doc, rootId).values[0], L_plus: plus, L_minus: minus,
    slope, grad, digits, relative_error: relativeError, where: "page" };
}

/** The page's step downhill: every leaf that requires grad (with a gradient the document
 * keeps) moved by -lr × grad, the output re-run, beside L - lr·‖grad‖². */
export function downhillHere(doc, rootId, lr) {
  const moved = new Map();
  let squared = 0;
  for (const n of doc.nodes) {
    if (n.kind !== "tensor" || !n.is_leaf || !n.requires_grad || !n.grad) continue;
    if (!Array.isArray(n.grad.values) || !n.value || !Array.isArray(n.value.values)) {
      throw new Error(`one step downhill needs a kernel here: ${n.label || n.id} has more entries than the page keeps`);
    }
    const g = n.grad.values.map(number);
    squared += g.reduce((s, x) => s + x * x, 0);
    moved.set(n.id, n.value.values.map((v, k) => number(v) - lr * g[k]));
  }
  const before = evaluate(doc, rootId).values[0], after = evaluate(doc, rootId, moved).values[0];
  const predicted = before - lr * squared;
  return { what: "downhill", lr, L: before, L_new: after, predicted, change: after - before,
    predicted_change: predicted - before };
}
