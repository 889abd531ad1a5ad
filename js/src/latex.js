// LaTeX (and the same in plain text) for a backward step: the local derivative the
// tracer recorded, and the chain-rule product sent to each input, with numbers
// when the tensors are small. Pure: no DOM. Names come from the learner's code, so
// they are escaped into \text{...}; KaTeX renders with trust: false as well.
import { num, toNumber, nested, nodeName } from "./format.js";

const ARG_LETTERS = "abcdefgh";
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
  const n = (v) => { const t = num(v); return t === "inf" ? "\\infty" : t === "-inf" ? "-\\infty" : t === "nan" ? "\\text{nan}" : t; };
  if (!Array.isArray(values)) return n(values);
  const rows = Array.isArray(values[0]) ? values : [values];
  if (rows.length > 4 || rows[0].length > 4 || Array.isArray(rows[0][0])) {
    return `\\text{${latexEscape(`[${(s.shape || []).join(", ")}] tensor`)}}`;
  }
  return `\\begin{bmatrix}${rows.map((r) => r.map(n).join(" & ")).join(" \\\\ ")}\\end{bmatrix}`;
}

const isScalar = (s) => !!s && Array.isArray(s.values) && s.values.length === 1;

// A name for LaTeX: the learner's name in \text{}, or the letter the formula uses.
function symbolFor(node, fallback) {
  return node && node.label ? `\\text{${latexEscape(node.label)}}` : fallback;
}

/** The output tensor(s) of an op node. */
function outputOf(index, opId) {
  const outs = index.outputs.get(opId) || [];
  return outs.length ? index.nodes.get(outs[0].dst) : null;
}

/** The backward root's name, for the L in dL/dx. */
function rootSymbol(index, event) {
  for (let i = 0; i < index.events.length; i++) {
    const e = index.events[i];
    if (e.type === "backward_begin" && (e.pass || 0) === (event.pass || 0)) {
      const root = index.nodes.get((e.roots || [])[0]);
      return { tex: symbolFor(root, "L"), text: root && root.label ? root.label : "L" };
    }
  }
  return { tex: "L", text: "L" };
}

/**
 * For a backward_step event: {formula, incoming, lines: [{arg, node, tex, text}]}.
 * `formula` is the local derivative (LaTeX, or null); `incoming` the gradient that
 * arrived; each line the product sent to one input, e.g.
 * dL/da = dL/du * du/da = 1 * (-3) = -3 for scalars.
 */
export function stepLatex(index, event) {
  if (!event || event.type !== "backward_step") return null;
  const op = index.nodes.get(event.node);
  const out = outputOf(index, event.node);
  const L = rootSymbol(index, event);
  const u = symbolFor(out, "u"), uText = out && out.label ? out.label : "u";
  const d = (top, bottom) => `\\frac{\\partial ${top}}{\\partial ${bottom}}`;
  const go = event.grad_output;
  const incoming = `${d(L.tex, u)} = ${latexValue(go)}`;
  const lines = (event.grad_inputs || []).map((g) => {
    const node = g.node ? index.nodes.get(g.node) : null;
    const letter = ARG_LETTERS[g.arg] || `x_{${g.arg}}`;
    const x = symbolFor(node, letter), xText = node && node.label ? node.label : letter;
    if (!g.grad) {
      return { arg: g.arg, node: g.node, tex: `${d(L.tex, x)}\\ \\text{not needed}`,
        text: `∂${L.text}/∂${xText}: not needed` };
    }
    let tex = `${d(L.tex, x)} = ${d(L.tex, u)} \\cdot ${d(u, x)}`;
    let text = `∂${L.text}/∂${xText} = ∂${L.text}/∂${uText} · ∂${uText}/∂${xText}`;
    if (isScalar(go) && isScalar(g.grad)) {
      const a = toNumber(go.values[0]), r = toNumber(g.grad.values[0]);
      // For scalars the local derivative is the ratio, exactly as the chain rule says.
      if (Number.isFinite(a) && a !== 0 && Number.isFinite(r)) {
        const local = r / a;
        tex += ` = ${paren(num(a))} \\cdot ${paren(num(local))}`;
        text += ` = ${num(a)} · ${num(local)}`;
      }
    }
    tex += ` = ${latexValue(g.grad)}`;
    text += ` = ${plain(g.grad)}`;
    return { arg: g.arg, node: g.node, tex, text };
  });
  return { formula: event.formula || (op && op.formula) || null, incoming, lines, op: op ? op.op : "" };
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
  return [`${nodeName(index.nodes.get(event.node))}`, ...s.lines.map((l) => l.text)].join("\n");
}
