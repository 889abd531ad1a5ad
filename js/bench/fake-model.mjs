// A stand-in for anywidget's model in a plain page: get/set/on/off/save_changes/
// send, with change events fired synchronously on set (as Backbone does).
export function fakeModel(initial) {
  const values = { ...initial }, listeners = new Map(), sent = [];
  return {
    sent,
    get: (k) => values[k],
    set(k, v) {
      if (values[k] === v) return;
      values[k] = v;
      for (const fn of [...(listeners.get(`change:${k}`) || [])]) fn();
    },
    on(name, fn) { (listeners.get(name) || listeners.set(name, []).get(name)).push(fn); },
    off(name, fn) { const l = listeners.get(name) || []; const i = l.indexOf(fn); if (i >= 0) l.splice(i, 1); },
    save_changes() {},
    send(msg) { sent.push(msg); },
  };
}

export const defaults = { step: 0, playing: false, speed: 4, direction: "LR", selected: "", collapsed: [],
  hide_constants: false, pass_index: -1, max_nodes: 0, live: false, source: "", animate: true };
