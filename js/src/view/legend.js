// A one-line key under the graph (never over it, so it hides no node): what the box
// colours mean, always; what the gradient marks mean, once a backward pass is on
// screen (until then those items keep their place, so the step panel does not jump).
import { backwardArrow } from "../model/edgelabels.js";

const COLOURS = [
  ["leaf", "leaf (requires grad)"],
  ["output", "output"],
  ["constant", "constant"],
  ["current", "current step"], // the thick orange border, said in words too
];
const MARKS = [
  ["value", "2", "gradient"],
  ["pending", "", "not computed yet"],
  ["zero", "0", "zero"],
  ["none", "None", "not on the path"],
  ["edge", "← 2", "sent back along an edge"],
];

function item(box, cls, key, mark, meaning) {
  const row = document.createElement("div");
  row.className = cls;
  row.dataset[cls === "ag-legend-item" ? "state" : "role"] = key;
  const m = document.createElement("span");
  m.className = cls === "ag-legend-item" ? "ag-legend-mark" : "ag-legend-swatch";
  m.textContent = mark;
  const t = document.createElement("span");
  t.textContent = meaning;
  row.append(m, t);
  box.appendChild(row);
  return { row, mark: m };
}

export function createLegend(parent) {
  const box = document.createElement("div");
  box.className = "ag-legend";
  for (const [role, meaning] of COLOURS) item(box, "ag-legend-colour", role, "", meaning);
  const marks = MARKS.map(([state, mark, meaning]) => item(box, "ag-legend-item", state, mark, meaning));
  // The two meanings of the arrow keys (keymap.js on the widget, keyboard-nav.js on a node).
  const keys = document.createElement("div");
  keys.className = "ag-legend-keys";
  keys.textContent = "keys: ← → step the pass; Tab to a node, then arrows walk the edges, Enter inspects, Esc leaves";
  box.appendChild(keys);
  parent.appendChild(box);
  return {
    element: box,
    /** phase: the timeline's phase; direction: LR or TB (the edge mark's arrow). */
    update(phase, direction = "LR") {
      const shown = phase === "backward" || phase === "done" ? "visible" : "hidden";
      for (const { row } of marks) row.style.visibility = shown;
      marks[marks.length - 1].mark.textContent = `${backwardArrow(direction)} 2`;
    },
  };
}
