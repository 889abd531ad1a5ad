// One view of a GraphWidget: builds the DOM from the small view modules and keeps
// it in step with the model. Recomputes the layout only when the graph's shape
// changes (trace, collapse, constants, pass, max_nodes, direction); a step only
// recomputes the timeline state and flips classes.
import { stateAt, phaseSegments, passRange } from "./timeline.js";
import { displayGraph, displayState, prefixes, SCOPE_PREFIX } from "./collapse.js";
import { layoutGraph } from "./layout.js";
import { findOutlines } from "./outlines.js";
import { comparePasses, passOptions } from "./passes.js";
import { createGraphView, READABLE_SCALE } from "./render.js";
import { createControls } from "./controls.js";
import { createInspector } from "./inspector.js";
import { createCodeStrip } from "./codestrip.js";
import { createStepPanel } from "./steppanel.js";
import { exportSVG, exportPNG } from "./export.js";
import { trait } from "./host.js";
import { documentProblem } from "./contract.js";
import { createLegend } from "./legend.js";
import { createPredictPanel } from "./predictui.js";

const LAYOUT_TRAITS = ["trace", "collapsed", "hide_constants", "pass_index", "max_nodes", "direction"];
const VIEW_TRAITS = ["step", "selected", "playing", "speed", "source", "animate", "live", "predict", "predictions"];

