// Formatting: numbers, shapes, tensor summaries, node labels, badges (captions: caption.js).
// Pure: no DOM. Everything returned here is plain text, inserted with
// textContent by the renderer (never as HTML).

/** A summary entry as a JS number (JSON spells NaN/inf as strings). */
export function toNumber(v) {
  if (v === "NaN") return NaN;
  if (v === "Infinity") return Infinity;
  if (v === "-Infinity") return -Infinity;
  if (typeof v === "boolean") return v ? 1 : 0;
  return typeof v === "number" ? v : NaN;
}

/** A number for people: integers as they are, else 4 significant digits. */
export function num(v) {
  if (typeof v === "boolean") return String(v);
  if (v === null || v === undefined) return "–";
  const x = toNumber(v);
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (Object.is(x, -0)) return "0";
  if (Number.isInteger(x) && Math.abs(x) < 1e6) return String(x);
  const a = Math.abs(x);
  const short = x.toPrecision(4); // rounding can carry 99999.5 past 1e5: then it is a power too
  if (a !== 0 && (a < 1e-3 || a >= 1e5 || short.includes("e"))) { // as a person writes it: 4.876×10⁻⁴
    const [m, e] = x.toExponential(3).split("e");
    return `${trimZeros(m)}×10${String(Number(e)).replace(/[-\d]/g, (c) => SUPERSCRIPT[c])}`;
  }
  return trimZeros(short);
}

const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };
/** "1.500" -> "1.5", "2.000" -> "2" (a decimal's trailing zeros, then a trailing point).
 * A loop, not two regular expressions: a 10,000-node graph formats ~40,000 numbers before
 * its first picture. */
export function trimZeros(s) {
  if (!s.includes(".")) return s;
  let end = s.length;
  while (s.charCodeAt(end - 1) === 48) end--; // "0"
  if (s.charCodeAt(end - 1) === 46) end--; // "."
  return end === s.length ? s : s.slice(0, end);
}

/** "[3, 3]"; "[]" for a scalar; "?" when unknown. */
export function shapeText(shape) {
  return Array.isArray(shape) ? `[${shape.join(", ")}]` : "?";
}

/** "[3,3]": the compact form used inside node labels. */
export function shapeCompact(shape) {
  return Array.isArray(shape) ? `[${shape.join(",")}]` : "?";
}

/** The text drawn on a node: "u  [3,3]" for a tensor (its name, then its shape; a
 * scalar's empty shape is left out), the symbol for an op. Never an internal id. */
export function nodeText(node) {
  if (!node) return "";
  if (node.kind === "op") return node.symbol || node.op || "op";
  const shape = Array.isArray(node.shape) && node.shape.length ? shapeCompact(node.shape) : "";
  const name = tensorName(node);
  return shape ? `${name}  ${shape}` : name;
}

/** A tensor's name: the learner's variable, else the expression or role the tracer
 * wrote (`a*b`, `relu(h)`, `weight`), else its kind: never an id such as `t12`. */
export function tensorName(node) {
  return node.label || node.expr || (node.is_leaf ? (node.requires_grad ? "param" : "input") : "tensor");
}

/** A short name for a node in sentences: a tensor's name, an op's PyTorch name. */
export function nodeName(node) {
  if (!node) return "?";
  return node.kind === "op" ? node.op || node.symbol || "op" : tensorName(node);
}

const isSmall = (s) => !!s && Array.isArray(s.values);

/** Small summaries as nested arrays following the shape (row-major); null if large. */
export function nested(s) {
  if (!isSmall(s)) return null;
  const shape = s.shape || [s.values.length];
  if (!shape.length) return s.values[0];
  let flat = s.values.slice();
  for (let d = shape.length - 1; d >= 1; d--) {
    const out = [];
    for (let i = 0; i < flat.length; i += shape[d]) out.push(flat.slice(i, i + shape[d]));
    flat = out;
  }
  return flat;
}

/** Summary text: all numbers for a small tensor (nested, up to `max` of them), else
 * the statistics; NaN/inf counts are always said. */
export function summaryText(s, { max = 64 } = {}) {
  if (!s) return "None";
  let text;
  if (isSmall(s)) {
    const shown = s.values.length > max ? { ...s, values: s.values.slice(0, max), shape: [max] } : s;
    const show = (v) => (Array.isArray(v) ? `[${v.map(show).join(", ")}]` : num(v));
    text = show(nested(shown)) + (s.values.length > max ? " …" : "");
  } else {
    text = `min ${num(s.min)}  max ${num(s.max)}  mean ${num(s.mean)}  std ${num(s.std)}  ‖·‖ ${num(s.norm)}`
      + (s.sampled ? (s.exact_extrema ? " (mean and std from a sample)" : " (sampled)") : "");
  }
  const bad = nonfiniteCounts(s);
  return bad ? `${text}  ⚠ ${bad}` : text;
}

/** How many entries of summary `s` are NaN and inf ("3 nan, 50 inf"); "" when none is. */
export function nonfiniteCounts(s) {
  return [s.nan ? `${s.nan} nan` : "", s.inf ? `${s.inf} inf` : ""].filter(Boolean).join(", ");
}

