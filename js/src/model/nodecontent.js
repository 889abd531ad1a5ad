// What a node box holds, and how big it is: a tensor's value (a scalar as
// `a = 2`, a small tensor as a grid of at most GRID_MAX x GRID_MAX numbers, a large
// one as its shape, a heat thumbnail and its min/max), the space its gradient will
// take once it arrives, and an op's Python constants (`× 2`, `** 2`). Pure: no
// DOM; the numbers are the trace document's, formatted, never computed (min/max of
// a small tensor is a pick among the values it sends).
import { num, nested, heatGrid, channelMaps, nodeText, tensorName, shapeCompact, toNumber, badgeText, nonfiniteCounts } from "./format.js";

export const GRID_MAX = 4;
export const THUMB = 8; // thumbnail cells per side, at most
export const CHANNEL_THUMB = 8; // a channel's cells per side in a 4-D tensor's mosaic, at most
export const CHAR = 7, LINE = 16, PAD_X = 14, PAD_Y = 6, THUMB_PX = 4, COL_GAP = 10;

/** How a summary is shown: {kind: "scalar", text} | {kind: "grid", rows: [[text]]}
 * | {kind: "large", heat: {rows, cols, colors}, min, max, bad}; null without one. ``bad``
 * counts the NaN and inf entries ("50 inf", drawn "⚠ 50 inf"), "" when there are none: min
 * and max are the finite entries', so without it a box of zeros and infinities said "max 0". */
export function valueView(s) {
  if (!s || (Array.isArray(s.values) && !s.values.length)) return null; // empty: no min or max, its shape says it
  const shape = Array.isArray(s.shape) ? s.shape : [];
  if (Array.isArray(s.values)) {
    if (s.values.length === 1 && shape.every((d) => d === 1)) return { kind: "scalar", text: num(s.values[0]) };
    if (shape.length >= 1 && shape.length <= 2 && shape.every((d) => d >= 1 && d <= GRID_MAX)) {
      const grid = nested(s);
      const rows = shape.length === 1 ? [grid.map(num)] : grid.map((row) => row.map(num));
      return { kind: "grid", rows };
    }
  }
  const channels = channelMaps(s);
  const heat = channels ? null : heatGrid(s);
  const min = Array.isArray(s.values) ? pick(s.values, (a, b) => a < b) : s.min;
  const max = Array.isArray(s.values) ? pick(s.values, (a, b) => a > b) : s.max;
  // a sample's extremes are no tensor's: marked ≈ (the document's exact_extrema says when they are exact)
  const about = s.sampled && !s.exact_extrema ? "≈" : "";
  return { kind: "large", heat: channels ? channelMosaic(channels) : heat ? thumbnail(heat) : null,
    min: `${about}${num(min)}`, max: `${about}${num(max)}`, bad: nonfiniteCounts(s) };
}

/** The box's line under min and max for the counts of ``bad`` (valueView). */
export const badLine = (bad) => `⚠ ${bad}`;

// The smallest (or largest) finite value, as sent; NaN when none is finite.
function pick(values, better) {
  let best = null;
  for (const v of values) {
    const x = toNumber(v);
    if (Number.isFinite(x) && (best === null || better(x, toNumber(best)))) best = v;
  }
  return best === null ? "NaN" : best;
}

/** An image batch's box: sample 0's channels side by side (a near-square grid of them, a
 * blank cell between), each at most CHANNEL_THUMB cells a side; blank cells are null. */
export function channelMosaic(channels) {
  const tiles = channels.maps.map((m) => thumbnail(m, CHANNEL_THUMB));
  const across = Math.ceil(Math.sqrt(tiles.length)), down = Math.ceil(tiles.length / across);
  const { rows: th, cols: tw } = tiles[0];
  const rows = down * (th + 1) - 1, cols = across * (tw + 1) - 1, cells = new Array(rows * cols).fill(null);
  tiles.forEach((t, k) => {
    const top = Math.floor(k / across) * (th + 1), left = (k % across) * (tw + 1);
    t.cells.forEach((v, i) => { cells[(top + Math.floor(i / tw)) * cols + left + (i % tw)] = v; });
  });
  return { rows, cols, cells, lo: tiles[0].lo, hi: tiles[0].hi, channels: channels.channels, shown: tiles.length };
}

// At most `side` x `side` cells of a heat grid, every k-th row and column.
function thumbnail(h, side = THUMB) {
  const sr = Math.max(1, Math.ceil(h.rows / side)), sc = Math.max(1, Math.ceil(h.cols / side));
  const rows = Math.ceil(h.rows / sr), cols = Math.ceil(h.cols / sc), cells = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) cells.push(h.data[r * sr * h.cols + c * sc]);
  return { rows, cols, cells, lo: h.lo, hi: h.hi };
}

/** An op's text: its symbol with its numeric constants where Python wrote them
 * (`× 2` for x*2, `2 −` for 2-x, `** 2` for x**2). */