export function mountWidget(model, el, host) {
  const get = (name) => trait(model, name);
  const set = (values) => { for (const [k, v] of Object.entries(values)) model.set(k, v); model.save_changes(); };
  const root = document.createElement("div");
  root.className = "ag-graph";
  root.tabIndex = 0; // keyboard shortcuts only while the widget has focus
  el.appendChild(root);
  const expanded = new Set(); // scopes the learner opened that max_nodes had closed
  let display = null, layout = null, layoutKey = "", passMarks = null, index = null, segments = [], passes = [];
  let shownStep = -1;

  const controls = createControls(root, { onAction: act });
  const strip = createCodeStrip(root);
  const main = document.createElement("div");
  main.className = "ag-main";
  root.appendChild(main);
  const canvas = document.createElement("div");
  canvas.className = "ag-canvas";
  main.appendChild(canvas);
  const graph = createGraphView(canvas, { onSelect: (id) => set({ selected: id }), onOpen: toggleScope,
    onCollapse: (scope) => set({ collapsed: [...get("collapsed").filter((s) => s !== scope), scope], selected: "" }) });
  const inspector = createInspector(main, { onOpen: toggleScope });
  const legend = createLegend(root);
  const predict = createPredictPanel(root, { getPredictions: () => get("predictions"),
    setPredictions: (value) => set({ predictions: value }), step: () => host.dispatch({ type: "step" }) });
  const panel = createStepPanel(root);
  const problem = document.createElement("div");
  problem.className = "ag-doc-problem";
  problem.hidden = true;
  root.insertBefore(problem, root.firstChild);

  function relayout() {
    index = host.getIndex();
    // A document of another major version would draw wrong: say so instead of drawing it.
    const why = documentProblem(index.doc);
    problem.hidden = !why;
    problem.textContent = why || "";
    main.hidden = controls.element.hidden = !!why;
    if (why) return;
    // A graph with no source lines (one traced from PyTorch) keeps no empty code strip.
    strip.element.hidden = ![...index.nodes.values()].some((n) => n.line);
    const options = { collapsed: get("collapsed"), expanded: [...expanded], hideConstants: !!get("hide_constants"),
      maxNodes: get("max_nodes"), passIndex: get("pass_index") };
    const direction = get("direction") === "TB" ? "TB" : "LR";
    const key = JSON.stringify([options, direction, index.nodes.size, index.edges.length]);
    if (key === layoutKey && display) { segments = phaseSegments(index); refresh(); return; }
    layoutKey = key;
    display = displayGraph(index, options);
    const outlines = findOutlines(index, display);
    layout = layoutGraph(display, { direction, outlines });
    graph.setGraph(display, layout, direction, outlines);
    passMarks = options.passIndex >= 0 ? comparePasses(index, options.passIndex) : null;
    segments = phaseSegments(index);
    passes = passOptions(index);
    refresh();
    autoFit();
  }

  // The automatic view keeps labels readable (as stepping does); "fit" and f show everything.
  function autoFit() {
    if (!display) return;
    const current = stateAt(index, get("step")).current;
    graph.fit({ minScale: READABLE_SCALE, focus: display && display.groupOf.get(current) });
  }

  let shownSelected = "";
  function refresh() {
    if (host.getIndex() !== index) { relayout(); return; }
    if (!problem.hidden) return;
    const state = stateAt(index, get("step"));
    const ds = displayState(display, state);
    const selected = get("selected");
    legend.update(state.phase, get("direction") === "TB" ? "TB" : "LR");
    predict.show(index, state.step, !!get("predict"));
    graph.update(ds, { selected, added: passMarks && passMarks.added,
      unused: passMarks && new Set(passMarks.unused.map((id) => display.groupOf.get(id))),
      errorType: state.error ? state.error.type : "" });
    // Follow the step: whenever the step changes (played, stepped by key, button,
    // scrubber or from Python), the current node glides into view at a readable zoom;
    // never when the learner only pans or selects.
    if (ds.current && state.step !== shownStep) graph.reveal(ds.current, { jump: shownStep < 0 });
    shownStep = state.step;
    root.classList.toggle("ag-animate", !!get("animate"));
    root.dataset.phase = state.phase;
    const { min, max } = passRange(index, get("pass_index"));
    const sel = selectedScope(selected);
    controls.update({ step: state.step, total: state.total, min, max, playing: !!get("playing"),
      speed: get("speed"), direction: get("direction"), hideConstants: !!get("hide_constants"), predict: !!get("predict"),
      segments, passOptions: passes, passIndex: get("pass_index"),
      collapseText: sel && sel.open ? "expand" : "collapse", canCollapse: !!sel });
    const currentNode = index.nodes.get(state.current);
    strip.show((state.error && state.error.line) || (currentNode && currentNode.line) || rootLine(index, state),
      get("source"));
    panel.show(index, state, { defer: !!get("playing"), live: !!get("live") });
    // The inspector folds away while nothing is selected, so opening or closing it
    // changes the canvas's width: a graph seen whole stays whole; else the current node
    // and then the node just clicked stay in view (the clicked one wins if both can't).
    const resized = !selected !== !shownSelected;
    const whole = resized && graph.wholeInView();
    inspector.show(selected, index, state, display);
    if (whole) autoFit();
    else if (resized && ds.current) graph.reveal(ds.current, { zoom: false });
    if (selected && !shownSelected) graph.reveal(selected, { zoom: false });
    shownSelected = selected;
    root.title = passMarks ? passMarks.text : "";
  }

  // The scope a collapse/expand button acts on: a selected box (to open), or the
  // innermost module of a selected node (to close).
  function selectedScope(id) {
    if (!id || !display) return null;
    if (id.startsWith(SCOPE_PREFIX)) return { scope: id.slice(SCOPE_PREFIX.length), open: true };
    const node = index.nodes.get(id);
    const scopes = node ? prefixes(node.scope) : [];
    return scopes.length ? { scope: scopes[scopes.length - 1], open: false } : null;
  }

  function toggleScope(id) {
    const sel = selectedScope(id);
    if (!sel) return;
    const collapsed = get("collapsed");
    if (sel.open) {
      if (collapsed.includes(sel.scope)) set({ collapsed: collapsed.filter((s) => s !== sel.scope), selected: "" });
      else { expanded.add(sel.scope); set({ selected: "" }); relayout(); }
    } else {
      expanded.delete(sel.scope);
      set({ collapsed: [...collapsed.filter((s) => !s.startsWith(`${sel.scope}.`)), sel.scope], selected: SCOPE_PREFIX + sel.scope });
    }
  }

  function act(action, value) {
    switch (action) {
      case "first": case "back": case "step": case "last": host.dispatch({ type: action }); break;
      case "play": host.dispatch({ type: "toggle" }); break;
      case "goto": host.dispatch({ type: "goto", step: value }); break;
      case "speed": set({ speed: value }); break;
      case "direction": set({ direction: get("direction") === "TB" ? "LR" : "TB" }); break;
      case "fit": graph.fit(); break;
      case "collapse": toggleScope(get("selected")); break;
      case "constants": set({ hide_constants: !get("hide_constants") }); break;
      case "predict": set({ predict: !get("predict"), playing: false }); break;
      case "pass": {
        const { max } = passRange(host.getIndex(), value);
        set({ pass_index: value, step: max, selected: "", playing: false });
        break;
      }
      case "export-svg": exportSVG(graph.svg, layout, host.getIndex().doc.title); break;
      case "export-png": exportPNG(graph.svg, layout, host.getIndex().doc.title).catch(() => {}); break;
      default: break;
    }
  }

  function onKey(ev) {
    const tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const map = { ArrowLeft: "back", ArrowRight: "step", " ": "play", Home: "first", End: "last", f: "fit" };
    const action = map[ev.key];
    if (!action || (ev.key === " " && tag === "BUTTON")) return; // a focused button handles space itself
    ev.preventDefault();
    ev.stopPropagation(); // keep JupyterLab's own shortcuts out of it
    act(action);
  }
  root.addEventListener("keydown", onKey);

  const handlers = [];
  for (const name of LAYOUT_TRAITS) handlers.push([`change:${name}`, relayout]);
  for (const name of VIEW_TRAITS) handlers.push([`change:${name}`, refresh]);
  for (const [name, fn] of handlers) model.on(name, fn);
  relayout();
  // The first fit happens before the element has a size when the output area is
  // still hidden; fit again once it is laid out.
  const raf = requestAnimationFrame(autoFit);
  // Fit again the first time the canvas gets a size (an output area shown late).
  let sized = false;
  const resize = typeof ResizeObserver === "function" ? new ResizeObserver((entries) => {
    const box = entries[entries.length - 1].contentRect;
    if (!sized && box.width > 0 && box.height > 0) { sized = true; autoFit(); }
  }) : null;
  if (resize) resize.observe(canvas);

  return () => {
    cancelAnimationFrame(raf);
    if (resize) resize.disconnect();
    for (const [name, fn] of handlers) model.off(name, fn);
    root.removeEventListener("keydown", onKey);
    graph.destroy();
    panel.destroy();
    root.remove();
  };
}

// Once a pass's backward is done no node is current: the strip keeps the line that made
// the pass's root (the loss), rather than going blank.
function rootLine(index, state) {
  if (state.phase !== "done") return null;
  for (const id of index.roots) {
    const node = index.nodes.get(id);
    if (node && node.line && (index.nodePass.get(id) || 0) === state.pass) return node.line;
  }
  return null;
}
