// Draws the outlines (outlines.js) behind the graph: a module call's box with its name
// on the top edge, a repeat's dashed box with "name ×N". A click on a module's name
// collapses that module into one box. DOM, thin: boxes come from layout.js.
const SVG = "http://www.w3.org/2000/svg";
const LONG_OUTLINE = 4000; // graph units, width + height: beyond it an outline is drawn solid

function el(parent, tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  parent.appendChild(node);
  return node;
}

/** layer: an svg <g>; outlines: findOutlines(); boxes: layout.outlines (id -> centre box).
 * Returns [{el, members}] for showOutlines. */
export function drawOutlines(layer, outlines, boxes, onCollapse) {
  layer.replaceChildren();
  const drawn = [];
  for (const o of outlines) {
    const b = boxes.get(o.id);
    if (!b) continue;
    // Skia dashes a stroke along its whole length before clipping it to the screen: an
    // outline around thousands of boxes, dashed, cost ~60 ms of raster a frame. A long one is solid.
    const long = b.width + b.height > LONG_OUTLINE ? " ag-outline-long" : "";
    const g = el(layer, "g", { class: `ag-outline ag-outline-${o.kind}${long}`, "data-id": o.id, "data-scope": o.scope || "" });
    const x = b.x - b.width / 2, y = b.y - b.height / 2;
    el(g, "rect", { x, y, width: b.width, height: b.height, rx: 8 });
    const label = el(g, "text", { class: "ag-outline-label", x: x + 8, y: y + 11 });
    label.textContent = o.label;
    if (o.scope) { // a module call, or repeated calls of one module
      const title = el(g, "title", {});
      title.textContent = `${o.scope}: click its name to collapse this module into one box`;
      label.addEventListener("click", (ev) => { ev.stopPropagation(); onCollapse(o.scope); });
    }
    drawn.push({ el: g, members: o.members, shown: true });
  }
  return drawn;
}

/** An outline shows once any node in it is on screen (the forward pass builds it up). */
export function showOutlines(drawn, visible) {
  for (const d of drawn) {
    const shown = d.members.some((m) => visible.has(m));
    if (shown !== d.shown) { d.shown = shown; d.el.classList.toggle("ag-hidden", !shown); }
  }
}
