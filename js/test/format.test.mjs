import { test } from "node:test";
import assert from "node:assert/strict";
import { num, trimZeros, shapeText, shapeCompact, nodeText, nodeName, summaryText, badgeText, edgeGradText, base64Bytes, decodePreview, heatGrid, heatColor, nested, toNumber } from "../src/model/format.js";
import { caption, WAITS_FOR_BACKWARD, NO_BACKWARD } from "../src/model/caption.js";
import { stepLatex, stepText, latexEscape, latexValue, nameFormula, texNumber } from "../src/model/latex.js";
import { indexTrace, stateAt } from "../src/model/timeline.js";
import { fixture } from "./helpers/fixtures.mjs";

test("numbers: integers plain, 4 significant digits, exponents for tiny/huge, NaN/inf words", () => {
  assert.equal(num(-3), "-3");
  assert.equal(num(1.3862943649291992), "1.386");
  assert.equal(num(0.5), "0.5");
  assert.equal(num(2.5e-6), "2.5×10⁻⁶");
  assert.equal(num(123456.7), "1.235×10⁵");
  assert.equal(num(-4.876e-4), "-4.876×10⁻⁴");
  assert.equal(num("NaN"), "nan");
  assert.equal(num("-Infinity"), "-inf");
  assert.equal(num(-0), "0");
  assert.equal(num(null), "–");
  assert.equal(num(true), "true");
  assert.ok(Number.isNaN(toNumber("NaN")));
});

test("shapes and labels", () => {
  assert.equal(shapeText([3, 3]), "[3, 3]");
  assert.equal(shapeCompact([3, 3]), "[3,3]");
  assert.equal(shapeText([]), "[]");
  assert.equal(shapeText(null), "?");
  assert.equal(nodeText({ kind: "tensor", label: "u", shape: [3, 3] }), "u  [3,3]");
  assert.equal(nodeText({ kind: "tensor", expr: "a*b", shape: [2] }), "a*b  [2]");
  assert.equal(nodeText({ kind: "tensor", label: "w", shape: null }), "w", "unknown shape left out");
  // never an internal id, even for a hand-made document with no name at all
  assert.equal(nodeText({ id: "t9", kind: "tensor", shape: null }), "tensor");
  assert.equal(nodeText({ id: "t9", kind: "tensor", is_leaf: true, requires_grad: true, shape: [2] }), "param  [2]");
  assert.equal(nodeName({ id: "t9", kind: "tensor", is_leaf: true }), "input");
  assert.equal(nodeText({ kind: "op", op: "MulBackward0", symbol: "×" }), "×");
  const xss = "<img src=x onerror=alert(1)>";
  assert.equal(nodeText({ kind: "tensor", label: xss, shape: [] }), xss, "labels are text, untouched");
});

test("summaries: small ones nested by shape, large ones as statistics, NaN/inf said", () => {
  const m = { shape: [2, 2], dtype: "float32", values: [1, 2, 3, 4], nan: 0, inf: 0 };
  assert.deepEqual(nested(m), [[1, 2], [3, 4]]);
  assert.equal(summaryText(m), "[[1, 2], [3, 4]]");
  assert.equal(summaryText({ shape: [], values: [2.5], nan: 0, inf: 0 }), "2.5");
  assert.equal(summaryText({ shape: [3], values: [1, "Infinity", 2], nan: 0, inf: 1 }), "[1, inf, 2]  ⚠ 1 inf");
  assert.equal(summaryText(null), "None");
  const big = fixture("large_matmul").nodes[0].value;
  assert.equal(summaryText(big), `min ${num(big.min)}  max ${num(big.max)}  mean ${num(big.mean)}  std ${num(big.std)}  ‖·‖ ${num(big.norm)} (mean and std from a sample)`);
  assert.ok(summaryText({ ...big, exact_extrema: undefined }).endsWith(" (sampled)"), "past 65,536 entries min and max are sampled too");
  assert.equal(summaryText({ ...big, sampled: false, nan: 2 }).endsWith("⚠ 2 nan"), true);
  assert.equal(summaryText({ shape: [100], values: Array(100).fill(1), nan: 0, inf: 0 }, { max: 3 }), "[1, 1, 1] …");
});

