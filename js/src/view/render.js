// The graph as SVG (d3-selection, d3-zoom). Thin on purpose: positions come from
// layout.js, what to highlight from timeline.js/collapse.js. setGraph() builds the
// elements once per layout; update() only flips classes and texts on elements
// whose state changed, so a step while playing stays cheap on big graphs.
// Every label goes in with .text() (textContent): never as HTML.
import { select } from "d3-selection";
import { zoom, zoomIdentity } from "d3-zoom";
import { createMinimap } from "./minimap.js";
import { edgePath } from "../model/layout.js";
import { drawNote, drawTensor, showNote, showUpdatedValue, updateGrad } from "./nodedraw.js";
import { gradState } from "../model/nodecontent.js";
import { createGradLabels } from "./gradlabels.js";
import { drawOutlines, showOutlines } from "./outlinedraw.js";
import { createCuller, CULL_MIN } from "./cull.js";
import { boxesFrame, wholeGraphFrame } from "../model/framing.js";
import { createCanvasSize } from "./canvassize.js";
import { createTrunks } from "./trunks.js";

const SVG = "http://www.w3.org/2000/svg";
const LOD_SCALE = 0.4;
// Stepping keeps the current node readable: its smallest text (11 px, the op labels
// and grid cells) at least 11 px on screen.
export const READABLE_SCALE = 1;
const GLIDE_MS = 240;
const reducedMotion = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

