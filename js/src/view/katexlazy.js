// KaTeX, made when the step panel first typesets a formula, not when the widget's module
// is imported. Its making (thousands of symbol and macro definitions) was 60-70 ms of the
// module's ~100 ms import in Chromium, paid by every widget shown (anywidget imports the
// module once per widget) before its cell's output could appear. The bundle has no code
// splitting, so `import()` only defers running KaTeX's module: it resolves a microtask
// later, and the formula is typeset before the frame is painted.

/** KaTeX once made, else null (a live binding: importers see it change). */
export let katex = null;
let making = null;

/** Run `then` once KaTeX is made (making it on the first call). */
export function whenKatex(then) {
  making ||= import("katex").then((module) => { katex = module.default; });
  making.then(then);
}

/** Make KaTeX a moment after a widget is shown (its first picture painted, its cell's output
 * long in the page), so that a step taken later typesets in its own task. */
export function makeKatexSoon() {
  // the next frame is the first picture's (the panel is made before the graph is laid out)
  if (!katex && !making) requestAnimationFrame(() => setTimeout(() => whenKatex(() => {}), 100));
}
