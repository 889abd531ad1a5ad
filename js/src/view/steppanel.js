// The step panel under the graph: a caption for the event on screen, and during
// backward the KaTeX lines (local derivative, incoming gradient, the product sent
// to each input). Errors show in .ag-error. KaTeX runs with trust: false and
// throwOnError: false, and names reach it escaped (latex.js).
import { katex, makeKatexSoon, whenKatex } from "./katexlazy.js";
import { caption } from "../model/caption.js";
import { stepLatex } from "../model/latex.js";
import { updateLines } from "../model/updates.js";

const DEFER_MS = 120;
// A new step this soon after the one before is a learner stepping fast (a held arrow,
// a few presses in a row): typesetting costs ~25 ms of script, style and layout (~550
// objects a step, in JupyterLab measured the whole step's floor), so the lines wait as
// plain text until the stepping pauses, as while playing. A step alone is typeset at once.
const FAST_MS = 250;

export function createStepPanel(container) {
  const root = document.createElement("div");
  root.className = "ag-steppanel";
  const text = document.createElement("div");
  text.className = "ag-caption";
  const math = document.createElement("div");
  math.className = "ag-math";
  const error = document.createElement("div");
  error.className = "ag-error";
  error.hidden = true;
  root.append(text, math, error);
  container.appendChild(root);
  makeKatexSoon(); // off the cell's path, ready before a step needs it (katexlazy.js)
  let shownStep = -1, shownTrace = null, shownMath = false, timer = null, steppedAt = -Infinity;

  /** With `defer` (while playing), or on a step that follows the last one within
   * FAST_MS, the products appear as plain text at once and are typeset a moment
   * later, unless the next step came first: typesetting (style and layout of KaTeX's
   * DOM) costs more than the rest of a step. The caption is redone even on the same
   * step: a pause changes what it tells. */
  function show(index, state, { defer = false, live = false } = {}) {
    const words = caption(index, state, { playing: defer, live });
    if (text.textContent !== words) text.textContent = words;
    const sameStep = state.step === shownStep && index === shownTrace;
    if (sameStep && (shownMath || defer || timer !== null)) return;
    if (!sameStep) {
      const now = performance.now();
      defer = defer || now - steppedAt < FAST_MS;
      steppedAt = now;
    }
    clearTimeout(timer);
    timer = null;
    shownStep = state.step;
    shownTrace = index;
    const s = stepLatex(index, state.event);
    shownMath = !defer || !s;
    if (defer && s) {
      math.replaceChildren(...(s.layer || []).map((words) => plain(words, "ag-layer-note")),
        ...s.lines.flatMap((line) => [plain(line.text, "ag-product"),
        ...(line.total ? [plain(line.total.text, "ag-total")] : []),
        ...(line.note ? [plain(line.note, "ag-shape-note")] : [])]));
      timer = setTimeout(() => { timer = null; typeset(s); shownMath = true; }, DEFER_MS);
    } else {
      typeset(s);
    }
    // the optimizer's update after backward: its rule with the numbers, as plain lines
    for (const line of updateLines(index, state.event)) math.appendChild(plain(line, "ag-update"));
    if (state.error) {
      error.hidden = false;
      error.textContent = `${state.error.type}: ${state.error.message}`;
    } else {
      error.hidden = true;
      error.textContent = "";
    }
  }

  function typeset(s) {
    math.replaceChildren();
    if (!s) return;
    if (!katex) { // made on the first formula, a microtask away (katexlazy.js): typeset then, if still shown
      const [step, trace] = [shownStep, shownTrace];
      whenKatex(() => { if (step === shownStep && trace === shownTrace) typeset(s); });
      return;
    }
    if (s.formula) tex(`\\text{local: }${s.formula}`, "ag-formula");
    for (const words of s.layer || []) math.appendChild(plain(words, "ag-layer-note"));
    tex(s.incoming, "ag-incoming");
    for (const line of s.lines) {
      tex(line.tex, "ag-product", line.text);
      if (line.total) tex(line.total.tex, "ag-total", line.total.text);
      if (line.note) math.appendChild(plain(line.note, "ag-shape-note"));
    }
  }

  function plain(textLine, cls) {
    const div = document.createElement("div");
    div.className = `ag-tex ag-plain ${cls}`;
    div.title = textLine;
    div.textContent = textLine;
    return div;
  }

  function tex(source, cls, title) {
    const div = document.createElement("div");
    div.className = `ag-tex ${cls}`;
    if (title) div.title = title;
    try {
      katex.render(source, div, { throwOnError: false, trust: false, displayMode: false, strict: "ignore" });
    } catch (err) {
      div.textContent = source; // KaTeX itself failed: show the source as text
    }
    math.appendChild(div);
  }

  return { element: root, show, destroy: () => { clearTimeout(timer); root.remove(); } };
}
