// The forward step as arithmetic: `a*b = a × b = 2 × (-3) = -6`, from the trace
// document's values (scalars and tensors of at most SMALL numbers; a bigger one
// keeps its name only). Pure: no DOM; formats, never computes (the result is the
// output's own recorded value).
import { num, tensorName, nested } from "./format.js";

export const SMALL = 4;
const INFIX = new Set(["+", "−", "×", "÷", "^", "@"]);

/** A summary as text when small enough to read in a sentence, else null. */
export function valueText(s) {
  if (!s || !Array.isArray(s.values) || s.values.length > SMALL) return null;
  const n = nested(s);
  const show = (v) => (Array.isArray(v) ? `[${v.map(show).join(", ")}]` : num(v));
  return show(n);
}

// A negative number inside an expression is bracketed: 2 × (-3).
const operand = (text) => (/^-/.test(text) ? `(${text})` : text);

/** A name bracketed when an operator in it sits outside any bracket (`(a*b) × c`,
 * but `log(d) × c`). */
export function nameOperand(name, operators = /[+\-*/@× ]/) {
  let depth = 0;
  for (const ch of name) {
    if (ch === "(" || ch === "[") depth++;
    else if (ch === ")" || ch === "]") depth--;
    else if (depth === 0 && operators.test(ch)) return `(${name})`;
  }
  return name;
}

// Under a sum, products need no brackets (`a*b + c`); a sum inside a sum keeps them
// only on the right of a minus, where they change the meaning.
const SUM_TERMS = /[+-]/;

// args: [{plain, operand}] texts; infix operators take the bracketed form.
function expression(symbol, args) {
  const shown = symbol === "^" ? "**" : symbol;
  if ((symbol === "+" || symbol === "−") && args.length === 2) {
    return `${args[0].sum} ${shown} ${symbol === "+" ? args[1].sum : args[1].operand}`;
  }
  if (INFIX.has(symbol) && args.length === 2) return `${args[0].operand} ${shown} ${args[1].operand}`;
  if (symbol === "−" && args.length === 1) return `-${args[0].operand}`;
  return `${shown}(${args.map((a) => a.plain).join(", ")})`;
}

/**
 * The sentence for the create event of computed tensor `id`, or null when it has no
 * op or a value too big to write. index: timeline.indexTrace(doc).
 */
export function forwardArithmetic(index, id) {
  const node = index.nodes.get(id);
  const opId = index.producer.get(id);
  const op = opId && index.nodes.get(opId);
  const result = node && valueText(node.value);
  if (!op || result === null) return null;
  const args = [];
  for (const e of index.inputs.get(opId) || []) args.push({ arg: e.arg, node: index.nodes.get(e.src) });
  for (const c of op.consts || []) if (typeof c.value === "number") args.push({ arg: c.arg, value: c.value });
  args.sort((a, b) => a.arg - b.arg);
  const names = [], values = [];
  for (const a of args) {
    if (a.node) {
      const name = tensorName(a.node);
      names.push({ plain: name, operand: nameOperand(name), sum: nameOperand(name, SUM_TERMS) });
      const v = valueText(a.node.value);
      if (v === null) return `${tensorName(node)} = ${expression(op.symbol || op.op, names)} = ${result}`;
      values.push({ plain: v, operand: operand(v), sum: values.length ? operand(v) : v });
    } else {
      const v = num(a.value);
      const first = values.length ? operand(v) : v;
      names.push({ plain: v, operand: operand(v), sum: first });
      values.push({ plain: v, operand: operand(v), sum: first });
    }
  }
  const symbolic = expression(op.symbol || op.op, names);
  const numeric = expression(op.symbol || op.op, values);
  const name = tensorName(node);
  const parts = [name];
  const bare = (t) => t.replace(/[\s()]/g, "").replace(/−/g, "-").replace(/×/g, "*").replace(/\*\*/g, "^");
  if (bare(symbolic) !== bare(name)) parts.push(symbolic); // `a*b = a × b`, but not `log(d) = log(d)`
  parts.push(numeric, result);
  return parts.join(" = ");
}

/** `a = 2` for a leaf with a small value, else null. */
export function leafArithmetic(index, id) {
  const node = index.nodes.get(id);
  const v = node && valueText(node.value);
  if (v === null || !node) return null;
  const name = tensorName(node);
  return name === v ? null : `${name} = ${v}`;
}
