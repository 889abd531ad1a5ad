// The trunks of edge bundles (model/edgebundle.js): one path for the many edges into a
// box, always in the document (one element, not culled), shown while its box and any
// of its sources are, lit while any of its edges is.
import { bundleFans, trunkPath } from "../model/edgebundle.js";

const SVG = "http://www.w3.org/2000/svg";

export function createTrunks() {
  let trunks = [], trunkOf = new Map();

  /** Bundles the layout's fans; the trunks go in `frag`. Returns each bundled edge's
   * own points (edge index -> points to its trunk), drawn in place of its route. */
  function setGraph(lay, direction, display, frag) {
    const bundles = bundleFans(lay, direction);
    trunkOf = new Map();
    trunks = bundles.trunks.map((bundle) => {
      const t = { dst: bundle.dst, cls: "", el: document.createElementNS(SVG, "path"),
        edges: bundle.edges.map((i) => ({ key: display.edges[i].key, src: lay.edges[i].src })) };
      for (const [name, value] of [["class", "ag-trunk"], ["d", trunkPath(bundle.points)], ["data-dst", t.dst]]) t.el.setAttribute(name, value);
      for (const e of t.edges) trunkOf.set(e.key, t);
      frag.appendChild(t.el);
      return t;
    });
    return bundles.stubs;
  }

  /** ds: displayState(); keys: the edges a step changed (null: all may have). */
  function update(ds, keys) {
    const touched = keys ? new Set([...keys].map((key) => trunkOf.get(key)).filter(Boolean)) : trunks;
    for (const t of touched) {
      const on = ds.visible.has(t.dst) && t.edges.some((e) => ds.visible.has(e.src));
      const lit = t.edges.some((e) => ds.lit.has(e.key)), active = t.edges.some((e) => ds.active.has(e.key));
      const cls = `ag-trunk${on ? "" : " ag-hidden"}${lit ? " ag-lit" : ""}${active ? " ag-active" : ""}`;
      if (cls === t.cls) continue;
      t.cls = cls;
      t.el.setAttribute("class", cls);
      t.el.setAttribute("marker-end", lit || active ? "url(#ag-arrow-lit)" : "url(#ag-arrow)");
    }
  }

  return { setGraph, update };
}
