// Synthetic trace documents in the real schema's shape (version 1.x), for layout
// tests and the speed benchmark: a stack of residual blocks, each with parallel
// branches, every op inside a dotted nn.Module scope so "collapse by module" is
// realistic. Sizes are parameters; `nodesFor(target)` picks blocks for a node count.

const small = (n, v) => ({ shape: [n], dtype: "float32", values: Array(n).fill(v), nan: 0, inf: 0 });

/** A trace document with `blocks` residual blocks of `branches` branches each. */
export function synthTrace({ blocks = 10, branches = 3, backward = true, width = 4 } = {}) {
  const nodes = [], edges = [], events = [];
  let t = 0, o = 0;
  const line = (lineno, code) => ({ file: "<cell>", lineno, function: "forward", code });
  const tensor = (extra) => {
    const node = { id: `t${t++}`, kind: "tensor", shape: [width], dtype: "float32", device: "cpu",
      requires_grad: true, is_leaf: false, origin: "op", value: small(width, 0.5), ...extra };
    nodes.push(node); events.push({ type: "create", node: node.id, pass: 0 });
    return node.id;
  };
  const op = (name, symbol, inputs, scope, lineno) => {
    const node = { id: `op${o++}`, kind: "op", op: name, symbol, formula: "\\frac{\\partial u}{\\partial a} = 1",
      origin: "op", saved: [], scope, line: line(lineno, `h = ${symbol}(h)`) };
    nodes.push(node); events.push({ type: "create", node: node.id, pass: 0 });
    inputs.forEach((src, arg) => edges.push({ src, dst: node.id, arg }));
    const out = tensor({ scope, line: node.line });
    edges.push({ src: node.id, dst: out, arg: 0 });
    return out;
  };
  const params = [];
  const param = (scope, name) => {
    const id = tensor({ is_leaf: true, origin: "leaf", scope, label: `${scope}.${name}`, param: `${scope}.${name}` });
    params.push(id);
    return id;
  };
  let h = tensor({ is_leaf: true, origin: "leaf", requires_grad: false, label: "x" });
  for (let b = 0; b < blocks; b++) {
    const scope = `model.blocks.${b}`;
    const outs = [];
    for (let k = 0; k < branches; k++) {
      const s = `${scope}.branch${k}`;
      const w = param(s, "weight");
      outs.push(op("ReluBackward0", "relu", [op("MmBackward0", "@", [h, w], s, 10 + k)], s, 11 + k));
    }
    let sum = outs[0];
    for (let k = 1; k < outs.length; k++) sum = op("AddBackward0", "+", [sum, outs[k]], scope, 20);
    h = op("AddBackward0", "+", [h, sum], scope, 21);
  }
  const loss = op("SumBackward0", "sum", [h], undefined, 30);
  nodes.find((n) => n.id === loss).label = "loss";
  const doc = { version: "1.0", title: "synthetic", source: "ag_jupyter", nodes, edges, events, passes: [] };
  if (backward) addBackward(doc, loss, params);
  doc.passes = [{ index: 0, first_event: 0, last_event: doc.events.length - 1, backward, params_used: params,
    params_unused: [], params_with_grad: backward ? params : [], grad_none: backward ? [] : null }];
  return doc;
}

// Reverse creation order is a valid dependency order for a graph built forward.
function addBackward(doc, root, params) {
  const ev = doc.events;
  ev.push({ type: "backward_begin", roots: [root], pass: 0 });
  const inputs = new Map();
  for (const e of doc.edges) if (e.dst.startsWith("op")) (inputs.get(e.dst) || inputs.set(e.dst, []).get(e.dst)).push(e);
  const isParam = new Set(params);
  const ops = doc.nodes.filter((n) => n.kind === "op").reverse();
  for (const node of ops) {
    const ins = inputs.get(node.id) || [];
    const g = small(4, 1);
    ev.push({ type: "backward_step", node: node.id, grad_output: g,
      grad_inputs: ins.map((e) => ({ arg: e.arg, node: e.src, grad: g })), formula: node.formula, pass: 0 });
    for (const e of ins) if (isParam.has(e.src)) ev.push({ type: "accumulate", node: e.src, grad: g, pass: 0 });
  }
  ev.push({ type: "backward_end", completed: true, grad_none: [], pass: 0 });
}

/** Blocks needed for about `target` nodes with the given branches. */
export function blocksFor(target, branches = 3) {
  const perBlock = branches * 5 + 2 * (branches - 1) + 2;
  return Math.max(1, Math.round((target - 3) / perBlock));
}
