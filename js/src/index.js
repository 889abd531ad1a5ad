// anywidget entry: wires the synced model to the view. Kept thin on purpose: the
// timeline, layout, collapse and formatting logic live in pure modules (tested in
// Node); app.js assembles one view, host.js holds per-model state (the play timer).
import { createHost } from "./host.js";
import { mountWidget } from "./app.js";

const hosts = new WeakMap();

function initialize({ model }) {
  const host = createHost(model);
  hosts.set(model, host);
  return () => { host.destroy(); hosts.delete(model); };
}

function render({ model, el }) {
  // A front end that skips initialize() still works: this view then owns a host.
  let own = null;
  let host = hosts.get(model);
  if (!host) { own = createHost(model); host = own; }
  const unmount = mountWidget(model, el, host);
  return () => { unmount(); if (own) own.destroy(); };
}

export default { initialize, render };
