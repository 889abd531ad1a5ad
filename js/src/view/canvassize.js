// The graph canvas's size, kept from a ResizeObserver. Read in the middle of a step (after
// its classes and the panel's text were written), clientWidth forces a synchronous layout
// of the whole page: at 1,000 nodes that was a quarter of a step's time in the profile.

/** ``get()`` is [clientWidth, clientHeight] as of the last layout (0 while the element has
 *  no box); ``stale()`` says a change the observer has not seen yet resized it (the inspector
 *  shown beside it), so the next read measures. */
export function createCanvasSize(el) {
  let width = 0, height = 0, known = false;
  const measure = () => { width = el.clientWidth; height = el.clientHeight; known = width > 0 && height > 0; };
  const observer = typeof ResizeObserver === "function" ? new ResizeObserver(measure) : null;
  if (observer) observer.observe(el);
  return {
    get() { if (!known || !observer) measure(); return [width, height]; },
    stale() { known = false; },
    destroy() { if (observer) observer.disconnect(); },
  };
}
