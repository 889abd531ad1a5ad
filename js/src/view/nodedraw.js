// A tensor box's insides, drawn from nodecontent.js's tensorContent(): its title
// (`a = 2` for a scalar), the value grid or thumbnail with min/max, and the line
// where its gradient appears. Everything goes in as text (textContent).
import { CHAR, LINE, COL_GAP, THUMB_PX, colWidths, valueView, badLine } from "../model/nodecontent.js";
import { badgeText, heatColor, nested, num } from "../model/format.js";

const SVG = "http://www.w3.org/2000/svg";

function el(parent, tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  parent.appendChild(node);
  return node;
}

// A grid of texts, right-aligned per column, starting at (left, top).
function grid(parent, rows, left, top, cls) {
  const widths = colWidths(rows), g = el(parent, "g", { class: cls });
  rows.forEach((row, r) => {
    let x = left;
    row.forEach((text, c) => {
      x += widths[c];
      el(g, "text", { class: "ag-cell", x, y: top + LINE * (r + 0.5), dy: "0.35em" }, text);
      x += COL_GAP;
    });
  });
  return g;
}

/** Draws the content into node group `g` (centred at 0,0 in a box w x h). Returns
 * the handle update() needs for the gradient. */
export function drawTensor(g, d, box) {
  const c = d.content, top = -box.height / 2 + 3, left = -box.width / 2 + 7;
  const title = el(g, "text", { class: "ag-title", y: top + LINE / 2, dy: "0.35em" });
  el(title, "tspan", { class: "ag-label" }, c.title);
  const v = c.value;
  if (v && v.kind === "scalar") el(title, "tspan", { class: "ag-value" }, ` = ${v.text}`);
  let gradAt = null;
  if (v && v.kind === "grid") {
    const w = colWidths(v.rows).reduce((a, b) => a + b, 0) + COL_GAP * (v.rows[0].length - 1);
    const gridLeft = c.grad ? -w - COL_GAP : -w / 2;
    grid(g, v.rows, gridLeft, top + LINE * (c.grad ? 2 : 1), "ag-value ag-value-grid");
    if (c.grad) { // two grids side by side: each names itself, a rule between them
      el(g, "text", { class: "ag-grad-key", x: gridLeft, y: top + LINE * 1.5, dy: "0.35em" }, "value");
      el(g, "text", { class: "ag-grad-key", x: COL_GAP, y: top + LINE * 1.5, dy: "0.35em" }, "grad");
      el(g, "line", { class: "ag-grid-rule", x1: COL_GAP / 2, x2: COL_GAP / 2, y1: top + LINE * 1.1,
        y2: top + LINE * (2 + v.rows.length) - 6 });
      gradAt = { kind: "grid", x: COL_GAP, y: top + LINE * 2, rows: v.rows.length };
    }
  } else if (v && v.kind === "large") {
    const y0 = top + LINE;
    let x = left;
    if (v.heat) {
      const t = el(g, "g", { class: "ag-thumb" });
      if (v.heat.shown) t.setAttribute("data-channels", `${v.heat.shown} of ${v.heat.channels}`);
      v.heat.cells.forEach((cell, i) => {
        if (cell === null) return; // the gap between two channels' maps
        el(t, "rect", { x: x + (i % v.heat.cols) * THUMB_PX, y: y0 + Math.floor(i / v.heat.cols) * THUMB_PX,
          width: THUMB_PX, height: THUMB_PX, fill: heatColor(cell, v.heat.lo, v.heat.hi) });
      });
      x += v.heat.cols * THUMB_PX + COL_GAP;
    }
    const stats = el(g, "g", { class: "ag-value ag-value-stats" });
    el(stats, "text", { x, y: y0 + LINE / 2, dy: "0.35em", class: "ag-cell ag-start" }, `min ${v.min}`);
    el(stats, "text", { x, y: y0 + LINE * 1.5, dy: "0.35em", class: "ag-cell ag-start" }, `max ${v.max}`);
    if (v.bad) el(stats, "text", { x, y: y0 + LINE * 2.5, dy: "0.35em", class: "ag-cell ag-start ag-bad" }, badLine(v.bad));
    if (c.grad) gradAt = { kind: "line", x: 0, y: box.height / 2 - 3 - LINE / 2 };
  } else if (c.grad) {
    gradAt = { kind: "line", x: 0, y: top + LINE * 1.5 };
  }
  if (!gradAt) return null;
  const line = el(g, "g", { class: "ag-grad-line", "data-state": "pending" });
  if (gradAt.kind === "line") {
    el(line, "text", { class: "ag-grad-key", x: gradAt.x, y: gradAt.y, dy: "0.35em", "text-anchor": "end" }, "grad = ");
    el(line, "rect", { class: "ag-grad-slot", x: gradAt.x + 2, y: gradAt.y - 6, width: 3 * CHAR, height: 12, rx: 3 });
  } else {
    el(line, "rect", { class: "ag-grad-slot", x: gradAt.x, y: gradAt.y + 2, width: 3 * CHAR, height: LINE * gradAt.rows - 4, rx: 3 });
  }
  const badge = el(line, "g", { class: "ag-grad-badge ag-empty", "data-id": d.id });
  return { line, badge, at: gradAt, state: "pending", text: null };
}

