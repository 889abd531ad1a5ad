// Where the graph view looks: the camera policy over render.js's fit and reveal. The
// automatic view keeps labels readable (as stepping does) and follows the step (what to
// show comes from model/viewpoint.js); "fit" and f show everything (a graph too long for
// that: as much as keeps its boxes visible, framing.js FIT_FLOOR), and that view stays,
// through steps and clicks, until the learner zooms or pans themselves.
import { READABLE_SCALE } from "./render.js";
import { FIT_FLOOR } from "../model/framing.js";

/** ``look()`` gives viewpoint()'s answer for the step on screen (or null before a graph).
 *  With ``whole`` (a written page, read in a narrow column) the automatic fit shows the whole graph. */
export function createCamera(graph, canvas, look, { whole = false } = {}) {
  let shownStep = -1, shownSelected = "", sized = false, learnerFit = false, wide = false;

  /** The view for a new layout: the learner's fit if they chose one; a big graph waiting
   *  for its backward whole; else everything at a readable zoom, or centred on the
   *  current node when all can't show. */
  function autoFit() {
    if (learnerFit) { learnersFit(); return; }
    const view = look() || { kind: "none" };
    if (whole || view.kind === "whole") graph.fit();
    else graph.fit({ minScale: READABLE_SCALE, focus: view.kind === "node" ? view.id : null });
  }

  /** The learner asked to see everything ("fit", f). */
  function chooseFit() {
    learnerFit = true;
    learnersFit();
  }

  // Everything, or for a graph too long for that, as much as still shows its boxes as
  // shapes, around the current node (framing.js FIT_FLOOR).
  function learnersFit() {
    const view = look() || { kind: "none" };
    graph.fit({ minScale: FIT_FLOOR, focus: view.kind === "node" ? view.id : null });
  }

  /** The learner zoomed or panned: the automatic view takes over again at the next step. */
  function learnerMoved() {
    learnerFit = false;
  }

  /** Whenever the step changes (played, stepped by key, button, scrubber or from Python):
   *  the current node glides into view at a readable zoom, the end of a pass fits its
   *  answer, a big graph at its forward's end shows whole; under the learner's fit the
   *  view stays (everything is in it). Never when the learner only pans or selects. */
  function followStep(step, view) {
    if (step === shownStep) return;
    // Into and out of a wide view (an answer, the whole graph) the camera jumps: a glide's
    // frames there paint the whole graph each (seconds at 1,000 nodes and more). So does a
    // move of more than one event (the scrubber, Home, End): gliding across all that lies
    // between made each of its frames build the boxes it passed (a scrub of the collapsed
    // training step spent most of its frames there).
    const jump = shownStep < 0 || wide || Math.abs(step - shownStep) > 1;
    shownStep = step;
    wide = !learnerFit && (view.kind === "answer" || view.kind === "whole");
    if (learnerFit) {
      if (view.kind === "node") graph.reveal(view.id, { zoom: false, jump });
    } else if (view.kind === "node") graph.reveal(view.id, { jump });
    else if (view.kind === "answer") graph.fitNodes(view.ids, { jump: true });
    else if (view.kind === "whole") graph.fit();
  }

  /** The inspector folds away while nothing is selected, so ``showInspector()`` changes the
   *  canvas's width when the selection comes or goes: a graph seen whole stays whole (the
   *  learner's fit unmoved while it still fits); else the current node and then the node
   *  just clicked stay in view (the clicked one wins if both can't). */
  function aroundInspector(selected, current, showInspector) {
    const resized = !selected !== !shownSelected;
    const whole = resized && graph.wholeInView();
    showInspector();
    if (resized) graph.resized();
    if (resized && learnerFit) { if (!graph.wholeInView()) learnersFit(); }
    else if (whole) autoFit();
    else if (resized && current) graph.reveal(current, { zoom: false });
    if (selected && !shownSelected) graph.reveal(selected, { zoom: false });
    shownSelected = selected;
  }

  // The first fit happens before the element has a size when the output area is still
  // hidden: fit again on the next frame, and the first time the canvas gets a size.
  const raf = requestAnimationFrame(autoFit);
  const resize = typeof ResizeObserver === "function" ? new ResizeObserver((entries) => {
    const box = entries[entries.length - 1].contentRect;
    if (!sized && box.width > 0 && box.height > 0) { sized = true; autoFit(); }
  }) : null;
  if (resize) resize.observe(canvas);

  return {
    autoFit, chooseFit, learnerMoved, followStep, aroundInspector,
    destroy() { cancelAnimationFrame(raf); if (resize) resize.disconnect(); },
  };
}
