// The graph as something a keyboard and a screen reader can walk. The svg is one
// application (one tab stop, roving tabindex): Tab lands on the current step's node,
// arrows follow the edges (graphwalk.js), Enter opens the inspector, Escape goes back
// to the widget, where the arrows step the pass again (keymap.js). Each node carries
// its accessible name (describe.js), redone only when what it says has changed.
import { nodeLabel, graphLabel } from "../model/describe.js";
import { walkFrom } from "../model/graphwalk.js";
import { gradState } from "../model/nodecontent.js";

/** graph: render.js's view; onOpen(id): show it in the inspector; onLeave(): focus the widget. */
export function createKeyboardNav(graph, { onOpen = () => {}, onLeave = () => {} } = {}) {
  const svg = graph.svg;
  svg.setAttribute("role", "application");
  svg.setAttribute("aria-roledescription", "graph");
  svg.setAttribute("tabindex", "-1"); // an application is a tab stop of its own in Chromium: its nodes are the stop
  let display = null, positions = new Map(), direction = "LR", visible = new Set(), stop = null;
  let said = new Map(); // id -> the state its name was made for
  let byId = new Map(); // display id -> display node
  let named = null; // the last update's {index, ds}: a box made later is named with them

  function setGraph(newDisplay, layout, dir) {
    display = newDisplay;
    positions = layout.nodes;
    direction = dir;
    said = new Map();
    byId = new Map(display.nodes.map((d) => [d.id, d]));
    stop = null;
    named = null;
    for (const d of display.nodes) {
      const el = graph.nodeElement(d.id);
      if (el) prepare(d.id, el);
    }
  }

  // A box made (now, or as it first comes near the view on a big graph): a button, named.
  function prepare(id, el) {
    el.setAttribute("role", "button");
    el.setAttribute("tabindex", id === stop ? "0" : "-1");
    // its name says what the box's texts say: read once, not twice
    for (const child of el.children) child.setAttribute("aria-hidden", "true");
    const d = byId.get(id);
    if (named && d && visible.has(id)) name(d, el, named.index, named.ds);
  }
  graph.onNodeBuilt(prepare);

  function name(d, el, index, ds) {
    const g = d.content ? gradState(ds, d.id, d.content.leaf) : null;
    const now = { state: g && g.state, summary: g && g.summary, current: ds.current === d.id, error: ds.error === d.id };
    const was = said.get(d.id);
    if (was && Object.keys(now).every((k) => was[k] === now[k])) return;
    said.set(d.id, now);
    el.setAttribute("aria-label", nodeLabel(index, d, ds));
  }

  const inGraph = () => svg.contains(document.activeElement);

  /** Names every node for the step on screen (with `only`, {nodes}: the display ids a
   * step changed, those alone) and moves the tab stop to its node. */
  function update(index, ds, state, only = null) {
    if (!display) return;
    visible = ds.visible;
    named = { index, ds };
    svg.setAttribute("aria-label", graphLabel(index, display, state));
    for (const d of only ? [...only.nodes].map((id) => byId.get(id)).filter(Boolean) : display.nodes) {
      const el = graph.nodeElement(d.id);
      if (el && visible.has(d.id)) name(d, el, index, ds); // one not made yet is named as it is made
    }
    // While the learner walks, the tab stop stays where they are; else it follows the step.
    if (!inGraph() || !visible.has(stop)) moveStop(ds.current && visible.has(ds.current) ? ds.current : firstVisible());
  }

  function firstVisible() {
    const d = display.nodes.find((n) => visible.has(n.id));
    return d ? d.id : null;
  }

  function moveStop(id) {
    if (id === stop) return;
    const old = stop && graph.nodeElement(stop);
    if (old) old.setAttribute("tabindex", "-1");
    stop = id;
    graph.keep(id); // on a culled graph it may lie far off screen: Tab and the arrows still reach it
    const el = id && graph.nodeElement(id);
    if (el) el.setAttribute("tabindex", "0");
  }

  function focusNode(id) {
    moveStop(id);
    const el = graph.nodeElement(id);
    if (el) el.focus();
  }

  function onKey(ev) {
    const el = ev.target.closest && ev.target.closest(".ag-node");
    if (!el || !display || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const id = el.getAttribute("data-id");
    let handled = true;
    if (ev.key === "Enter") onOpen(id);
    else if (ev.key === "Escape") onLeave();
    else if (ev.key.startsWith("Arrow")) {
      const next = walkFrom(display, positions, visible, id, ev.key, direction);
      if (next) focusNode(next);
    } else handled = false;
    if (!handled) return;
    ev.preventDefault();
    ev.stopPropagation(); // the widget's own keys (arrows step the pass) wait outside the graph
  }

  function onFocus(ev) {
    const el = ev.target.closest && ev.target.closest(".ag-node");
    if (!el) return;
    const id = el.getAttribute("data-id");
    moveStop(id);
    graph.reveal(id, { zoom: false }); // the view follows the focus
  }

  svg.addEventListener("keydown", onKey);
  svg.addEventListener("focusin", onFocus);
  return {
    setGraph, update,
    destroy() { svg.removeEventListener("keydown", onKey); svg.removeEventListener("focusin", onFocus); },
  };
}
