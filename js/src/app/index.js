// anywidget entry: wires the synced model to the view. Kept thin on purpose: the
// timeline, layout, collapse and formatting logic live in pure modules (tested in
// Node); app.js assembles one view, host.js holds per-model state (the play timer).
//
// The default export is a factory: anywidget calls it once per model, so the
// host made in initialize() is shared by every view of that model through this
// closure. (anywidget hands initialize() and render() different proxy objects
// for the same model, so a WeakMap keyed on them would not match.)
import { createHost } from "./host.js";
import { mountWidget } from "./app.js";

export default function widget() {
  let shared = null;
  return {
    initialize({ model }) {
      shared = createHost(model);
      return () => { shared.destroy(); shared = null; };
    },
    render({ model, el }) {
      // The host must be this model's: both proxies read the same trace object.
      // A front end that skipped initialize() gets a host owned by this view.
      const ok = shared && shared.model.get("trace") === model.get("trace");
      const own = ok ? null : createHost(model);
      const unmount = mountWidget(model, el, own || shared);
      return () => { unmount(); if (own) own.destroy(); };
    },
  };
}
