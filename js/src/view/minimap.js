// A small overview of the whole graph in the canvas's corner, shown only when the graph
// is larger than the view: every node a box, the part on screen a frame. A click on it
// pans the view there. DOM, thin: positions are the layout's.
const NS = "http://www.w3.org/2000/svg";
const WIDE = 180, TALL = 90, MIN_TALL = 28; // px: the overview's largest box; a long chain gets a strip this tall

function el(parent, tag, attrs) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  parent.appendChild(node);
  return node;
}

/** `onPan(x, y)` receives the graph point the learner clicked on. */
export function createMinimap(container, { onPan }) {
  const box = el(container, "svg", { class: "ag-minimap", "aria-hidden": "true" });
  const dots = el(box, "g", { class: "ag-minimap-nodes" });
  const frame = el(box, "rect", { class: "ag-minimap-frame" });
  box.style.display = "none";
  let layout = null, scale = 1, top = 1;

  function setGraph(lay) {
    layout = lay;
    scale = Math.min(WIDE / Math.max(lay.width, 1), TALL / Math.max(lay.height, 1));
    const height = Math.max(MIN_TALL, Math.ceil(lay.height * scale) + 2);
    top = (height - lay.height * scale) / 2;
    box.setAttribute("width", Math.ceil(lay.width * scale) + 2);
    box.setAttribute("height", height);
    dots.replaceChildren();
    // One path, its boxes snapped to half pixels and each drawn once: 10,000 rects here
    // were laid out and painted again each time the frame moved.
    const snap = (v) => Math.round(v * 2) / 2, seen = new Set();
    for (const n of lay.nodes.values()) {
      const r = [snap(1 + (n.x - n.width / 2) * scale), snap(top + (n.y - n.height / 2) * scale),
        Math.max(1, snap(n.width * scale)), Math.max(2, snap(n.height * scale))];
      seen.add(`M${r[0]},${r[1]}h${r[2]}v${r[3]}h${-r[2]}z`);
    }
    el(dots, "path", { d: [...seen].join("") });
  }

  /** The view moved: `t` is d3-zoom's transform, `w`x`h` the canvas's size. */
  function update(t, w, h) {
    if (!layout || !w || !h) return;
    const x0 = -t.x / t.k, y0 = -t.y / t.k, vw = w / t.k, vh = h / t.k;
    const whole = x0 <= 1 && y0 <= 1 && x0 + vw >= layout.width - 1 && y0 + vh >= layout.height - 1;
    box.style.display = whole ? "none" : "";
    frame.setAttribute("x", 1 + x0 * scale);
    frame.setAttribute("y", Math.max(0, top + y0 * scale));
    frame.setAttribute("width", Math.max(2, vw * scale));
    frame.setAttribute("height", Math.min(Number(box.getAttribute("height")), Math.max(4, vh * scale)));
  }

  box.addEventListener("click", (ev) => {
    ev.stopPropagation(); // not a click on the graph's background (which clears the selection)
    const r = box.getBoundingClientRect();
    onPan((ev.clientX - r.left - 1) / scale, (ev.clientY - r.top - top) / scale);
  });
  return { element: box, setGraph, update, destroy: () => box.remove() };
}
