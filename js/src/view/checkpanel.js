// Check it yourself (issue 33), in the inspector of a tensor once its gradient is on screen:
// - the sum over paths: each path from the tensor to the output (by the learner's names),
//   the product of its local derivatives, the sum; a click (or focus) on a path lights it
//   on the graph;
// - nudge (a leaf): the output re-run at x ± h, the slope beside x.grad (the kernel re-runs
//   the engine's ops; a written page re-runs elementwise graphs itself, replay.js);
// - one step downhill (the output): every leaf that requires grad moved by -lr × grad.
// All text via textContent.
import { pathsTo } from "../model/paths.js";
import { defaultH, downhillHere, nudgeHere } from "../model/replay.js";
import { nodeName, summaryText } from "../model/format.js";

const ANSWER_MS = 15000;

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Seven significant digits, as the document keeps them; no trailing zeros. */
export function digits7(v) {
  if (typeof v !== "number") return String(v);
  if (!Number.isFinite(v)) return String(v);
  const text = Number(v.toPrecision(7)).toString();
  return text.includes("e") ? v.toPrecision(4) : text;
}

export function createCheckPanel({ model, highlight = () => {} }) {
  const results = new Map(); // node id -> the last answer's text lines (kept across redraws)
  const chosen = new Map(); // node id -> flat index of the entry to nudge
  let shownId = null, resultBox = null, request = 0;
  const waiting = new Map(); // request -> node id
  const hasKernel = model.kernel !== false;

  function onMessage(msg) {
    if (!msg || msg.type !== "check_result" || !waiting.has(msg.request)) return;
    const id = waiting.get(msg.request);
    waiting.delete(msg.request);
    results.set(id, msg.error ? [msg.refused ? `refused: ${msg.error}` : msg.error] : answerLines(msg.result));
    if (id === shownId) { paint(id); reveal(); }
  }
  if (hasKernel) model.on("msg:custom", onMessage);

  // The inspector scrolls; an answer below its fold is brought into view.
  const reveal = () => { if (resultBox && resultBox.scrollIntoView) resultBox.scrollIntoView({ block: "nearest" }); };

  function paint(id) {
    if (resultBox) resultBox.replaceChildren(...(results.get(id) || []).map((line) => el("div", "", line)));
  }

  function ask(id, content, local) {
    if (!hasKernel) {
      try { results.set(id, answerLines(local())); } catch (error) { results.set(id, [error.message]); }
      paint(id);
      reveal();
      return;
    }
    request += 1;
    waiting.set(request, id);
    results.set(id, ["asking the kernel to re-run the graph…"]);
    paint(id);
    model.send({ type: "check", request, node: id, ...content });
    const mine = request;
    setTimeout(() => {
      if (!waiting.has(mine)) return;
      waiting.delete(mine);
      results.set(id, ["no answer from the kernel: run the cell again with the kernel running"]);
      if (id === shownId) paint(id);
    }, ANSWER_MS);
  }

  /** The panel for tensor `node` at timeline state `state`, or null when there is nothing to check yet. */
  function render(index, node, state) {
    const doc = index.doc, id = node.id;
    const grad = state.grads.get(id);
    if (!grad && state.phase !== "done") return null;
    const box = el("div", "ag-checks");
    box.append(el("div", "ag-summary-title", "check it yourself"));
    shownId = id;
    const found = pathsTo(doc, id);
    if (found && found.count > 0 && found.root !== id) box.append(pathList(found));
    if (node.is_leaf && node.requires_grad && grad) box.append(nudgeForm(doc, node, grad, found));
    if (found && found.root === id) box.append(downhillForm(doc, id));
    resultBox = el("div", "ag-check-result");
    resultBox.setAttribute("aria-live", "polite");
    box.append(resultBox);
    paint(id);
    return box.childNodes.length > 2 ? box : null;
  }

  function pathList(found) {
    const wrap = el("div", "ag-paths");
    const many = found.count > found.paths.length ? ` (the first ${found.paths.length})` : "";
    wrap.append(el("div", "", `∂${found.rootName}/∂${found.name}: the sum over ${found.count} path${found.count === 1 ? "" : "s"}${many}`));
    const list = el("ol", "ag-path-list");
    found.paths.forEach((path) => {
      const item = el("li");
      const button = el("button", "ag-path-button", pathText(path));
      button.type = "button";
      const light = () => highlight(new Set([...path.nodes, ...path.ops]));
      button.addEventListener("mouseenter", light);
      button.addEventListener("focus", light);
      button.addEventListener("click", light);
      button.addEventListener("mouseleave", () => highlight(new Set()));
      button.addEventListener("blur", () => highlight(new Set()));
      item.append(button);
      list.append(item);
    });
    wrap.append(list);
    if (found.sum !== undefined) {
      const terms = found.paths.map((p) => digits7(p.product)).join(" + ");
      wrap.append(el("div", "ag-path-sum", `sum: ${terms} = ${digits7(found.sum)}; backward computed ${digits7(found.backward)}`));
    }
    for (const m of found.meetings) {
      wrap.append(el("div", "ag-path-meet", `backward adds ${m.branches} contributions at ${m.name}, once, as they arrive: the paths are never walked one by one`));
    }
    return wrap;
  }

  function nudgeForm(doc, node, grad, found) {
    const form = el("div", "ag-nudge");
    const values = (node.value && node.value.values) || [];
    const gradValues = grad.values || [];
    const size = (node.shape || []).reduce((p, n) => p * n, 1);
    let typed = null; // a tensor too large for a grid: its entry typed as "i, j"
    if (values.length > 1) form.append(el("div", "ag-entry-title", "the entry to nudge:"), entryGrid(node, values));
    else if (size > 1) {
      const entry = el("label", "", "entry ");
      typed = el("input", "ag-nudge-entry");
      typed.type = "text";
      typed.value = (node.shape || []).map(() => 0).join(", ");
      entry.append(typed);
      form.append(entry);
    }
    const label = el("label", "", "h ");
    const input = el("input", "ag-nudge-h");
    input.type = "text";
    input.value = digits7(defaultH(values.length ? values : [0]));
    label.append(input);
    const go = el("button", "ag-nudge-go", `nudge ${nodeName(node)} and re-run`);
    go.type = "button";
    go.addEventListener("click", () => {
      const h = Number(input.value), flat = chosen.get(node.id) || 0;
      if (!(h > 0 && Number.isFinite(h))) { results.set(node.id, [`h must be a number > 0, got ${input.value}`]); paint(node.id); return; }
      const index = typed ? typed.value.split(",").map((v) => Number(v.trim()))
        : values.length > 1 ? unflat(flat, node.shape) : null;
      ask(node.id, { what: "nudge", h, index },
        () => nudgeHere(doc, found.root, node.id, Number(gradValues[flat]), h, flat));
    });
    form.append(label, go);
    return form;
  }

  function entryGrid(node, values) {
    const shape = node.shape || [];
    const cols = shape.length ? shape[shape.length - 1] : 1;
    const grid = el("div", "ag-entry-grid");
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", `the entry of ${nodeName(node)} to nudge`);
    grid.style.gridTemplateColumns = `repeat(${cols}, auto)`;
    const buttons = values.map((v, flat) => {
      const b = el("button", "ag-entry", digits7(Number(v)));
      b.type = "button";
      b.title = `${nodeName(node)}[${unflat(flat, shape).join(", ")}]`;
      b.setAttribute("aria-pressed", String((chosen.get(node.id) || 0) === flat));
      b.addEventListener("click", () => {
        chosen.set(node.id, flat);
        for (const [k, other] of buttons.entries()) other.setAttribute("aria-pressed", String(k === flat));
      });
      return b;
    });
    grid.append(...buttons);
    return grid;
  }

  function downhillForm(doc, id) {
    const form = el("div", "ag-downhill");
    const label = el("label", "", "lr ");
    const input = el("input", "ag-downhill-lr");
    input.type = "text";
    input.value = "0.01";
    label.append(input);
    const go = el("button", "ag-downhill-go", "one step downhill");
    go.type = "button";
    go.addEventListener("click", () => {
      const lr = Number(input.value);
      if (!Number.isFinite(lr)) { results.set(id, [`lr must be a number, got ${input.value}`]); paint(id); return; }
      ask(id, { what: "downhill", lr }, () => downhillHere(doc, id, lr));
    });
    form.append(label, go);
    return form;
  }

  return { render, destroy: () => { if (hasKernel) model.off("msg:custom", onMessage); } };
}