export function createGraphView(container, { onSelect = () => {}, onOpen = () => {}, onCollapse = () => {},
  onLearnerMove = () => {} } = {}) {
  const svg = select(container).append("svg").attr("class", "ag-svg").attr("xmlns", SVG);
  const canvasSize = createCanvasSize(svg.node()), size = () => canvasSize.get().map((v, i) => v || [800, 400][i]);
  const defs = svg.append("defs");
  for (const [id, cls] of [["ag-arrow", "ag-arrowhead"], ["ag-arrow-lit", "ag-arrowhead ag-lit"], ["ag-arrow-back", "ag-arrowhead ag-back"]]) {
    defs.append("marker").attr("id", id).attr("class", cls).attr("viewBox", "0 0 10 10").attr("refX", 9).attr("refY", 5)
      .attr("markerUnits", "userSpaceOnUse").attr("markerWidth", 8).attr("markerHeight", 8).attr("orient", "auto-start-reverse")
      .append("path").attr("d", "M0,0L10,5L0,10z");
  }
  const viewport = svg.append("g").attr("class", "ag-viewport");
  const outlineLayer = viewport.append("g").attr("class", "ag-outlines");
  const edgeLayer = viewport.append("g").attr("class", "ag-edges");
  const nodeLayer = viewport.append("g").attr("class", "ag-nodes");
  const overlay = viewport.append("g").attr("class", "ag-overlay");
  // Level of detail: below LOD_SCALE text is unreadable anyway and dominates paint
  // time on big graphs, so the svg gets a class that hides it.
  let lod = false;
  const zoomer = zoom().scaleExtent([0.01, 4]).on("zoom", (ev) => {
    viewport.attr("transform", ev.transform);
    const [w, h] = canvasSize.get();
    minimap.update(ev.transform, w, h); culler.update(ev.transform, w, h);
    const low = ev.transform.k < LOD_SCALE;
    if (low !== lod) { lod = low; svg.classed("ag-lod", low); }
  });
  // In a notebook the wheel scrolls the page: it zooms only once the widget has
  // focus (a click in it), or with Ctrl held.
  zoomer.filter((ev) => !ev.button && (ev.type !== "wheel" || ev.ctrlKey || ev.metaKey
    || container.closest(".ag-graph")?.contains(document.activeElement)));
  // (d3-zoom's default extent reads the width attribute: throws while not in the document)
  zoomer.extent(() => [[0, 0], size()]);
  svg.call(zoomer).on("dblclick.zoom", null);
  const minimap = createMinimap(container, { onPan: (x, y) => {
    const t = transformOf(svg.node()), [w, h] = size();
    glideTo(zoomIdentity.translate(w / 2 - x * t.k, h / 2 - y * t.k).scale(t.k), 0);
    onLearnerMove();
  } });

  let nodes = new Map(), edges = new Map(), layout = null, direction = "LR", outlined = [];
  const gradLabels = createGradLabels(overlay.node());
  const culler = createCuller(), trunks = createTrunks(); // trunks: many edges into one box (trunks.js)
  let current = null, kept = null; // the step's node and the keyboard's: always in the document
  const pinNodes = () => culler.pin([current, kept].map((id) => nodes.get(id)).filter(Boolean).map((n) => n.cull));
  let onPath = new Set(); // the path the check panel lights (checkpanel.js)
  let drawnWith = null; // the last update's {ds, extra}: a box made later is drawn with them
  const builtHooks = [];

  function setGraph(display, lay, dir, outlines = []) {
    layout = lay;
    outlined = drawOutlines(outlineLayer.node(), outlines, lay.outlines, onCollapse);
    minimap.setGraph(lay);
    direction = dir;
    nodes = new Map(); edges = new Map(); drawnWith = null;
    edgeLayer.selectAll("*").remove(); nodeLayer.selectAll("*").remove();
    const eFrag = document.createDocumentFragment(), nFrag = document.createDocumentFragment();
    // A big graph's boxes and edges are made as they first come near the view (cull.js):
    // at 10,000 nodes making them all was most of the first picture's second.
    const lazy = display.nodes.length >= CULL_MIN, stubs = trunks.setGraph(lay, dir, display, eFrag); // a bundled edge: to its trunk
    for (const [i, e] of lay.edges.entries()) {
      const key = display.edges[i].key, entry = { key, el: null, src: e.src, dst: e.dst, points: stubs.get(i) || e.points, cls: "" };
      edges.set(key, entry);
      if (!lazy) eFrag.appendChild(buildEdge(entry));
    }
    for (const d of display.nodes) {
      const n = { id: d.id, d, box: lay.nodes.get(d.id), el: null, cls: "", noteText: "", shown: null, edgeKeys: [] };
      nodes.set(d.id, n);
      if (!lazy) nFrag.appendChild(buildNode(n));
    }
    for (const [key, e] of edges) for (const end of [e.src, e.dst]) if (nodes.has(end)) nodes.get(end).edgeKeys.push(key);
    const boxItem = (n) => (n.cull = { el: n.el, make: () => buildNode(n), layer: nodeLayer.node(), x0: n.box.x - n.box.width / 2, x1: n.box.x + n.box.width / 2,
      y0: n.box.y - n.box.height / 2 - 20, y1: n.box.y + n.box.height / 2 });
    const edgeItem = (e) => (e.cull = { el: e.el, make: () => buildEdge(e), layer: edgeLayer.node(), x0: Math.min(...e.points.map((q) => q[0])), x1: Math.max(...e.points.map((q) => q[0])),
      y0: Math.min(...e.points.map((q) => q[1])), y1: Math.max(...e.points.map((q) => q[1])) });
    culler.setItems([...[...nodes.values()].map(boxItem), ...[...edges.values()].map(edgeItem)], nodes.size);
    culler.update(transformOf(svg.node()), ...canvasSize.get());
    svg.classed("ag-big", lazy); // styles.css: no running dash on a culled graph
    gradLabels.setGraph(nodes, edges, dir);
    edgeLayer.node().appendChild(eFrag);
    nodeLayer.node().appendChild(nFrag);
  }

  function buildEdge(e) {
    e.el = document.createElementNS(SVG, "path");
    const attrs = { class: "ag-edge", d: edgePath(e.points, direction), "marker-end": "url(#ag-arrow)", "data-key": e.key };
    for (const [name, value] of Object.entries(attrs)) e.el.setAttribute(name, value);
    if (drawnWith) updateEdge(e.key, e, drawnWith.ds);
    return e.el;
  }

  function buildNode(n) {
    const { d, box } = n;
    const g = select(document.createElementNS(SVG, "g"))
      .attr("class", "ag-node").attr("data-id", d.id).attr("data-kind", d.kind === "scope" ? "scope" : d.kind)
      .attr("data-role", d.role || d.kind).attr("transform", `translate(${box.x},${box.y})`)
      .on("click", (ev) => { ev.stopPropagation(); onSelect(d.id); })
      .on("dblclick", (ev) => { ev.stopPropagation(); if (d.kind === "scope") onOpen(d.id); });
    const rx = d.kind === "op" ? box.height / 2 : d.kind === "scope" ? 6 : 4;
    g.append("rect").attr("class", "ag-shape").attr("x", -box.width / 2).attr("y", -box.height / 2)
      .attr("width", box.width).attr("height", box.height).attr("rx", rx);
    // A tensor box holds its value and, once it arrives, its gradient (nodedraw.js).
    let badge = null, note = null;
    if (d.content) badge = drawTensor(g.node(), d, box);
    else g.append("text").attr("class", "ag-label").attr("dy", "0.35em").text(d.text);
    if (d.kind !== "scope") note = drawNote(g.node(), box);
    const value = g.node().querySelector(".ag-title .ag-value"); // a scalar's ` = 2`: the optimizer moves it
    Object.assign(n, { el: g.node(), badge, leaf: !!(d.content && d.content.leaf), note, text: d.text, value, valueText: value && value.textContent });
    if (drawnWith) { n.shown = drawnWith.ds.visible.has(d.id); updateNode(d.id, n, drawnWith.ds, drawnWith.extra); }
    for (const fn of builtHooks) fn(d.id, n.el);
    return n.el;
  }

  /** ds: displayState(); extra: {selected, added: Set, unused: Set, errorType}. The
   * error's message goes in the step panel (.ag-error), only its type on the node.
   * only: {nodes, edges} (display ids and keys) when just those may have changed (a
   * step: cursor.js), so a step costs what it changes; null redraws everything. */
  function update(ds, extra = {}, only = null) {
    drawnWith = { ds, extra };
    let flipped = !only;
    const edgeKeys = only ? new Set(only.edges) : edges.keys();
    for (const id of only ? only.nodes : nodes.keys()) {
      const n = nodes.get(id);
      if (!n) continue;
      const shown = ds.visible.has(id);
      if (only && shown !== n.shown) { flipped = true; for (const key of n.edgeKeys) edgeKeys.add(key); }
      n.shown = shown;
      if (n.el) updateNode(id, n, ds, extra); // one not made yet is drawn as it is made
    }
    for (const key of edgeKeys) updateEdge(key, edges.get(key), ds);
    trunks.update(ds, only && edgeKeys);
    current = ds.current;
    pinNodes();
    if (flipped) showOutlines(outlined, ds.visible);
    gradLabels.draw(ds);
  }
  function updateNode(id, n, ds, extra) {
    const flags = ["ag-node"];
    if (!n.shown) flags.push("ag-hidden");
    if (ds.current === id) flags.push("ag-current");
    if (extra.selected === id) flags.push("ag-selected");
    if (ds.stepped.has(id)) flags.push("ag-stepped");
    if (ds.error === id) flags.push("ag-error-node");
    if (ds.nonfinite.has(id)) flags.push("ag-nonfinite");
    if (ds.gradNone.has(id)) flags.push("ag-grad-none");
    if (ds.dead && ds.dead.has(id)) flags.push("ag-dead");
    if (extra.added && extra.added.has(id)) flags.push("ag-pass-added");
    if (extra.unused && extra.unused.has(id)) flags.push("ag-pass-unused");
    if (onPath.has(id)) flags.push("ag-path");
    setClass(n, flags.join(" "));
    const note = ds.error === id ? (extra.errorType || "error") : ds.gradNone.has(id) ? "grad is None"
      : extra.unused && extra.unused.has(id) ? "unused in this pass" : ds.nonfinite.has(id) ? "nan/inf" : "";
    if (n.note && note !== n.noteText) { showNote(n.note, note); n.noteText = note; }
    if (n.badge) updateGrad(n.badge, gradState(ds, id, n.leaf));
    if (n.value) showUpdatedValue(n, ds.updated && ds.updated.get(id));
  }

  function updateEdge(key, e, ds) {
    if (!e || !e.el) return; // one not made yet is drawn as it is made
    const on = ds.visible.has(e.src) && ds.visible.has(e.dst);
    const active = ds.active.get(key);
    const cls = `ag-edge${on ? "" : " ag-hidden"}${ds.lit.has(key) ? " ag-lit" : ""}${active ? ` ag-active ag-active-${active.dir}` : ""}${onPath.has(e.src) && onPath.has(e.dst) ? " ag-path" : ""}`;
    if (cls === e.cls) return;
    e.cls = cls;
    e.el.setAttribute("class", cls);
    e.el.setAttribute("marker-end", ds.lit.has(key) || active ? "url(#ag-arrow-lit)" : "url(#ag-arrow)");
    // the edge being walked also points back, the way its gradient goes
    if (active) e.el.setAttribute("marker-start", "url(#ag-arrow-back)");
    else e.el.removeAttribute("marker-start");
  }
  function setClass(n, cls) { if (cls !== n.cls) { n.cls = cls; n.el.setAttribute("class", cls); } }
  /** Zoom to show the whole graph, or with minScale its start readable (framing.js). */
  function fit({ minScale = 0, focus = null } = {}) {
    if (!layout) return;
    const n = focus && nodes.get(focus);
    const f = wholeGraphFrame(layout, ...size(), direction, { minScale, focusBox: n && n.box });
    glideTo(zoomIdentity.translate(f.x, f.y).scale(f.k), 0);
  }

  /** Bring node `id` into view at a readable zoom: when any part of its box is
   * outside the canvas, or the zoom makes its text smaller than 11 px, centre
   * it (zooming in to READABLE_SCALE if needed, never out; with `zoom` false it
   * only pans, as little as brings the box in). Glides there over GLIDE_MS unless `jump` (animation off, or the
   * learner asked for less motion). */
  function reveal(id, { jump = false, zoom = true } = {}) {
    const n = nodes.get(id);
    if (!n) return;
    // judged where the view is going: a glide under way still moves it
    const t = glide ? glideTarget : transformOf(svg.node());
    const x = t.x + n.box.x * t.k, y = t.y + n.box.y * t.k, [w, h] = size();
    // the whole box (and its gradient line and note above) in view, with a margin
    const hw = (n.box.width / 2) * t.k + 10, hh = (n.box.height / 2) * t.k + 16;
    const duration = jump || reducedMotion() ? 0 : GLIDE_MS;
    if (!zoom) { // the least pan that brings the box in
      const dx = x - hw < 0 ? hw - x : x + hw > w ? w - x - hw : 0;
      const dy = y - hh < 0 ? hh - y : y + hh > h ? h - y - hh : 0;
      if (dx || dy) glideTo(zoomIdentity.translate(t.x + dx, t.y + dy).scale(t.k), duration);
      return;
    }
    if (t.k >= READABLE_SCALE - 1e-6 && x - hw >= 0 && x + hw <= w && y - hh >= 0 && y + hh <= h &&
      !underMinimap(x + hw, y + hh, w, h)) return;
    // readable, but never so close that a box bigger than the canvas is cut
    const k = Math.min(Math.max(t.k, READABLE_SCALE), (w - 20) / n.box.width, (h - 32) / n.box.height);
    glideTo(zoomIdentity.translate(w / 2 - n.box.x * k, h / 2 - n.box.y * k).scale(k), duration);
  }

  /** Zoom (at most 1.5x) to show nodes ``ids`` whole (their notes above and a margin), centred. */
  function fitNodes(ids, { jump = false } = {}) {
    const boxes = ids.map((id) => nodes.get(id)).filter(Boolean).map((n) => n.box);
    if (!boxes.length) return;
    const f = boxesFrame(boxes, ...size());
    glideTo(zoomIdentity.translate(f.x, f.y).scale(f.k), jump || reducedMotion() ? 0 : GLIDE_MS);
  }

  /** Whether the whole graph is on screen (judged where a glide is going). */
  function wholeInView() {
    if (!layout) return false;
    const t = glide ? glideTarget : transformOf(svg.node()), [w, h] = size();
    return t.x >= -1 && t.y >= -1 && t.x + layout.width * t.k <= w + 1 && t.y + layout.height * t.k <= h + 1;
  }

  // The overview sits in the bottom-right corner (8 px in): a node under it is not in view.
  function underMinimap(right, bottom, w, h) {
    const m = minimap.element;
    if (m.style.display === "none") return false;
    return right > w - 8 - Number(m.getAttribute("width")) && bottom > h - 8 - Number(m.getAttribute("height"));
  }

  // A pan as a short ease-out glide (d3-zoom without d3-transition: one transform a
  // frame). A new glide, or the learner's own pan or zoom, ends the one under way.
  let glide = 0, glideTarget = zoomIdentity;
  function glideTo(target, ms) {
    cancelAnimationFrame(glide);
    glide = 0;
    glideTarget = target;
    const from = transformOf(svg.node());
    if (ms <= 0) { svg.call(zoomer.transform, target); return; }
    const start = performance.now();
    const frame = (now) => {
      const u = Math.min(1, (now - start) / ms), e = 1 - (1 - u) ** 3;
      const k = from.k + (target.k - from.k) * e;
      svg.call(zoomer.transform, zoomIdentity.translate(from.x + (target.x - from.x) * e,
        from.y + (target.y - from.y) * e).scale(k));
      glide = u < 1 ? requestAnimationFrame(frame) : 0;
    };
    glide = requestAnimationFrame(frame);
  }
  zoomer.on("zoom.glide", (ev) => { if (ev.sourceEvent) { cancelAnimationFrame(glide); glide = 0; onLearnerMove(); } });

  /** Light the nodes in `ids` and the edges between them (one path of a sum over paths). */
  function highlight(ids) {
    onPath = ids;
    for (const [id, n] of nodes) if (n.el) n.el.classList.toggle("ag-path", ids.has(id));
    for (const e of edges.values()) if (e.el) e.el.classList.toggle("ag-path", ids.has(e.src) && ids.has(e.dst));
  }

  function nodeElement(id) { const n = nodes.get(id); return n ? n.el : null; }
  /** Calls `fn(id, element)` as each box is made (a big graph's, when it first comes near the view). */
  function onNodeBuilt(fn) { builtHooks.push(fn); }
  /** Keeps node `id` in the document however far the view goes (the keyboard focuses it). */
  function keep(id) { kept = id; pinNodes(); }
  svg.on("click", () => onSelect(""));
  return {
    svg: svg.node(), setGraph, update, fit, fitNodes, reveal, wholeInView, highlight, nodeElement, keep, onNodeBuilt,
    /** Runs `fn` with every box in the render tree (an export draws the whole graph). */
    whole: (fn) => culler.withAll(fn),
    /** The canvas was resized by something shown beside it: the next measure reads it. */
    resized: () => canvasSize.stale(),
    destroy: () => { cancelAnimationFrame(glide); svg.on(".zoom", null); svg.remove(); minimap.destroy(); canvasSize.destroy(); },
  };
}

function transformOf(el) {
  // d3-zoom keeps the current transform on the element as __zoom.
  return el.__zoom || zoomIdentity;
}
