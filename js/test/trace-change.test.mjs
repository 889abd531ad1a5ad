// Live mode's document changes (model/trace-change.js) and the host applying them: a step
// of the real backward arrives as a message, and the trace trait is not sent again.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyChange } from "../src/model/trace-change.js";
import { createHost } from "../src/app/host.js";
import { fakeModel, defaults } from "../bench/fake-model.mjs";
import { fixture } from "./helpers/fixtures.mjs";

test("a change sets entries by index, appends, replaces values and removes keys, leaving the old document", () => {
  const old = { title: "t", nodes: [{ id: "a" }, { id: "b" }], events: [1, 2], gone: 1 };
  const change = { lists: { nodes: { length: 2, set: { 1: { id: "b", x: 1 } }, append: [] },
    events: { length: 2, set: {}, append: [3] } }, values: { passes: [0] }, removed: ["gone"] };
  const next = applyChange(old, change);
  assert.deepEqual(next, { title: "t", nodes: [{ id: "a" }, { id: "b", x: 1 }], events: [1, 2, 3], passes: [0] });
  assert.deepEqual(old.events, [1, 2]);
  assert.equal(old.gone, 1);
  assert.equal(applyChange(old, { lists: { events: { length: 5, set: {}, append: [] } } }), null);
});

/** The fake model, with the host's message handler caught so the test can deliver Python's messages. */
function withMessages(initial) {
  const model = fakeModel(initial);
  const on = model.on.bind(model);
  model.on = (name, fn) => { if (name === "msg:custom") model.deliver = fn; on(name, fn); };
  return model;
}

test("the host applies a live step's change: the index grows, views hear of it, the trait stays", () => {
  const trace = fixture("e_labelled");
  const forward = trace.events.findIndex((e) => e.type === "backward_begin");
  const start = { ...trace, events: trace.events.slice(0, forward) };
  const model = withMessages({ ...defaults, trace: start, live: true, step: forward });
  const host = createHost(model);
  let heard = 0;
  const stop = host.onDocumentChange(() => { heard += 1; });
  assert.equal(host.getIndex().events.length, forward);
  model.deliver({ type: "trace_change", lists: { events: { length: forward, set: {}, append: trace.events.slice(forward) } } });
  assert.equal(host.getIndex().events.length, trace.events.length);
  assert.equal(heard, 1);
  assert.equal(model.get("trace"), start, "the trait is Python's to change");
  model.deliver({ type: "trace_change", lists: { events: { length: 3, set: {}, append: [] } } });
  assert.equal(host.getIndex().events.length, trace.events.length, "a change for another document is refused");
  model.deliver({ type: "advance" });
  assert.equal(heard, 1);
  model.set("trace", trace);
  assert.equal(host.getIndex().doc, trace, "a new trace trait starts again from it");
  stop();
  host.destroy();
});
