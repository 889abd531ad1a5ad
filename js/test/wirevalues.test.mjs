import { test } from "node:test";
import assert from "node:assert/strict";
import { unpackValues } from "../src/model/wirevalues.js";
import { fixture } from "./helpers/fixtures.mjs";

// What the kernel sends (ag_jupyter/widgets/wire_values.py), made here from a plain document:
// each finite float32/float64 small summary as {packed: [at, dtype, ...shape]}, its entries in
// a little-endian buffer that starts at an odd byte of its ArrayBuffer, as a part of a
// websocket message can; each backward step without its formula (its node's); lines and op
// formulas as indices into tables, bare create events as their node's id, no event's pass,
// edges as triples.
function packed(doc) {
  const copy = structuredClone(doc);
  copy.wire = 2;
  const lines = [], lineAt = new Map(), texts = [], textAt = new Map();
  const indexOf = (table, at, key, item) => {
    if (!at.has(key)) { at.set(key, table.length); table.push(item); }
    return at.get(key);
  };
  for (const item of [...copy.nodes, ...copy.events]) {
    if (item.line) item.line = indexOf(lines, lineAt, JSON.stringify(item.line), item.line);
  }
  const formulas = new Map(copy.nodes.filter((n) => n.kind === "op").map((n) => [n.id, n.formula]));
  const entries = { float32: [], float64: [] };
  const table = { at: [], kind: [], kinds: [] }, kindAt = new Map();
  const pack = (s) => {
    if (!s || !Array.isArray(s.values) || !entries[s.dtype] || s.nan || s.inf || Object.keys(s).length !== 5) return s;
    table.at.push(entries[s.dtype].length);
    table.kind.push(indexOf(table.kinds, kindAt, JSON.stringify([s.dtype, ...s.shape]), [s.dtype, ...s.shape]));
    entries[s.dtype].push(...s.values);
    return table.at.length - 1;
  };
  for (const node of copy.nodes) {
    if (node.value) node.value = pack(node.value);
    if (node.grad) node.grad = pack(node.grad);
    for (const s of node.saved || []) if (s.value) s.value = pack(s.value);
  }
  for (const event of copy.events) {
    if (event.type === "backward_step" && event.formula === formulas.get(event.node)) delete event.formula;
    if (event.grad_output) event.grad_output = pack(event.grad_output);
    for (const g of event.grad_inputs || []) {
      g.grad = pack(g.grad);
      if (g.total) g.total = pack(g.total);
    }
    if (event.type === "update") for (const k of Object.keys(event.values)) event.values[k] = pack(event.values[k]);
    if (event.grad) event.grad = pack(event.grad);
  }
  for (const node of copy.nodes) if (node.kind === "op") node.formula = indexOf(texts, textAt, node.formula, node.formula);
  copy.events = copy.events.map((e) => {
    delete e.pass;
    return e.type === "create" && Object.keys(e).length === 2 ? e.node : e;
  });
  copy.edges = copy.edges.map((e) => [e.src, e.dst, e.arg]);
  Object.assign(copy, { lines, formulas: texts, summaries: table });
  for (const [dtype, name, width, write] of [["float32", "values32", 4, "setFloat32"], ["float64", "values64", 8, "setFloat64"]]) {
    if (!entries[dtype].length) continue;
    const view = new DataView(new ArrayBuffer(entries[dtype].length * width + 3), 3);
    entries[dtype].forEach((v, k) => view[write](k * width, v, true));
    copy[name] = view;
  }
  return copy;
}

// summaries sent as their row's number
const count = (doc) => [...doc.nodes.flatMap((n) => [n.value, n.grad]), ...doc.events.flatMap((e) =>
  typeof e === "object" ? [e.grad_output, e.grad, ...(e.grad_inputs || []).map((g) => g.grad)] : [])]
  .filter((s) => typeof s === "number").length;

test("every packed summary comes back as the plain document has it, the same numbers bit for bit", () => {
  for (const name of ["sgd_update", "mlp_scopes", "nan_sqrt", "small_cnn", "e_labelled"]) {
    const plain = fixture(name);
    const wire = packed(plain);
    const hadPacked = count(wire);
    assert.ok(hadPacked > 0, `${name}: the fixture has small float summaries`);
    assert.ok(wire.events.some((e) => e.type === "backward_step" && !("formula" in e)), name);
    assert.ok(wire.events.some((e) => typeof e === "string") && wire.edges.every(Array.isArray), name);
    assert.ok(wire.nodes.some((n) => typeof n.line === "number") || !plain.nodes.some((n) => n.line), name);
    const back = unpackValues(wire);
    assert.equal(back, wire, "in place");
    assert.equal(count(back), 0);
    assert.equal(back.values32, undefined);
    assert.equal(back.wire, undefined);
    assert.equal(back.lines, undefined);
    assert.deepEqual(back, plain, name);
  }
});

test("float32 entries read back as the float32 they were", () => {
  const plain = fixture("e_labelled");
  const back = unpackValues(packed(plain));
  const values = back.nodes.flatMap((n) => (n.value && n.value.dtype === "float32" ? n.value.values : []));
  assert.ok(values.length > 0);
  for (const v of values) assert.equal(v, Math.fround(v));
});

test("a summary with an infinity stays as JSON; a document never packed is left as it is", () => {
  const plain = fixture("nan_sqrt");
  const infinite = JSON.stringify(plain).match(/"Infinity"/g) || [];
  assert.ok(infinite.length > 0);
  const wire = packed(plain);
  assert.equal((JSON.stringify(wire).match(/"Infinity"/g) || []).length, infinite.length);
  const again = fixture("mlp_scopes");
  const before = JSON.stringify(again);
  assert.equal(unpackValues(again), again);
  assert.equal(JSON.stringify(again), before);
  assert.equal(unpackValues(null), null);
});

test("a document whose binary parts were dropped keeps each summary's shape and shows no number", () => {
  const plain = fixture("mlp_scopes");
  const wire = packed(plain);
  delete wire.values32;
  const back = unpackValues(wire);
  assert.equal(count(back), 0);
  const summaries = back.nodes.map((n) => n.value).filter((s) => s && s.dtype === "float32" && s.shape);
  assert.ok(summaries.length > 0);
  for (const s of summaries) assert.equal(s.values, undefined);
});