export function opText(node) {
  // a superscript (transpose's ᵀ) is a few pixels tall in an 11 px pill: written full size
  const symbol = nodeText(node) === "ᵀ" ? "T" : nodeText(node);
  const settings = (node.consts || []).filter((c) => c.name !== undefined);
  if (settings.length) return [symbol, ...settings.map((c) => windowSetting(c.name, c.value))].join(" ");
  const consts = (node.consts || []).filter((c) => typeof c.value === "number" || typeof c.value === "string");
  if (!consts.length || consts.length > 2 || consts.some((c) => typeof c.value === "string" && !/^-?(NaN|Infinity)$/.test(c.value))) return symbol;
  const shown = symbol === "^" ? "**" : symbol;
  const before = consts.filter((c) => c.arg === 0).map((c) => num(c.value));
  const after = consts.filter((c) => c.arg !== 0).map((c) => num(c.value));
  return [...before, shown, ...after].join(" ");
}

/** A convolution's or pooling's setting as its box writes it (widgets/static_values.py's
 * window_setting): the kernel `5×5`, a pair of equal numbers as one (`stride 2`). */
export function windowSetting(name, value) {
  const parts = String(value).replace(/[() ]/g, "").split(",").filter((p) => p !== "");
  if (name === "kernel_size") return parts.join("×");
  const text = parts.every((p) => p === parts[0]) ? parts[0] : parts.join("×");
  return `${name.replace(/_/g, " ")} ${text}`;
}

const textWidth = (t) => CHAR * String(t).length;
// A gradient line is `grad = ` ending at the centre and the value starting there:
// each half must hold its side.
const lineWidth = (value) => 2 * Math.max(textWidth("grad = "), textWidth(value) + 4);
const gridWidth = (rows) => {
  const widths = colWidths(rows);
  return widths.reduce((a, b) => a + b, 0) + COL_GAP * (widths.length - 1);
};

/** Column widths (px) of a grid of texts. */
export function colWidths(rows) {
  const widths = [];
  for (const row of rows) row.forEach((t, i) => { widths[i] = Math.max(widths[i] || 0, textWidth(t)); });
  return widths;
}

/**
 * The content of a tensor box: {title, value: valueView, grad: bool (a line is kept
 * for its gradient), width, height}. Sizes are estimates (no DOM to measure in:
 * layout stays pure and fast), 7 px a character.
 */
export function tensorContent(node, gradSample = null) {
  let value = valueView(node.value);
  // the gradient this box will show (one the document sends it), so the box is wide
  // enough for it too: `inf` or `-0.8743` where the value was `0`
  const sample = valueView(gradSample);
  const grad = !!node.requires_grad;
  const name = tensorName(node);
  const shape = Array.isArray(node.shape) && node.shape.length ? shapeCompact(node.shape) : "";
  const title = value && value.kind === "scalar" ? name : shape ? `${name}  ${shape}` : name;
  // A constant is named by its value (`435`): then `435 = 435` would say it twice.
  if (value && value.kind === "scalar" && value.text === title) value = null;
  let width = textWidth(title), lines = 1, extra = 0;
  if (value && value.kind === "scalar") {
    width = textWidth(`${title} = ${value.text}`);
    if (grad) {
      lines += 1;
      const text = sample && sample.kind === "scalar" ? sample.text : value.text;
      width = Math.max(width, lineWidth(text));
    }
  } else if (value && value.kind === "grid") {
    // value grid on the left, the gradient's grid (same shape) on the right
    const gw = sample && sample.kind === "grid" ? gridWidth(sample.rows) : 0;
    const w = Math.max(gridWidth(value.rows), gw, grad ? textWidth("None") : 0);
    lines += value.rows.length + (grad ? 1 : 0);
    width = Math.max(width, grad ? 2 * w + 3 * COL_GAP : w);
  } else if (value) {
    const statsW = Math.max(textWidth(`max ${value.max}`), value.bad ? textWidth(badLine(value.bad)) : 0) + 2 * CHAR;
    const thumbW = value.heat ? value.heat.cols * THUMB_PX + COL_GAP : 0;
    extra = Math.max(value.heat ? value.heat.rows * THUMB_PX : 0, (value.bad ? 3 : 2) * LINE) - LINE;
    lines += 1 + (grad ? 1 : 0);
    width = Math.max(width, thumbW + statsW, grad ? lineWidth(gradSample ? badgeText(gradSample) : "‖g‖ -0.0000") : 0);
  } else if (grad) {
    lines += 1;
    width = Math.max(width, lineWidth(gradSample ? badgeText(gradSample) : "-0.0000"));
  }
  return { title, value, grad, leaf: !!node.is_leaf, width: Math.max(36, width + PAD_X), height: lines * LINE + extra + PAD_Y + 2 };
}

/** Where a tensor's gradient stands in display state `ds`: {state, summary}, state
 * one of "pending" (not computed yet), "value", "zero" (computed, every entry 0),
 * "none" (None: the backward ended without reaching it, not on the path). A leaf's
 * is its .grad; a computed tensor's, what its op received (∂root/∂t). */
export function gradState(ds, id, leaf = false) {
  const summary = ds.grads.get(id) || (!leaf && ds.received && ds.received.get(id)) || null;
  if (summary) return { state: isZero(summary) ? "zero" : "value", summary };
  if (ds.gradNone.has(id) || ds.phase === "done") return { state: "none", summary: null };
  return { state: "pending", summary: null };
}

function isZero(s) {
  if (Array.isArray(s.values)) return s.values.every((v) => v === 0);
  return s.norm === 0 && !s.nan && !s.inf;
}
