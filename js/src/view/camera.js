// Where the graph view looks: the camera policy over render.js's fit and reveal. The
// automatic view keeps labels readable (as stepping does); "fit" and f show everything.
import { READABLE_SCALE } from "./render.js";

/** ``focus()`` gives the display node of the current event (or null). With ``whole``
 *  (a written page, read in a narrow column) the automatic fit shows the whole graph. */
export function createCamera(graph, canvas, focus, { whole = false } = {}) {
  let shownStep = -1, shownSelected = "", sized = false;

  /** Everything at a readable zoom, or centred on the current node when all can't show. */
  function autoFit() {
    graph.fit({ minScale: whole ? 0 : READABLE_SCALE, focus: focus() });
  }

  /** Whenever the step changes (played, stepped by key, button, scrubber or from Python),
   *  the current node glides into view at a readable zoom; never when the learner only
   *  pans or selects. */
  function followStep(step, current) {
    if (current && step !== shownStep) graph.reveal(current, { jump: shownStep < 0 });
    shownStep = step;
  }

  /** The inspector folds away while nothing is selected, so ``showInspector()`` changes the
   *  canvas's width when the selection comes or goes: a graph seen whole stays whole; else
   *  the current node and then the node just clicked stay in view (the clicked one wins if
   *  both can't). */
  function aroundInspector(selected, current, showInspector) {
    const resized = !selected !== !shownSelected;
    const whole = resized && graph.wholeInView();
    showInspector();
    if (whole) autoFit();
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
    autoFit, followStep, aroundInspector,
    destroy() { cancelAnimationFrame(raf); if (resize) resize.disconnect(); },
  };
}
