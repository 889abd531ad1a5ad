// The anywidget model interface (get, set, on, off, save_changes, send) backed by
// plain data, so a page with no kernel drives the same render code as a notebook.
// Pure: no DOM, tested in Node. Change events fire synchronously on set, as
// Backbone's do in a notebook; a listener added during an event waits for the next.

import { PAGE_TRAITS, TRAIT_DEFAULTS } from "../model/contract.js";

/**
 * @param {object} initial  trait values (the trace document and the view state)
 * @param {{onSend?: (msg: object) => void}} [options]  where custom messages go
 *   (a page has no kernel: live mode's `advance` request lands here)
 */
export function createPageModel(initial, { onSend = undefined } = {}) {
  /** @type {Record<string, any>} */
  const values = { ...initial };
  const listeners = new Map();

  function emit(name) {
    for (const fn of [...(listeners.get(name) || [])]) fn();
  }

  return {
    get: (name) => values[name],
    set(name, value) {
      if (Object.is(values[name], value)) return;
      values[name] = value;
      emit(`change:${name}`);
      emit("change");
    },
    on(name, fn) {
      for (const one of String(name).split(/\s+/).filter(Boolean)) {
        if (!listeners.has(one)) listeners.set(one, []);
        listeners.get(one).push(fn);
      }
    },
    off(name, fn) {
      if (!name) { listeners.clear(); return; }
      const list = listeners.get(name) || [];
      const at = fn ? list.indexOf(fn) : -1;
      if (!fn) listeners.delete(name);
      else if (at >= 0) list.splice(at, 1);
    },
    save_changes() {}, // nothing to sync with: the page is the only copy
    send(msg) { if (onSend) onSend(msg); },
    kernel: false, // no kernel answers here: checks re-run the graph in the page (checkpanel.js)
    /** The current values (what a page would save; used by tests). */
    snapshot: () => ({ ...values }),
  };
}

/** The view traits a page starts from: the widget's, with the contract's defaults for
 * any it lacks. */
export const VIEW_DEFAULTS = Object.freeze({
  ...Object.fromEntries(PAGE_TRAITS.map((name) => [name, TRAIT_DEFAULTS[name]])), live: false,
});

/**
 * The model's initial values from a page's state ({trace, view, note}). A page
 * never steps live: the recorded steps are all it has.
 */
export function pageValues(state) {
  if (!state || typeof state !== "object" || !state.trace || !Array.isArray(state.trace.events)) {
    throw new Error("ag_jupyter page: the graph's data is missing or is not a trace document");
  }
  const view = state.view && typeof state.view === "object" ? state.view : {};
  /** @type {Record<string, any>} */
  const values = { ...VIEW_DEFAULTS };
  for (const key of Object.keys(VIEW_DEFAULTS)) if (key in view) values[key] = view[key];
  values.live = false;
  values.trace = state.trace;
  return values;
}