test("grad badges: the value for scalars, a short list, else the norm", () => {
  assert.equal(badgeText({ shape: [], values: [-3], nan: 0, inf: 0 }), "-3");
  assert.equal(badgeText({ shape: [3], values: [1, 2, 3], nan: 0, inf: 0 }), "[1, 2, 3]");
  assert.equal(badgeText({ shape: [2, 2, 2], values: Array(8).fill(1), nan: 0, inf: 0 }), "[1, 1, 1, 1, …]");
  assert.equal(badgeText({ shape: [2], values: [3, 4.123456], nan: 0, inf: 0 }), "[3, 4.123]");
  // numbers are the document's: a tensor too long for the badge is cut, never reduced to a norm here
  assert.equal(badgeText({ shape: [3], values: [-0.4038, 0.4411, 0.2311], nan: 0, inf: 0 }), "[-0.4038, …]");
  assert.equal(edgeGradText({ shape: [2], values: [0.25, 0.5], nan: 0, inf: 0 }), "[0.25, 0.5]");
  assert.equal(edgeGradText({ shape: [3], values: [0.125, 0.5, 2], nan: 0, inf: 0 }), "[0.125, …]");
  assert.equal(badgeText({ shape: [9, 9], nan: 0, inf: 0, norm: 0.0758718 }), "‖g‖ 0.07587");
  assert.equal(badgeText(undefined), "None");
});

test("base64 and previews decode like the tracer encodes (255 = NaN)", () => {
  assert.deepEqual([...base64Bytes("AAH/")], [0, 1, 255]);
  assert.deepEqual([...base64Bytes("AP8=")], [0, 255]);
  const p = decodePreview({ rows: 1, cols: 3, step: [1, 1], lo: -1, hi: 1, q: "AH//" });
  assert.deepEqual([...p.data].slice(0, 2), [-1, -1 + (127 / 254) * 2]);
  assert.ok(Number.isNaN(p.data[2]));
  // a document of version 1.2 names -inf and +inf (top + 1, top + 2): the heatmap draws them as such
  const inf = decodePreview({ rows: 1, cols: 6, step: [1, 1], lo: 0, hi: 2, top: 252, q: "AH78/f7/" });
  assert.deepEqual([...inf.data].slice(0, 5), [0, 1, 2, -Infinity, Infinity]);
  assert.ok(Number.isNaN(inf.data[5]));
  assert.equal(heatColor(inf.data[4], inf.lo, inf.hi), "rgb(255,0,255)");
  const big = fixture("large_matmul").nodes[0].value;
  const g = heatGrid(big);
  assert.equal(g.data.length, big.preview.rows * big.preview.cols);
  for (const v of g.data) assert.ok(v >= big.preview.lo - 1e-9 && v <= big.preview.hi + 1e-9);
  const small = heatGrid({ shape: [2, 3], values: [1, 2, 3, 4, 5, 6], nan: 0, inf: 0 });
  assert.deepEqual([small.rows, small.cols, small.lo, small.hi], [2, 3, 1, 6]);
  assert.equal(heatColor(0, -1, 1), "rgb(255,255,255)");
  assert.equal(heatColor(NaN, -1, 1), "rgb(255,0,255)");
});

test("the chain-rule line for a scalar step carries the numbers", () => {
  const idx = indexTrace(fixture("e_labelled"));
  const a = [...idx.nodes.values()].find((n) => n.label === "a").id;
  const ev = idx.events.find((e) => e.type === "backward_step" && e.grad_inputs.some((g) => g.node === a));
  const s = stepLatex(idx, ev);
  // the local derivative speaks of the graph's own names, never of letters of its own
  assert.equal(s.formula, "\\frac{\\partial {\\text{(a*b)}}}{\\partial {\\text{a}}} = {\\text{b}},\\quad "
    + "\\frac{\\partial {\\text{(a*b)}}}{\\partial {\\text{b}}} = {\\text{a}}");
  const line = s.lines.find((l) => l.node === a);
  assert.equal(line.text, "∂e/∂a = ∂e/∂(a*b) · ∂(a*b)/∂a = 1 · -3 = -3");
  assert.match(line.tex, /\\frac\{\\partial \\text\{e\}\}\{\\partial \\text\{a\}\}/);
  assert.match(line.tex, /= 1 \\cdot \(-3\) = -3$/);
  assert.match(stepText(idx, ev), /MulBackward0/);
  assert.equal(stepLatex(idx, idx.events[0]), null);
});

