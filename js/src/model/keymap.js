// The widget's keyboard shortcuts, while it has focus. Pure: the app listens for keys
// and runs the action this names.

/** key -> the toolbar action it runs. */
export const KEYMAP = Object.freeze({ ArrowLeft: "back", ArrowRight: "step", " ": "play", Home: "first", End: "last",
  f: "fit" });

const TYPING = new Set(["INPUT", "SELECT", "TEXTAREA"]);

/** The action for a keydown (``{key, altKey, ctrlKey, metaKey}`` and the tag name of its
 *  target), or null: none while typing in a field or with a modifier (those are the
 *  notebook's), and space on a focused button is the button's own. */
export function keyAction(event, targetTag) {
  if (TYPING.has(targetTag) || event.altKey || event.ctrlKey || event.metaKey) return null;
  const action = KEYMAP[event.key];
  if (!action || (event.key === " " && targetTag === "BUTTON")) return null;
  return action;
}