/** The grad badge: the value for a scalar ("-3"), the leading values that fit for a
 * small tensor ("[0.5, 0.5, …]"), the norm the tracer computed for a large one. Every
 * number is the document's: a badge sits on the node and must not cover its neighbours,
 * so it shortens rather than computes. */
export function badgeText(s) {
  if (!s) return "None";
  if (isSmall(s)) return s.values.length === 1 ? num(s.values[0]) : leadingValues(s.values, 16);
  return `‖g‖ ${num(s.norm)}`;
}

/** The gradient written on an edge: as the badge, shorter (it sits between nodes). A
 * matrix keeps its rows (`[[1, 1], [1, 1]]`; flattened, a 2×2 would read as four numbers
 * in a row), or, too long for an edge, says its shape (`2×3`) and leaves the numbers to
 * the panel and the inspector. */
export function edgeGradText(s) {
  if (!s) return "";
  if (isSmall(s) && (s.shape || []).length > 1) {
    const show = (v) => (Array.isArray(v) ? `[${v.map(show).join(", ")}]` : num(v));
    const rows = show(nested(s));
    return rows.length <= EDGE_ROOM ? rows : s.shape.join("×");
  }
  if (isSmall(s)) return s.values.length === 1 ? num(s.values[0]) : leadingValues(s.values, 12);
  return `‖g‖ ${num(s.norm)}`;
}

const EDGE_ROOM = 24; // characters a matrix may take on an edge

/** "[a, b, …]": as many leading values as fit in `room` characters (at least one). */
function leadingValues(values, room) {
  let text = "";
  for (let k = 1; k <= values.length; k++) {
    const more = k < values.length ? ", …" : "";
    const candidate = `[${values.slice(0, k).map(num).join(", ")}${more}]`;
    if (candidate.length > room && text) break;
    text = candidate;
  }
  return text;
}

/** Whether a summary holds a NaN or an infinity. */
export const nonFinite = (s) => !!s && (s.nan > 0 || s.inf > 0);

/** Base64 to bytes, without atob/Buffer so it runs the same in Node and browsers. */
export function base64Bytes(text) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const clean = String(text || "").replace(/[^A-Za-z0-9+/]/g, "");
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0, acc = 0, j = 0;
  for (const ch of clean) {
    acc = (acc << 6) | alphabet.indexOf(ch);
    bits += 6;
    if (bits >= 8) { bits -= 8; out[j++] = (acc >> bits) & 255; }
  }
  return out.subarray(0, j);
}

/** The preview of a large summary as a grid: {rows, cols, data}. Codes 0..top are finite
 *  entries; top + 1 is -inf, top + 2 +inf, 255 NaN. A document without `top` (before 1.2)
 *  used 0..254 and showed an infinity as an end of the range. */
export function decodePreview(p) {
  if (!p) return null;
  const bytes = base64Bytes(p.q);
  const lo = toNumber(p.lo), hi = toNumber(p.hi);
  const top = typeof p.top === "number" ? p.top : 254, infinities = typeof p.top === "number";
  const n = p.rows * p.cols, data = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const q = i < bytes.length ? bytes[i] : 255;
    if (q === 255) data[i] = NaN;
    else if (infinities && q > top) data[i] = q === top + 1 ? -Infinity : Infinity;
    else data[i] = lo + (q / top) * (hi - lo);
  }
  return { rows: p.rows, cols: p.cols, data, lo, hi };
}

/** A 4-D summary's channels (document 1.3): {channels, shown, step, maps: [{rows, cols, data,
 *  lo, hi}]}, sample 0's first `shown` channels on one scale; null for a summary without. */
export function channelMaps(s) {
  const c = s && s.channels;
  if (!c) return null;
  const all = decodePreview({ ...c, rows: c.shown * c.rows }), n = c.rows * c.cols, maps = [];
  for (let k = 0; k < c.shown; k++) {
    maps.push({ rows: c.rows, cols: c.cols, data: all.data.subarray(k * n, (k + 1) * n), lo: all.lo, hi: all.hi });
  }
  return { channels: c.channels, shown: c.shown, step: c.step, maps };
}

/** A heatmap grid for any summary: the values of a small one (as 2-D) or the preview. */
export function heatGrid(s) {
  if (!s) return null;
  if (!isSmall(s)) return s.preview ? decodePreview(s.preview) : null;
  const shape = s.shape && s.shape.length ? s.shape : [1];
  const cols = shape[shape.length - 1] || 1, rows = Math.max(1, s.values.length / cols);
  const data = Float64Array.from(s.values, toNumber);
  let lo = Infinity, hi = -Infinity;
  for (const v of data) if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  return { rows, cols, data, lo: isFinite(lo) ? lo : 0, hi: isFinite(hi) ? hi : 0 };
}

/** Diverging colour for v in [lo, hi] (blue < 0 < red, white at 0 when 0 is in range). */
export function heatColor(v, lo, hi) {
  if (!Number.isFinite(v)) return "rgb(255,0,255)"; // NaN/inf stand out in magenta
  const m = Math.max(Math.abs(lo), Math.abs(hi)) || 1;
  const t = Math.max(-1, Math.min(1, v / m));
  const c = (a) => Math.round(255 - a * 200);
  return t >= 0 ? `rgb(255,${c(t)},${c(t)})` : `rgb(${c(-t)},${c(-t)},255)`;
}