test("LaTeX: names are escaped, small tensors become matrices, large ones their shape", () => {
  assert.equal(latexEscape("a_1 {x} \\ $"), "a\\_1 \\{x\\} \\textbackslash{} \\$");
  assert.equal(latexValue({ shape: [2, 2], values: [1, 2, 3, 4], nan: 0, inf: 0 }), "\\begin{bmatrix}1 & 2 \\\\ 3 & 4\\end{bmatrix}");
  assert.equal(latexValue({ shape: [3], values: [1, "Infinity", 0], nan: 0, inf: 1 }), "\\begin{bmatrix}1 & \\infty & 0\\end{bmatrix}");
  assert.equal(latexValue({ shape: [100, 50], nan: 0, inf: 0 }), "\\text{[100, 50] tensor}");
  const idx = indexTrace(fixture("nan_sqrt"));
  const ev = idx.events.find((e) => e.type === "backward_step" && e.grad_inputs.some((g) => !g.grad));
  assert.equal(stepLatex(idx, ev).lines.length, 1, "a Python constant gets no line");
  const doc = fixture("e_labelled"), step = doc.events.find((e) => e.type === "backward_step");
  const unneeded = { ...step, grad_inputs: [{ ...step.grad_inputs[0], grad: null }, step.grad_inputs[1]] };
  assert.match(stepLatex(indexTrace(doc), unneeded).lines[0].text, /: not needed$/);
});

test("captions say what the current event is", () => {
  const idx = indexTrace(fixture("e_labelled"));
  assert.equal(caption(idx, stateAt(idx, 0)),
    "press ▶ to build the graph (→ adds one node at a time); click a node to inspect it");
  // while it plays it says what is happening, never "press ▶"
  assert.equal(caption(idx, stateAt(idx, 0), { playing: true }), "building the graph: it pauses where the backward pass begins");
  const built = idx.events.findIndex((e) => e.type === "backward_begin");
  // where it waits: the last forward step's arithmetic, then what to press
  const lastForward = caption(idx, stateAt(idx, built), { playing: true });
  assert.match(lastForward, /^forward: e = /);
  assert.equal(caption(idx, stateAt(idx, built)), `${lastForward} — ${WAITS_FOR_BACKWARD}`);
  assert.match(WAITS_FOR_BACKWARD, /^the graph is built: press → to step the backward pass/);
  // live: the kernel has not run the backward yet, so the document ends with the forward
  const forwardOnly = indexTrace({ ...fixture("e_labelled"), events: fixture("e_labelled").events.slice(0, built) });
  assert.equal(caption(forwardOnly, stateAt(forwardOnly, built), { live: true }), `${lastForward} — ${WAITS_FOR_BACKWARD}`);
  assert.equal(caption(forwardOnly, stateAt(forwardOnly, built)), `${lastForward} — ${NO_BACKWARD}`,
    "not live: nothing follows");
  assert.equal(caption(forwardOnly, stateAt(forwardOnly, built), { playing: true }), lastForward);
  assert.equal(caption(idx, stateAt(idx, 1)), "forward: a = 2");
  // the end names every leaf's .grad, as the accumulate events (the engine's numbers) left it
  assert.equal(caption(idx, stateAt(idx, idx.events.length)),
    "backward done: a.grad = -3, b.grad = 2, c.grad = 1.386, d.grad = 2.5");
  const nn = indexTrace(fixture("dynamic_passes"));
  const end = caption(nn, stateAt(nn, nn.events.length));
  // each as its node's badge shows it, a small matrix with its rows
  assert.match(end, /^backward done: inp\.weight\.grad = \[\[0, 0\], \[0, 0\]\], inp\.bias\.grad = \[0, 0\], /);
  assert.match(end, /, out\.bias\.grad = 3$/);
  const err = indexTrace(fixture("error_matmul"));
  assert.match(caption(err, stateAt(err, err.events.length)), /^RuntimeError: mat1 and mat2/);
});

