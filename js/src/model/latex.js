// LaTeX (and the same in plain text) for a backward step: the local derivative the
// tracer recorded, and the chain-rule product sent to each input, with numbers
// when the tensors are small. Pure: no DOM. Names come from the learner's code, so
// they are escaped into \text{...}; KaTeX renders with trust: false as well.
import { num, nested, nodeName, tensorName } from "./format.js";
import { shapeNote } from "./stepnotes.js";
import { layerNote } from "./layernotes.js";

const SPECIAL = { "\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "$": "\\$", "&": "\\&", "#": "\\#",
  "^": "\\textasciicircum{}", "_": "\\_", "%": "\\%", "~": "\\textasciitilde{}" };

/** Text made safe to sit inside \text{...}. */
export function latexEscape(text) {
  return String(text).replace(/[\\{}$&#^_%~]/g, (c) => SPECIAL[c]);
}

/** A summary as LaTeX: a number, a small bmatrix (at most 4x4), else its shape. */
export function latexValue(s) {
  if (!s) return "\\text{None}";
  const values = nested(s);
  if (values === null) return `\\text{${latexEscape(`[${(s.shape || []).join(", ")}] tensor`)}}`;
  const n = texNumber;
  if (!Array.isArray(values)) return n(values);
  const rows = Array.isArray(values[0]) ? values : [values];
  if (rows.length > 4 || rows[0].length > 4 || Array.isArray(rows[0][0])) {
    return `\\text{${latexEscape(`[${(s.shape || []).join(", ")}] tensor`)}}`;
  }
  return `\\begin{bmatrix}${rows.map((r) => r.map(n).join(" & ")).join(" \\\\ ")}\\end{bmatrix}`;
}

const FROM_SUPERSCRIPT = { "⁻": "-", "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6",
  "⁷": "7", "⁸": "8", "⁹": "9" };

/** A number as LaTeX, formatted as on the rest of the screen (num): 4.876 × 10^{-4}. */
export function texNumber(v) {
  const t = num(v);
  if (t === "inf" || t === "-inf") return t.replace("inf", "\\infty");
  if (t === "nan") return "\\text{nan}";
  const power = /^(-?[\d.]+)×10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/.exec(t);
  return power ? `${power[1]} \\times 10^{${[...power[2]].map((c) => FROM_SUPERSCRIPT[c]).join("")}}` : t;
}

const isScalar = (s) => !!s && Array.isArray(s.values) && s.values.length === 1;

// A name fit for a formula. The learner's own variable as itself; anything else as
// the expression that made it, in parentheses when it is compound (`(a*b)`), so a
// name the panel invents can never read as one of the learner's variables.
function named(node) {
  if (!node) return { tex: "\\text{?}", text: "?" };
  const name = tensorName(node);
  const compound = !node.label && /[\s*+\-/@]/.test(name.replace(/\([^()]*\)/g, ""));
  const text = compound ? `(${name})` : name;
  return { tex: `\\text{${latexEscape(text)}}`, text };
}

/** The output tensor(s) of an op node. */
function outputOf(index, opId) {
  const outs = index.outputs.get(opId) || [];
  return outs.length ? index.nodes.get(outs[0].dst) : null;
}

/** The backward root's name, for the L in dL/dx. */
function rootOf(index, event) {
  for (let i = 0; i < index.events.length; i++) {
    const e = index.events[i];
    if (e.type === "backward_begin" && (e.pass || 0) === (event.pass || 0)) {
      const root = index.nodes.get((e.roots || [])[0]);
      // A tensor root is no function to differentiate: backward(G) differentiates
      // L = (Y*G).sum(), and what it sends back is the vector-Jacobian product.
      if (root && Array.isArray(root.shape) && root.shape.length) {
        const y = named(root).text;
        return { tex: "L", text: "L", vjp: `${y} is not a scalar: ${y}.backward(G) sends back the vector-Jacobian `
          + `product of G with ∂${y}/∂x, the gradient of L = (${y} * G).sum(), written ∂L/∂x below` };
      }
      return named(root);
    }
  }
  return { tex: "\\text{output}", text: "output" };
}

// The letters an op's formula calls its inputs by: the document says where they are
// not a, b, c (an op declares them beside its formula, ops' formula_args).
const LETTERS = ["a", "b", "c"];
const SKIP_GROUP = new Set(["text", "operatorname", "mathrm", "textsf", "mathbb", "textbf"]);

/** The recorded formula with its letters replaced by the graph's own names: u by the
 * output's, a, b, ... by the inputs', L by the root's. Commands and \text{} groups
 * are left alone; only single-letter symbols are replaced. */
export function nameFormula(formula, names) {
  let out = "", i = 0;
  while (i < formula.length) {
    const ch = formula[i];
    if (ch === "\\") {
      const m = /^\\([A-Za-z]+|.)/.exec(formula.slice(i));
      out += m[0];
      i += m[0].length;
      if (SKIP_GROUP.has(m[1]) && formula[i] === "{") {
        let depth = 0, j = i;
        for (; j < formula.length; j++) {
          if (formula[j] === "{") depth++;
          else if (formula[j] === "}" && --depth === 0) break;
        }
        out += formula.slice(i, j + 1);
        i = j + 1;
      }
      continue;
    }
    if (/[A-Za-z]/.test(ch)) {
      const m = /^[A-Za-z]+/.exec(formula.slice(i));
      out += m[0].length === 1 && names[m[0]] ? `{${names[m[0]]}}` : m[0];
      i += m[0].length;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

/** How many gradients each tensor receives in each pass: more than one means the panel
 * speaks of one path's contribution and the total so far, not of "the" gradient. */
function contributions(index) {
  if (!index.contributions) {
    const counts = new Map();
    for (const e of index.events) {
      if (e.type !== "backward_step") continue;
      for (const g of e.grad_inputs || []) {
        if (!g.node || !g.grad) continue;
        const key = `${e.pass || 0}:${g.node}`;
        counts.set(key, (counts.get(key) || 0) + 1);
      }
    }
    index.contributions = counts;
  }
  return index.contributions;
}

/**
 * For a backward_step event: {formula, incoming, lines: [{arg, node, tex, text, total}]}.
 * `formula` is the local derivative with the graph's names (LaTeX, or null);
 * `incoming` the gradient that arrived; each line the product sent to one input, e.g.
 * de/da = de/d(a*b) * d(a*b)/da = 1 * (-3) = -3 for scalars, the local derivative
 * from the document. Where an input gets gradient along several paths, its line is
 * that path's contribution and `total` says what the input holds so far.
 */
export function stepLatex(index, event) {
  if (!event || event.type !== "backward_step") return null;
  const op = index.nodes.get(event.node);
  const out = named(outputOf(index, event.node));
  const L = rootOf(index, event);
  const d = (top, bottom) => `\\frac{\\partial ${top}}{\\partial ${bottom}}`;
  const go = event.grad_output;
  const incoming = `${d(L.tex, out.tex)} = ${latexValue(go)}`;
  // The local derivative names the output by the expression that made it, apart from
  // the total ∂L/∂x: at the root `e = a*b`, local ∂(a*b)/∂a beside total ∂e/∂a.
  const u = opExpression(index, event.node, op) || out;
  // At the root the incoming gradient is the seed ∂L/∂L = 1: no factor to multiply by.
  const atRoot = index.roots.has((outputOf(index, event.node) || {}).id) && isScalar(go) && go.values[0] === 1;
  const args = new Map((index.inputs.get(event.node) || []).map((e) => [e.arg, named(index.nodes.get(e.src))]));
  const counts = contributions(index);
  // A Python number the op took (x * 3) is no tensor: it gets no gradient and no line.
  const lines = (event.grad_inputs || []).filter((g) => g.node || g.grad).map((g) => {
    const node = g.node ? index.nodes.get(g.node) : null;
    const x = node ? named(node) : { tex: `\\text{input ${g.arg + 1}}`, text: `input ${g.arg + 1}` };
    if (!g.grad) {
      return { arg: g.arg, node: g.node, tex: `${d(L.tex, x.tex)}\\ \\text{not needed}`,
        text: `∂${L.text}/∂${x.text}: not needed` };
    }
    const several = !!g.total || (counts.get(`${event.pass || 0}:${g.node}`) || 0) > 1;
    const lhs = several ? `\\text{this path: }${d(L.tex, x.tex)} \\mathrel{+}=` : `${d(L.tex, x.tex)} =`;
    const factors = { upstream: atRoot ? null : `∂${L.text}/∂${out.text}`, local: `∂${u.text}/∂${x.text}`, out: out.text };
    let tex = `${lhs} ${atRoot ? "" : `${d(L.tex, out.tex)} \\cdot `}${d(u.tex, x.tex)}`;
    let text = `${several ? "this path: " : ""}∂${L.text}/∂${x.text} ${several ? "+=" : "="} ${factors.upstream ? `${factors.upstream} · ` : ""}${factors.local}`;
    if (!atRoot && isScalar(go) && isScalar(g.grad) && typeof g.local === "number") {
      tex += ` = ${paren(texNumber(go.values[0]))} \\cdot ${paren(texNumber(g.local))}`;
      text += ` = ${num(go.values[0])} · ${num(g.local)}`;
    }
    tex += ` = ${latexValue(g.grad)}`;
    text += ` = ${plain(g.grad)}`;
    const line = { arg: g.arg, node: g.node, tex, text, factors };
    const outNode = outputOf(index, event.node);
    const note = node && outNode && shapeNote(op && op.op, x.text, node.shape, outNode.shape);
    if (note) line.note = note;
    if (several) {
      const held = g.total || g.grad;
      const who = node && node.is_leaf ? `${x.text}.grad` : `∂${L.text}/∂${x.text}`;
      line.total = { text: `this path contributes ${plain(g.grad)}; ${who} so far = ${plain(held)}`,
        tex: `\\text{this path contributes } ${latexValue(g.grad)}\\text{; ${latexEscape(who)} so far} = ${latexValue(held)}` };
    }
    return line;
  });
  const letters = (op && op.letters) || LETTERS;
  const names = { u: u.tex, U: u.tex, L: L.tex };
  const consts = new Map(((op && op.consts) || []).map((c) => [c.arg, c.value]));
  letters.forEach((letter, arg) => {
    names[letter] = args.has(arg) ? args.get(arg).tex
      : consts.has(arg) ? `${num(consts.get(arg))}` : `\\text{input ${arg + 1}}`;
  });
  const formula = withoutConstants(event.formula || (op && op.formula) || null, letters, consts);
  const first = (index.inputs.get(event.node) || []).find((e) => e.arg === 0);
  const layer = layerNote(op, first && index.nodes.get(first.src), outputOf(index, event.node), event);
  const notes = [...(L.vjp ? [L.vjp] : []), ...(layer || [])];
  return { formula: formula && nameFormula(formula, names), incoming, lines, op: op ? op.op : "",
    ...(notes.length ? { layer: notes } : {}) };
}

// A Python number the op took (2 in 2*x) is no variable: the formula's part that
// differentiates with respect to it (∂(2*x)/∂2) is dropped, not named.
function withoutConstants(formula, letters, consts) {
  if (!formula || !consts.size) return formula;
  const constLetters = new Set(letters.filter((_, arg) => consts.has(arg)));
  const parts = formula.split(/,\\quad\s*/);
  const kept = parts.filter((part) => {
    const m = /\\frac\{\\partial u\}\{\\partial ([A-Za-z])\}/.exec(part);
    return !(m && constLetters.has(m[1]));
  });
  return kept.length === parts.length ? formula : kept.length ? kept.join(",\\quad ") : null;
}

// The expression an op's output was made by, for the local derivative: the document's
// own `expr` when the output has no name of its own, else the op written with its
// operands (`a*b`), in parentheses; null when the op has no infix or call form.
const INFIX = { "×": "*", "+": " + ", "−": " - ", "÷": "/", "@": "@" };
function opExpression(index, opId, op) {
  const outNode = outputOf(index, opId);
  if (!op || !outNode) return null;
  if (!outNode.label && outNode.expr && !index.roots.has(outNode.id)) return named(outNode);
  const args = new Map((index.inputs.get(opId) || []).map((e) => [e.arg, tensorName(index.nodes.get(e.src))]));
  for (const c of op.consts || []) if (typeof c.arg === "number" && !args.has(c.arg)) args.set(c.arg, num(c.value));
  const operands = [...args.keys()].sort((a, b) => a - b).map((k) => args.get(k));
  const text = INFIX[op.symbol] && operands.length === 2 ? operands.map((t) => (/[\s*+\-/@]/.test(t) && (op.symbol !== "+" || /\s/.test(t)) ? `(${t})` : t)).join(INFIX[op.symbol])
    : operands.length && /^[A-Za-z_]\w*$/.test(op.symbol || "") ? `${op.symbol}(${operands.join(", ")})` : null;
  if (!text || text.length > 24) return null;
  return { tex: `\\text{${latexEscape(`(${text})`)}}`, text: `(${text})` };
}

const paren = (t) => (t.startsWith("-") ? `(${t})` : t);

function plain(s) {
  const v = nested(s);
  if (v === null) return `[${(s.shape || []).join(", ")}] tensor`;
  const show = (x) => (Array.isArray(x) ? `[${x.map(show).join(", ")}]` : num(x));
  return show(v);
}

/** Plain-text fallback of a whole step (title attributes, tests, screen readers). */
export function stepText(index, event) {
  const s = stepLatex(index, event);
  if (!s) return "";
  return [`${nodeName(index.nodes.get(event.node))}`, ...(s.layer || []), ...s.lines.map((l) => l.text)].join("\n");
}
