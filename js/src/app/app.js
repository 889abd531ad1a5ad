// One view of a GraphWidget, wiring only: builds the DOM from the view modules, feeds
// them what the model modules compute, and turns actions into model changes. Lays the
// graph out again only when a trait marked redraws: "layout" in contract.json changes
// (trace, collapse, constants, pass, max_nodes, direction); a step only recomputes the
// timeline state and flips classes.
import { phaseSegments, passRange, stripLine } from "../model/timeline.js";
import { createCursor, displayChanges } from "../model/cursor.js";
import { displayGraph, displayState } from "../model/collapse.js";
import { patchDisplayState } from "../model/displaypatch.js";
import { layoutGraph } from "../model/layout.js";
import { findOutlines } from "../model/outlines.js";
import { comparePasses, passOptions } from "../model/passes.js";
import { createGraphView } from "../view/render.js";
import { createCamera } from "../view/camera.js";
import { viewpoint } from "../model/viewpoint.js";
import { createControls } from "../view/controls.js";
import { createInspector } from "../view/inspector.js";
import { createCodeStrip } from "../view/codestrip.js";
import { createStepPanel } from "../view/steppanel.js";
import { exportSVG, exportPNG } from "../view/export.js";
import { trait } from "./host.js";
import { documentProblem, LAYOUT_TRAITS, VIEW_TRAITS } from "../model/contract.js";
import { keyAction } from "../model/keymap.js";
import { selectedScope, toggleScope as scopeToggle } from "../model/scopes.js";
import { createLegend } from "../view/legend.js";
import { createPredictPanel } from "../view/predictui.js";
import { createKeyboardNav } from "../view/keyboard-nav.js";
import { createAnnouncer } from "../view/announcer.js";
import { stepSentence } from "../model/describe.js";
import { walkWay } from "../model/graphwalk.js";
import { guardShortcuts } from "../view/shortcut-guard.js";
import { createCheckPanel } from "../view/checkpanel.js";