test("an input on several paths: each line is one path's contribution, with the total so far", () => {
  const idx = indexTrace(fixture("shared_input"));
  const x = [...idx.nodes.values()].find((n) => n.label === "x").id;
  const lines = idx.events.filter((e) => e.type === "backward_step")
    .flatMap((e) => stepLatex(idx, e).lines.filter((l) => l.node === x).map((l) => ({ l, e })));
  assert.equal(lines.length, 4, "x*x sends two, x*2 one, then x*4 in the second pass");
  for (const { l } of lines) {
    assert.match(l.text, /^this path: ∂(y|z)\/∂x \+= /);
    assert.ok(l.total, "a contribution also says the total so far");
  }
  const totals = lines.map(({ l }) => l.total.text);
  assert.deepEqual(totals.slice(0, 3).map((t) => t.split("so far = ")[1]), ["2", "5", "8"]);
  // the last line of a pass equals the engine's .grad (the accumulate event)
  const accumulated = idx.events.filter((e) => e.type === "accumulate" && e.node === x).map((e) => e.grad.values[0]);
  assert.deepEqual(accumulated, [8, 12]);
  assert.equal(totals[3], "this path contributes 4; x.grad so far = 12", "the second backward adds to .grad");
  // x*2: the constant takes the formula's place, so no letter of the learner's can appear
  const times2 = lines[0].e;
  assert.equal(stepLatex(idx, times2).formula.includes("{2}"), true, stepLatex(idx, times2).formula);
  assert.match(lines[0].l.text, /∂\(x\*2\)\/∂x = 1 · 2 = 2$/);
});

test("formula letters are replaced only where they are symbols", () => {
  const f = "\\frac{\\partial u}{\\partial a} = \\text{a and u} + \\tanh a + \\operatorname{sign}(a) + a_i + ab";
  assert.equal(nameFormula(f, { u: "U1", a: "A1" }),
    "\\frac{\\partial {U1}}{\\partial {A1}} = \\text{a and u} + \\tanh {A1} + \\operatorname{sign}({A1}) + {A1}_i + ab");
});

test("a linear layer's formula speaks of its own bias, input and weight", () => {
  const idx = indexTrace(fixture("mlp_scopes"));
  const step = idx.events.find((e) => e.type === "backward_step" && idx.nodes.get(e.node).op === "AddmmBackward0");
  const { formula } = stepLatex(idx, step);
  const bias = idx.nodes.get(idx.inputs.get(step.node).find((e) => e.arg === 0).src);
  assert.ok(formula.includes(`{\\text{${bias.label.replace(/_/g, "\\_")}}}`), formula);
  assert.doesNotMatch(formula.replace(/\\[A-Za-z]+/g, ""), /(^|[^A-Za-z])[bAB]([^A-Za-z]|$)/, formula);
});

test("small and large numbers read as a person writes them, in text and in LaTeX", () => {
  assert.equal(texNumber(-4.876e-4), "-4.876 \\times 10^{-4}");
  assert.equal(texNumber(123456.7), "1.235 \\times 10^{5}");
  assert.equal(texNumber(2.5), "2.5");
  assert.equal(texNumber(Infinity), "\\infty");
  assert.equal(latexValue({ shape: [2], values: [1e-5, 2], nan: 0, inf: 0 }), "\\begin{bmatrix}1 \\times 10^{-5} & 2\\end{bmatrix}");
});

test("numbers are written as the static picture writes them (one table for both)", async () => {
  const { readFileSync } = await import("node:fs");
  const table = JSON.parse(readFileSync(new URL("../../tests/fixtures/numbers.json", import.meta.url)));
  for (const [value, text] of table) assert.equal(num(value), text, String(value));
});

test("an edge label keeps a matrix's rows, or says its shape when they do not fit", () => {
  assert.equal(edgeGradText({ shape: [2, 2], values: [1, 1, 1, 1], nan: 0, inf: 0 }), "[[1, 1], [1, 1]]");
  assert.equal(edgeGradText({ shape: [2, 3], values: [0.125, 0.5, 2, 1.5, 3.25, 4], nan: 0, inf: 0 }), "2×3");
  assert.equal(edgeGradText({ shape: [5], values: [1, 1, 1, 1, 1], nan: 0, inf: 0 }), "[1, 1, 1, …]", "a vector as before");
});

test("trimZeros drops what the two regular expressions it replaced dropped, and nothing else", () => {
  const byRegex = (s) => (s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s);
  const cases = ["1.500", "2.000", "0.000", "100.0", "100", "1000", "-0.5000", "1.235", "4.876", "0", "10.", "-3.00e"];
  for (let k = 0; k < 2000; k++) { // every toPrecision(4) shape: integers, decimals, powers, negatives
    const x = (Math.random() - 0.5) * 10 ** Math.floor(Math.random() * 16 - 8);
    cases.push(x.toPrecision(4), x.toExponential(3).split("e")[0], String(Math.round(x)));
  }
  for (const s of cases) assert.equal(trimZeros(s), byRegex(s), s);
});
