// The trace document as the widget's kernel sends it (ag_jupyter/widgets/wire_values.py),
// marked {wire: 2}: each finite float32 or float64 small summary as a number k, its row in
// doc.summaries ({at, kind, kinds}): its entries start at at[k] in the document's values32 /
// values64 buffer (binary message parts, little-endian), its [dtype, ...shape] is
// kinds[kind[k]]; each backward step without its formula, its node's; a
// line as its index in doc.lines, an op's formula as its index in doc.formulas; a create
// event with nothing but its node as the node's id; no event's pass (doc.passes give it);
// an edge as [src, dst, arg]. unpackValues puts it all back as the JSON document has it
// ({shape, dtype, values, nan: 0, inf: 0}; one line object shared by its nodes) before
// anything reads the document.

const READERS = { float32: ["values32", 4, "getFloat32"], float64: ["values64", 8, "getFloat64"] };

/** A DataView over a buffer the way the widget's model hands it over (DataView, an
 * ArrayBuffer, or a typed array). */
function viewOf(buffer) {
  if (!buffer) return null;
  if (buffer instanceof DataView) return buffer;
  if (buffer instanceof ArrayBuffer) return new DataView(buffer);
  if (ArrayBuffer.isView(buffer)) return new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  return null;
}

/** The summary `s` with its values read back, or `s` itself when it went as JSON. */
function restore(s, table, views) {
  if (typeof s !== "number") return s;
  const at = table.at[s];
  const [dtype, ...shape] = table.kinds[table.kind[s]];
  const [name, width, read] = READERS[dtype];
  const view = views[name];
  // a state whose binary parts were dropped on the way (a tool that keeps JSON only): the
  // summary's shape without numbers, rather than numbers read from nowhere
  if (!view) return { shape, dtype, nan: 0, inf: 0 };
  const count = shape.reduce((a, b) => a * b, 1);
  const values = new Array(count);
  for (let k = 0; k < count; k++) values[k] = view[read]((at + k) * width, true);
  return { shape, dtype, values, nan: 0, inf: 0 };
}

/** Each event's pass as `passes` give it (first_event..last_event). */
function passOfEach(count, passes) {
  const of = new Array(count).fill(undefined);
  for (const p of passes || []) for (let k = p.first_event; k <= p.last_event && k < count; k++) of[k] = p.index;
  return of;
}

/** Put back, in place, every packed summary, table entry, left-out formula and pass, and
 * every short event and edge of `doc` (a document not in the wire form is left as it is);
 * returns `doc`. */
export function unpackValues(doc) {
  if (!doc || typeof doc !== "object" || !doc.wire) return doc;
  const formulas = new Map();
  const views = { values32: viewOf(doc.values32), values64: viewOf(doc.values64) };
  const table = doc.summaries || { at: [], kind: [], kinds: [] };
  const back = (s) => restore(s, table, views);
  const lines = doc.lines || [], texts = doc.formulas || [];
  for (const node of doc.nodes || []) {
    if (typeof node.line === "number") node.line = lines[node.line];
    if (node.kind === "op") {
      if (typeof node.formula === "number") node.formula = texts[node.formula];
      formulas.set(node.id, node.formula);
    }
    if (node.value != null) node.value = back(node.value); // a row number may be 0
    if (node.grad != null) node.grad = back(node.grad);
    if (Array.isArray(node.saved)) for (const s of node.saved) if (s.value != null) s.value = back(s.value);
  }
  const events = doc.events || [];
  const passes = passOfEach(events.length, doc.passes);
  for (let k = 0; k < events.length; k++) {
    if (typeof events[k] === "string") events[k] = { type: "create", node: events[k] };
    const event = events[k];
    if (!("pass" in event) && passes[k] !== undefined) event.pass = passes[k];
    if (typeof event.line === "number") event.line = lines[event.line];
    if (event.grad_output != null) event.grad_output = back(event.grad_output);
    if (event.type === "backward_step" && !("formula" in event) && formulas.has(event.node)) {
      event.formula = formulas.get(event.node);
    }
    if (Array.isArray(event.grad_inputs)) {
      for (const g of event.grad_inputs) {
        if (g.grad != null) g.grad = back(g.grad);
        if (g.total != null) g.total = back(g.total);
      }
    }
    if (event.type === "update" && event.values) {
      for (const key of Object.keys(event.values)) event.values[key] = back(event.values[key]);
    }
    if (event.grad != null) event.grad = back(event.grad); // an accumulate event's
  }
  if (Array.isArray(doc.edges)) {
    doc.edges = doc.edges.map((e) => (Array.isArray(e) ? { src: e[0], dst: e[1], arg: e[2] } : e));
  }
  delete doc.values32;
  delete doc.values64;
  delete doc.lines;
  delete doc.formulas;
  delete doc.summaries;
  delete doc.wire;
  return doc;
}
