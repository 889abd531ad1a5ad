// The in-page model a written page drives the widget with (no kernel): the
// anywidget model interface, and the host/timeline running on it unchanged.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createPageModel, pageValues, VIEW_DEFAULTS } from "../src/app/page-model.js";
import { createHost } from "../src/app/host.js";
import { fixture } from "./helpers/fixtures.mjs";

const trace = fixture("e_labelled");

test("set fires change:NAME and change once per real change; off removes one listener", () => {
  const model = createPageModel({ step: 0 });
  const seen = [];
  const onStep = () => seen.push(`step=${model.get("step")}`);
  model.on("change:step", onStep);
  model.on("change", () => seen.push("change"));
  model.set("step", 3);
  model.set("step", 3); // unchanged: no event
  assert.deepEqual(seen, ["step=3", "change"]);
  model.off("change:step", onStep);
  model.set("step", 4);
  assert.deepEqual(seen, ["step=3", "change", "change"]);
  model.save_changes(); // nothing to sync: must not throw
});

test("send goes to onSend (a page has no kernel to answer)", () => {
  const sent = [];
  const model = createPageModel({}, { onSend: (m) => sent.push(m) });
  model.send({ type: "advance" });
  assert.deepEqual(sent, [{ type: "advance" }]);
  createPageModel({}).send({ type: "advance" }); // no handler: ignored
});

test("pageValues fills defaults, keeps the view and never starts live", () => {
  const values = pageValues({ trace, view: { step: 5, direction: "TB", live: true, bogus: 1 } });
  assert.equal(values.step, 5);
  assert.equal(values.direction, "TB");
  assert.equal(values.live, false);
  assert.equal(values.trace, trace);
  assert.equal("bogus" in values, false);
  assert.equal(values.speed, VIEW_DEFAULTS.speed);
  assert.throws(() => pageValues({ view: {} }), /not a trace document/);
});

test("the host steps and plays on the page model as on anywidget's", async () => {
  const model = createPageModel(pageValues({ trace, view: { step: 0, speed: 50 } }));
  const host = createHost(model);
  host.dispatch({ type: "last" });
  assert.equal(model.get("step"), trace.events.length);
  host.dispatch({ type: "first" });
  host.dispatch({ type: "step" });
  assert.equal(model.get("step"), 1);
  host.dispatch({ type: "toggle" });
  await new Promise((r) => setTimeout(r, 700));
  const built = trace.events.findIndex((e) => e.type === "backward_begin");
  assert.equal(model.get("step"), built, "playing pauses where the backward begins");
  assert.equal(model.get("playing"), false);
  host.dispatch({ type: "toggle" });
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(model.get("step"), trace.events.length, "▶ again plays the backward to the end");
  assert.equal(model.get("playing"), false);
  host.destroy();
});
