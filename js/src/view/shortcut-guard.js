// Keeps the widget's own keys from the notebook's shortcuts. Notebook 7 runs its keyboard
// shortcuts while a keydown is still on its way down (capture on the document), before
// any listener in the widget, and it binds the arrow keys: → never stepped there, and
// arrows could not walk the graph. Lumino matches a shortcut's selector from the target
// up and stops at an element marked data-lm-suppress-shortcuts, so the target itself is
// marked, for the one event, just before the document sees it (capture on the window),
// and only for keys the widget will use; Shift+Enter and the rest stay the notebook's.
const MARK = "data-lm-suppress-shortcuts";

/** ours(event): whether the widget handles this keydown. Returns a function that stops it. */
export function guardShortcuts(root, ours) {
  function onKey(ev) {
    if (!(ev.target instanceof Node) || !root.contains(ev.target) || !ours(ev)) return;
    const target = ev.target instanceof Element ? ev.target : root;
    if (target.hasAttribute(MARK)) return;
    target.setAttribute(MARK, "true");
    setTimeout(() => target.removeAttribute(MARK), 0);
  }
  window.addEventListener("keydown", onKey, true);
  return () => window.removeEventListener("keydown", onKey, true);
}