function unflat(flat, shape) {
  const out = [];
  for (let k = shape.length - 1; k >= 0; k--) { out.unshift(flat % shape[k]); flat = Math.floor(flat / shape[k]); }
  return out;
}

function pathText(path) {
  const route = path.names.join(" → ");
  if (!path.locals) return `${route}: sends ${path.lastGradient ? summaryText(path.lastGradient, { max: 8 }) : "its part"}`;
  const factors = path.locals.map((l) => (l.local === null ? "0" : l.parts.length > 1
    ? `(${l.parts.map(digits7).join(" + ")})` : digits7(l.local)));
  return `${route}: ${factors.join(" × ")} = ${digits7(path.product)}`;
}

/** What a nudge or a step downhill answered, as lines of text. */
export function answerLines(r) {
  if (r.what === "downhill" || r.L_new !== undefined) {
    return [`L = ${digits7(r.L)} → ${digits7(r.L_new)} after every leaf moved by −${digits7(r.lr)} × grad`,
      `first-order prediction L − lr·‖grad‖² = ${digits7(r.predicted)} (change ${digits7(r.change)}, predicted ${digits7(r.predicted_change)})`,
      r.kernel || "re-run on this page from the recorded values (no kernel here)"];
  }
  return [`L(x+h) = ${digits7(r.L_plus)}, L(x−h) = ${digits7(r.L_minus)} (h = ${digits7(r.h)})`,
    `slope (L(x+h) − L(x−h)) / 2h = ${digits7(r.slope)}; grad = ${digits7(r.grad)}`,
    `${r.digits} digit${r.digits === 1 ? "" : "s"} agree (relative error ${r.relative_error.toExponential(1)})`,
    r.where === "page" ? "re-run on this page from the recorded values, in float64 (no kernel here)"
      : "re-run by the kernel: the engine's ops, at the recorded values"];
}