/** Shows the gradient state {state, summary} (nodecontent.gradState) in a handle. */
export function updateGrad(h, info) {
  const text = info.summary ? badgeText(info.summary) : info.state === "none" ? "None" : "";
  if (info.state === h.state && text === h.text) return;
  h.state = info.state;
  h.text = text;
  h.line.setAttribute("data-state", info.state);
  h.badge.setAttribute("class", text ? "ag-grad-badge" : "ag-grad-badge ag-empty");
  h.badge.setAttribute("title", text);
  h.badge.textContent = "";
  if (!text) return;
  const rows = h.at.kind === "grid" && info.summary ? gridRows(info.summary) : null;
  if (rows) grid(h.badge, rows, h.at.x, h.at.y, "ag-grad-grid");
  else el(h.badge, "text", { x: h.at.x + 2, y: h.at.kind === "line" ? h.at.y : h.at.y + LINE / 2, dy: "0.35em", class: "ag-start" }, text);
}

function gridRows(s) {
  if (!Array.isArray(s.values)) return null;
  const n = nested(s);
  if (!Array.isArray(n)) return [[num(n)]];
  return Array.isArray(n[0]) ? n.map((row) => row.map(num)) : [n.map(num)];
}

/** A scalar parameter's title value (` = 2`) as the optimizer left it by this step
 * (timeline.js's `updated`); its value as traced when no update has reached it. */
export function showUpdatedValue(n, summary) {
  const view = summary && valueView(summary);
  const text = view && view.kind === "scalar" ? ` = ${view.text}` : n.valueText;
  if (n.value.textContent !== text) n.value.textContent = text;
}

// A note (`grad is None`, an error's type) is a tab astride its own box's top border, at
// the right: a text in the gap between two ranks (14 px at times) read as the note of
// the box above (issue 32). Right, not centred: edges arrive at the top's middle and
// the title is centred.
// NOTE_INSIDE: how far the tab reaches into its box, short of the title's letters.
const NOTE_HEIGHT = 15, NOTE_INSIDE = 5, NOTE_PAD = 4, NOTE_CHAR = 6.2;

/** The (empty, hidden) note tab of the node group `g` centred in a box w x h. */
export function drawNote(g, box) {
  const top = -box.height / 2, right = box.width / 2 - Math.min(box.height / 2, 8);
  const tab = el(g, "g", { class: "ag-note-tab", display: "none" });
  const shape = el(tab, "rect", { class: "ag-note-shape", x: right, y: top - NOTE_HEIGHT + NOTE_INSIDE, height: NOTE_HEIGHT, rx: 3 });
  const text = el(tab, "text", { class: "ag-note", x: right - NOTE_PAD, y: top - NOTE_HEIGHT / 2 + NOTE_INSIDE,
    dy: "0.35em" });
  return { tab, shape, text, right };
}

/** Shows `text` in a note tab (drawNote); an empty text hides the tab. */
export function showNote(h, text) {
  h.text.textContent = text;
  if (!text) { h.tab.setAttribute("display", "none"); return; }
  h.tab.removeAttribute("display");
  const measured = h.text.getComputedTextLength ? h.text.getComputedTextLength() : 0;
  const width = (measured || text.length * NOTE_CHAR) + 2 * NOTE_PAD;
  h.shape.setAttribute("x", String(h.right - width));
  h.shape.setAttribute("width", String(width));
}
