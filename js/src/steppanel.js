// The step panel under the graph: a caption for the event on screen, and during
// backward the KaTeX lines (local derivative, incoming gradient, the product sent
// to each input). Errors show in .ag-error. KaTeX runs with trust: false and
// throwOnError: false, and names reach it escaped (latex.js).
import katex from "katex";
import { caption } from "./format.js";
import { stepLatex } from "./latex.js";

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
  let shownStep = -1, shownTrace = null;

  function show(index, state) {
    if (state.step === shownStep && index === shownTrace) return;
    shownStep = state.step;
    shownTrace = index;
    text.textContent = caption(index, state);
    math.replaceChildren();
    const s = stepLatex(index, state.event);
    if (s) {
      if (s.formula) tex(`\\text{local: }${s.formula}`, "ag-formula");
      tex(s.incoming, "ag-incoming");
      for (const line of s.lines) tex(line.tex, "ag-product", line.text);
    }
    if (state.error) {
      error.hidden = false;
      error.textContent = `${state.error.type}: ${state.error.message}`;
    } else {
      error.hidden = true;
      error.textContent = "";
    }
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

  return { element: root, show, destroy: () => root.remove() };
}
