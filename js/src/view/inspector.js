// The inspector: what the selected node holds. Numbers for small tensors, a
// heatmap (canvas) for matrices, grad at the step on screen, shape, dtype, device,
// grad_fn, saved tensors, source line. All text via textContent.
import { summaryText, shapeText, heatGrid, heatColor, channelMaps, nodeName, num } from "../model/format.js";
import { tensorRole } from "../model/timeline.js";
import { SCOPE_PREFIX } from "../model/collapse.js";

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function createInspector(container, { onOpen = () => {}, checks = null } = {}) {
  const root = el("div", "ag-inspector");
  root.setAttribute("aria-live", "polite");
  container.appendChild(root);
  let shown = "";

  /** Show node `id` (trace node or scope box) as it is at timeline state `state`. */
  function show(id, index, state, display) {
    const grad = id && state.grads.get(id);
    const key = `${id}|${state.step}|${grad ? 1 : 0}`;
    if (key === shown) return;
    shown = key;
    root.replaceChildren();
    // Empty, the inspector folds away and gives the graph its width; the key says how to open it.
    root.classList.toggle("ag-empty", !id);
    if (!id) return;
    if (id.startsWith(SCOPE_PREFIX)) { scope(id, display); return; }
    const node = index.nodes.get(id);
    if (!node) return;
    root.append(el("div", "ag-title", node.kind === "op" ? `${node.op}  ${node.symbol || ""}` : nodeName(node)));
    const rows = [];
    const row = (k, v) => { if (v !== undefined && v !== null && v !== "") rows.push([k, String(v)]); };
    if (node.kind === "tensor") {
      row("role", tensorRole(index, node));
      row("shape", shapeText(node.shape));
      row("dtype", node.dtype);
      row("device", node.device);
      row("requires_grad", node.requires_grad);
      row("is_leaf", node.is_leaf);
      row("grad_fn", gradFn(index, id));
      row("param", node.param);
    } else {
      row("grad_fn", node.op);
      row("saved", (node.saved || []).map((s) => savedText(index, s)).join(", ") || "nothing");
      row("consts", (node.consts || []).map((c) => c.name !== undefined ? `${c.name} = ${c.value}`
        : `arg ${c.arg} = ${num(c.value)}`).join(", "));
      row("error", node.error);
    }
    row("scope", node.scope);
    if (node.line) row("line", `${node.line.lineno}: ${(node.line.code || "").trim()}`);
    const table = el("table", "ag-fields");
    for (const [k, v] of rows) {
      const tr = el("tr");
      tr.append(el("th", "", k), el("td", "", v));
      table.append(tr);
    }
    root.append(table);
    if (node.kind === "tensor") {
      summary("value", node.value);
      const nowGrad = state.grads.get(id) || state.arrived.get(id);
      if (nowGrad) summary(state.grads.has(id) ? "grad" : "grad (arrived)", nowGrad);
      else if (node.requires_grad) root.append(el("div", "ag-summary", state.gradNone.has(id) ? "grad: None (no gradient reached it)" : "grad: None yet"));
      const check = checks && checks.render(index, node, state); // checkpanel.js: paths, nudge, one step downhill
      if (check) root.append(check);
    }
  }

  function summary(title, s) {
    if (!s) return;
    const box = el("div", "ag-summary");
    box.append(el("div", "ag-summary-title", title), el("div", "ag-summary-text", summaryText(s, { max: 64 })));
    const channels = channelMaps(s);
    const grid = channels ? null : heatGrid(s);
    if (grid && (grid.rows > 1 || grid.cols > 4)) box.append(heatmap(grid, s));
    if (channels) box.append(channelGrid(channels, s));
    root.append(box);
  }

  function scope(id, display) {
    const box = display && display.nodes.find((n) => n.id === id);
    const name = id.slice(SCOPE_PREFIX.length);
    root.append(el("div", "ag-title", name));
    root.append(el("div", "ag-summary", `a collapsed module: ${box ? box.members.length : "?"} nodes`));
    const open = el("button", "", "expand");
    open.type = "button";
    open.setAttribute("data-action", "expand");
    open.addEventListener("click", () => onOpen(id));
    root.append(open);
  }

  return { element: root, show, destroy: () => root.remove() };
}

function gradFn(index, id) {
  const op = index.nodes.get(index.producer.get(id));
  return op ? op.op : "None";
}

function savedText(index, s) {
  const who = s.node ? nodeName(index.nodes.get(s.node)) : s.name || "tensor";
  const role = s.output ? "output" : s.arg !== undefined ? `input ${s.arg}` : s.name || "";
  return role ? `${who} (${role})` : who;
}

// An image batch: sample 0's channels, a small heatmap each on one scale, named c0, c1, ...
function channelGrid(channels, s) {
  const box = el("div", "ag-channels");
  const more = channels.channels > channels.shown ? ` (the first ${channels.shown})` : "";
  box.append(el("div", "ag-channels-title", `sample 0: ${channels.channels} channels${more}`));
  channels.maps.forEach((map, k) => {
    const tile = el("div", "ag-channel");
    const canvas = heatmap(map, { ...s, preview: { step: channels.step } }, 64);
    canvas.title = `channel ${k}: ${canvas.title}`;
    tile.append(canvas, el("div", "ag-channel-name", `c${k}`));
    box.append(tile);
  });
  return box;
}

// A heatmap on a canvas: one cell per entry (of the preview, for large tensors).
function heatmap(grid, s, fit = 200) {
  const cell = Math.max(4, Math.min(18, Math.floor(fit / Math.max(grid.rows, grid.cols))));
  const canvas = document.createElement("canvas");
  canvas.className = "ag-heatmap";
  canvas.width = grid.cols * cell;
  canvas.height = grid.rows * cell;
  const shapeNote = s.preview ? ` (every ${s.preview.step.join("×")} entry)` : "";
  canvas.title = `${shapeText(s.shape)}${shapeNote}: ${num(grid.lo)} … ${num(grid.hi)}`;
  const ctx = canvas.getContext && canvas.getContext("2d");
  if (!ctx) return canvas;
  for (let r = 0; r < grid.rows; r++) {
    for (let c = 0; c < grid.cols; c++) {
      ctx.fillStyle = heatColor(grid.data[r * grid.cols + c], grid.lo, grid.hi);
      ctx.fillRect(c * cell, r * cell, cell, cell);
    }
  }
  return canvas;
}