export function mountWidget(model, el, host) {
  const get = (name) => trait(model, name);
  const set = (values) => { for (const [k, v] of Object.entries(values)) model.set(k, v); model.save_changes(); };
  const root = document.createElement("div");
  root.className = "ag-graph";
  root.tabIndex = 0; // keyboard shortcuts only while the widget has focus
  el.appendChild(root);
  const expanded = new Set(); // scopes the learner opened that max_nodes had closed
  let display = null, layout = null, layoutKey = "", passMarks = null, index = null, segments = [], passes = [];
  // A step moves the cursor one event and redraws what that event changed (cursor.js);
  // drawn: what the last full redraw used, so a change of those redraws everything.
  let cursor = null, state = null, drawn = null, ds = null;

  const controls = createControls(root, { onAction: act });
  const strip = createCodeStrip(root);
  const main = document.createElement("div");
  main.className = "ag-main";
  root.appendChild(main);
  const canvas = document.createElement("div");
  canvas.className = "ag-canvas";
  main.appendChild(canvas);
  const graph = createGraphView(canvas, { onSelect: (id) => set({ selected: id }), onOpen: toggleScope,
    onCollapse: (scope) => set({ collapsed: [...get("collapsed").filter((s) => s !== scope), scope], selected: "" }),
    onLearnerMove: () => camera.learnerMoved() });
  const nav = createKeyboardNav(graph, { onOpen: (id) => set({ selected: id }), onLeave: () => root.focus() });
  const announcer = createAnnouncer(root);
  const camera = createCamera(graph, canvas, () => display && state && viewpoint(index, state, display),
    { whole: !!model.get("fit_whole") }); // a page's model sets fit_whole (app/page.js)
  const checks = createCheckPanel({ model, highlight: (ids) => graph.highlight(ids) });
  const inspector = createInspector(main, { onOpen: toggleScope, checks });
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
    drawn = null;
    nav.setGraph(display, layout, direction);
    passMarks = options.passIndex >= 0 ? comparePasses(index, options.passIndex) : null;
    segments = phaseSegments(index);
    passes = passOptions(index);
    refresh();
    camera.autoFit();
  }

  function refresh() {
    if (host.getIndex() !== index) { relayout(); return; }
    if (!problem.hidden) return;
    if (!cursor || cursor.index !== index) { cursor = Object.assign(createCursor(index), { index }); drawn = null; }
    state = cursor.moveTo(get("step"));
    const selected = get("selected"), only = onlyChanged(state.changed, selected);
    ds = only ? patchDisplayState(ds, display, state) : displayState(display, state); // what changed, or all
    legend.update(state.phase, get("direction") === "TB" ? "TB" : "LR");
    predict.show(index, state.step, !!get("predict"));
    graph.update(ds, { selected, added: passMarks && passMarks.added,
      unused: passMarks && new Set(passMarks.unused.map((id) => display.groupOf.get(id))),
      errorType: state.error ? state.error.type : "" }, only);
    camera.followStep(state.step, viewpoint(index, state, display));
    nav.update(index, ds, state, only);
    announcer.say(stepSentence(index, state, { hideGradients: !!get("predict") }), { playing: !!get("playing") });
    root.classList.toggle("ag-animate", !!get("animate"));
    root.dataset.phase = state.phase;
    const { min, max } = passRange(index, get("pass_index"));
    const sel = selectedScope(selected, index, display);
    controls.update({ step: state.step, total: state.total, min, max, playing: !!get("playing"),
      speed: get("speed"), direction: get("direction"), hideConstants: !!get("hide_constants"), predict: !!get("predict"),
      segments, passOptions: passes, passIndex: get("pass_index"),
      collapseText: sel && sel.open ? "expand" : "collapse", canCollapse: !!sel });
    strip.show(stripLine(index, state), get("source"));
    panel.show(index, state, { defer: !!get("playing"), live: !!get("live") });
    camera.aroundInspector(selected, ds.current, () => inspector.show(selected, index, state, display));
    root.title = passMarks ? passMarks.text : "";
  }

  // What this refresh must redraw: the step's changes and a selection that moved, or
  // everything after a layout, a jump or a change of pass marks.
  function onlyChanged(changed, selected) {
    const only = drawn && drawn.display === display && drawn.passMarks === passMarks ? displayChanges(display, changed) : null;
    if (only && selected !== drawn.selected) for (const id of [selected, drawn.selected]) if (id) only.nodes.add(id);
    drawn = { display, passMarks, selected };
    return only;
  }

  function toggleScope(id) {
    const sel = selectedScope(id, index, display);
    if (!sel) return;
    const change = scopeToggle(sel, get("collapsed"));
    if (change.expand) expanded.add(change.expand);
    if (change.close) expanded.delete(change.close);
    set(change.set);
    if (change.expand) relayout();
  }

  function act(action, value) {
    switch (action) {
      case "first": case "back": case "step": case "last": host.dispatch({ type: action }); break;
      case "play": host.dispatch({ type: "toggle" }); break;
      case "goto": host.dispatch({ type: "goto", step: value }); break;
      case "speed": set({ speed: value }); break;
      case "direction": set({ direction: get("direction") === "TB" ? "LR" : "TB" }); break;
      case "fit": camera.chooseFit(); break;
      case "collapse": toggleScope(get("selected")); break;
      case "constants": set({ hide_constants: !get("hide_constants") }); break;
      case "predict": set({ predict: !get("predict"), playing: false }); break;
      case "pass": {
        const { max } = passRange(host.getIndex(), value);
        set({ pass_index: value, step: max, selected: "", playing: false });
        break;
      }
      case "export-svg": graph.whole(() => exportSVG(graph.svg, layout, host.getIndex().doc.title)); break;
      case "export-png": graph.whole(() => exportPNG(graph.svg, layout, host.getIndex().doc.title)).catch(() => {}); break;
      default: break;
    }
  }

  function onKey(ev) {
    const action = keyAction(ev, ev.target && ev.target.tagName);
    if (!action) return;
    ev.preventDefault();
    ev.stopPropagation(); // keep JupyterLab's own shortcuts out of it
    act(action);
  }
  root.addEventListener("keydown", onKey);
  // the keymap's keys, and on a node the walk's (arrows, Enter, Escape)
  const stopGuard = guardShortcuts(root, (ev) => !!keyAction(ev, ev.target.tagName) || (!!ev.target.closest(".ag-node")
    && (!!walkWay(ev.key, "LR") || ev.key === "Enter" || ev.key === "Escape")));

  const handlers = [];
  for (const name of LAYOUT_TRAITS) handlers.push([`change:${name}`, relayout]);
  for (const name of VIEW_TRAITS) handlers.push([`change:${name}`, refresh]);
  for (const [name, fn] of handlers) model.on(name, fn);
  const stopListening = host.onDocumentChange(relayout);
  relayout();

  return () => {
    camera.destroy();
    for (const [name, fn] of handlers) model.off(name, fn);
    stopListening();
    root.removeEventListener("keydown", onKey);
    stopGuard();
    nav.destroy();
    announcer.destroy();
    graph.destroy();
    controls.destroy();
    panel.destroy();
    checks.destroy();
    root.remove();
  };
}
