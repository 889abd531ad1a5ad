// A one-line key under the graph (never over it, so it hides no node): what the
// gradient marks mean. Static text; invisible until a backward pass is on screen,
// and keeps its height meanwhile so the step panel does not jump.
const ITEMS = [
  ["value", "2", "gradient"],
  ["pending", "", "not computed yet"],
  ["zero", "0", "zero"],
  ["none", "None", "not on the path"],
  ["edge", "← 2", "sent back along an edge"],
];

export function createLegend(parent) {
  const box = document.createElement("div");
  box.className = "ag-legend";
  box.style.visibility = "hidden";
  for (const [state, mark, meaning] of ITEMS) {
    const row = document.createElement("div");
    row.className = "ag-legend-item";
    row.dataset.state = state;
    const m = document.createElement("span");
    m.className = "ag-legend-mark";
    m.textContent = mark;
    const t = document.createElement("span");
    t.textContent = meaning;
    row.append(m, t);
    box.appendChild(row);
  }
  parent.appendChild(box);
  return {
    element: box,
    /** phase: the timeline's phase; the key shows once backward has begun. */
    update(phase) { box.style.visibility = phase === "backward" || phase === "done" ? "visible" : "hidden"; },
  };
}
