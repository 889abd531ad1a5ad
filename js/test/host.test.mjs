// host.js with the fake model the benchmark uses: the play timer, live mode's
// "advance" message, animate=false. Timers are node:test's mock timers, advanced by
// hand: exact tick counts, no waiting, nothing that a loaded machine can make flaky.
import { test, mock } from "node:test";
import assert from "node:assert/strict";
import { createHost } from "../src/app/host.js";
import { fakeModel, defaults } from "../bench/fake-model.mjs";
import { fixture } from "./helpers/fixtures.mjs";

mock.timers.enable({ apis: ["setTimeout"] });
// a millisecond at a time: a timer the host sets from inside a tick fires in the same elapse
const elapse = (ms) => { for (let t = 0; t < ms; t++) mock.timers.tick(1); };
const trace = fixture("e_labelled");

test("playing advances step with the timer and stops at the end", () => {
  const model = fakeModel({ ...defaults, trace, step: 18, speed: 50 });
  const host = createHost(model);
  host.dispatch({ type: "play" });
  assert.equal(model.get("playing"), true);
  elapse(20); // one tick at 50 events per second
  assert.equal(model.get("step"), 19);
  elapse(19);
  assert.equal(model.get("step"), 19, "not before the next 20 ms are up");
  elapse(400);
  assert.equal(model.get("step"), 22);
  assert.equal(model.get("playing"), false);
  host.destroy();
});

test("pausing stops the timer; destroy removes the listeners", () => {
  const model = fakeModel({ ...defaults, trace, step: 0, speed: 50 });
  const host = createHost(model);
  host.dispatch({ type: "toggle" });
  elapse(70);
  host.dispatch({ type: "toggle" });
  assert.equal(model.get("step"), 3);
  elapse(100);
  assert.equal(model.get("step"), 3);
  host.destroy();
  model.set("playing", true); // nobody listens any more
  elapse(60);
  assert.equal(model.get("step"), 3);
});

test("live mode: stepping past the last event during backward sends one advance", () => {
  const partial = { ...trace, events: trace.events.slice(0, 16) };
  const model = fakeModel({ ...defaults, trace: partial, step: 16, live: true });
  const host = createHost(model);
  host.dispatch({ type: "step" });
  host.dispatch({ type: "step" });
  assert.deepEqual(model.sent, [{ type: "advance" }], "one request until Python answers");
  model.set("trace", { ...trace, events: trace.events.slice(0, 17) });
  model.set("step", 17);
  host.dispatch({ type: "step" });
  assert.equal(model.sent.length, 2);
  host.destroy();
});

test("animate=false shows the final state when the trace is first read, and when a new one arrives", () => {
  const model = fakeModel({ ...defaults, trace, step: 0, animate: false });
  const host = createHost(model);
  // making the model reads nothing (the cell's output waits behind it): the first draw does
  assert.equal(model.get("step"), 0);
  host.getIndex();
  assert.equal(model.get("step"), 22);
  model.set("trace", fixture("error_matmul"));
  assert.equal(model.get("step"), 6);
  host.destroy();
});

test("a selected pass bounds the steps", () => {
  const doc = fixture("dynamic_passes"), p = doc.passes[1];
  const model = fakeModel({ ...defaults, trace: doc, step: p.first_event + 3, pass_index: 1 });
  const host = createHost(model);
  host.dispatch({ type: "first" });
  assert.equal(model.get("step"), p.first_event + 1, "|◀ lands on the pass's first event, not the last pass's end");
  host.dispatch({ type: "last" });
  assert.equal(model.get("step"), p.last_event + 1);
  model.set("pass_index", 0);
  assert.equal(model.get("step"), doc.passes[0].last_event + 1, "a step outside the new pass moves to its end");
  host.destroy();
});

test("two hosts on one model (two proxies) still play once", () => {
  const model = fakeModel({ ...defaults, trace, step: 0, speed: 20 });
  const a = createHost(model), b = createHost(model);
  a.dispatch({ type: "play" });
  elapse(230); // 4 ticks at 20/s; twice that if both timers ran
  a.dispatch({ type: "pause" });
  assert.equal(model.get("step"), 4);
  a.destroy(); b.destroy();
});
