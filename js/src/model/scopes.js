// Which module scope the collapse/expand button (and a double click) acts on, and what
// toggling it changes. Pure: no DOM; the app applies the change to the model.
import { prefixes, SCOPE_PREFIX } from "./collapse.js";

/** The scope a collapse/expand acts on for the selected id: a module box (to open), or the
 *  innermost module of a selected node (to close); null when there is none. */
export function selectedScope(id, index, display) {
  if (!id || !display) return null;
  if (id.startsWith(SCOPE_PREFIX)) return { scope: id.slice(SCOPE_PREFIX.length), open: true };
  const node = index.nodes.get(id);
  const scopes = node ? prefixes(node.scope) : [];
  return scopes.length ? { scope: scopes[scopes.length - 1], open: false } : null;
}

/** What toggling ``sel`` changes: the traits to set, and a scope to open that the
 *  learner's `collapsed` list does not hold (one max_nodes closed: ``expand``). Closing a
 *  module closes its submodules with it and selects its box. */
export function toggleScope(sel, collapsed) {
  if (sel.open) {
    if (collapsed.includes(sel.scope)) return { set: { collapsed: collapsed.filter((s) => s !== sel.scope), selected: "" } };
    return { set: { selected: "" }, expand: sel.scope };
  }
  return { set: { collapsed: [...collapsed.filter((s) => !s.startsWith(`${sel.scope}.`)), sel.scope],
    selected: SCOPE_PREFIX + sel.scope }, close: sel.scope };
}
