// The gradient on each active edge, beside its middle, with an arrow against the data
// flow: what arrives on the output edge, what is sent on the input edges. Placed clear
// of every node box near it (edgelabels.js; the boxes near come from a grid, so a step
// on a 10,000-node graph looks at a few). Few per step: redrawn each time.
import { select } from "d3-selection";
import { edgeGradText } from "../model/format.js";
import { backwardArrow, labelArea, placeEdgeLabel } from "../model/edgelabels.js";
import { createBoxGrid } from "../model/boxgrid.js";

/** layer: the svg <g> the labels go in. */
export function createGradLabels(layer) {
  const overlay = select(layer);
  let edges = new Map(), direction = "LR", grid = createBoxGrid([]), labelled = false;

  /** nodes: render.js's id -> {id, box}; edges: key -> {points}. */
  function setGraph(nodes, edgeMap, dir) {
    overlay.selectAll("*").remove();
    edges = edgeMap;
    direction = dir;
    grid = createBoxGrid([...nodes.values()]);
    labelled = false;
  }

  /** ds: displayState(): its active edges get their gradient, the others none. */
  function draw(ds) {
    if (!ds.active.size && !labelled) return;
    overlay.selectAll("*").remove();
    labelled = ds.active.size > 0;
    const placed = [];
    for (const [key, a] of ds.active) {
      const e = edges.get(key);
      if (!e || !a.grad) continue;
      const text = `${backwardArrow(direction)} ${edgeGradText(a.grad)}`;
      const boxes = grid.near(labelArea(e.points, text)).filter((n) => ds.visible.has(n.id)).map((n) => n.box);
      const at = placeEdgeLabel(e.points, text, boxes, direction, placed);
      const g = overlay.append("g").attr("class", `ag-edge-grad ag-edge-grad-${a.dir} ag-${direction}`)
        .attr("data-key", key).attr("transform", `translate(${at.x},${at.y})`);
      g.append("text").attr("dy", "0.35em").text(text);
    }
  }

  return { setGraph, draw };
}
