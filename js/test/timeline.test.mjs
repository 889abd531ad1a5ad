import { test } from "node:test";
import assert from "node:assert/strict";
import { indexTrace, stateAt, player, tickDelay, phaseSegments, passRange, canAdvance, tensorRole, eventNode, forwardEnds } from "../src/model/timeline.js";
import { fixture, allFixtures } from "./helpers/fixtures.mjs";

const simple = indexTrace(fixture("e_labelled"));
const id = (label) => [...simple.nodes.values()].find((n) => n.label === label).id;

test("step 0 shows nothing; the final step shows every node", () => {
  const s0 = stateAt(simple, 0);
  assert.equal(s0.visible.size, 0);
  assert.equal(s0.phase, "start");
  assert.equal(s0.current, null);
  const end = stateAt(simple, simple.events.length);
  assert.equal(end.visible.size, simple.nodes.size);
  assert.equal(end.phase, "done");
});

test("forward events add nodes in creation order and make each current", () => {
  for (let k = 1; k <= 12; k++) {
    const s = stateAt(simple, k);
    assert.equal(s.visible.size, k);
    assert.equal(s.phase, "forward");
    assert.equal(s.current, simple.events[k - 1].node);
  }
});

test("backward steps light edges in reverse and leaves get their grads", () => {
  const n = simple.events.length;
  const firstStep = simple.events.findIndex((e) => e.type === "backward_step");
  const s = stateAt(simple, firstStep + 1);
  assert.equal(s.phase, "backward");
  assert.equal(s.current, simple.events[firstStep].node);
  assert.ok(s.active.size >= 2, "output edge and input edges are active");
  assert.ok([...s.active.values()].some((a) => a.dir === "in"));
  const end = stateAt(simple, n);
  assert.deepEqual(end.grads.get(id("a")).values, [-3]);
  assert.deepEqual(end.grads.get(id("b")).values, [2]);
  assert.equal(end.lit.size, simple.edges.length);
  assert.equal(end.active.size, 0, "backward_end has no active edges");
});

test("a leaf's badge appears only at its accumulate event", () => {
  const a = id("a");
  const at = simple.events.findIndex((e) => e.type === "accumulate" && e.node === a);
  assert.equal(stateAt(simple, at).grads.has(a), false);
  assert.equal(stateAt(simple, at + 1).grads.has(a), true);
  assert.equal(stateAt(simple, at + 1).current, a);
});

test("error event marks the failing op with its message", () => {
  const idx = indexTrace(fixture("error_matmul"));
  const s = stateAt(idx, idx.events.length);
  assert.equal(s.phase, "error");
  assert.match(s.error.message, /cannot be multiplied/);
  assert.equal(idx.nodes.get(s.error.node).origin, "error");
});

test("NaN/inf gradients are marked at the step where they appear", () => {
  const idx = indexTrace(fixture("nan_sqrt"));
  const at = idx.events.findIndex((e) => e.nonfinite_origin);
  assert.ok(at > 0);
  assert.equal(stateAt(idx, at).nonfinite.size, 0);
  const s = stateAt(idx, at + 1);
  assert.equal(s.nonfinite.get(idx.events[at].node), "grad");
});

test("roles: leaves, output, intermediates", () => {
  assert.equal(tensorRole(simple, simple.nodes.get(id("a"))), "leaf");
  assert.equal(tensorRole(simple, simple.nodes.get(id("e"))), "output");
  assert.equal(tensorRole(simple, simple.nodes.get("t4")), "intermediate");
  const big = indexTrace(fixture("large_matmul"));
  assert.ok([...big.nodes.values()].some((n) => tensorRole(big, n) === "constant"));
});

test("player reducer: first, back, step, last, play to the end, bounds", () => {
  let s = { step: 0, min: 0, max: 3, playing: false, live: false, canAdvance: false };
  s = player(s, { type: "step" }); assert.equal(s.step, 1);
  s = player(s, { type: "back" }); s = player(s, { type: "back" }); assert.equal(s.step, 0);
  s = player(s, { type: "last" }); assert.equal(s.step, 3);
  s = player(s, { type: "play" }); assert.equal(s.step, 0, "play at the end restarts"); assert.ok(s.playing);
  s = player(s, { type: "tick" }); s = player(s, { type: "tick" }); assert.ok(s.playing);
  s = player(s, { type: "tick" }); assert.equal(s.step, 3); assert.equal(s.playing, false, "stops at the end");
  s = player(s, { type: "tick" }); assert.equal(s.step, 3);
  s = player(s, { type: "goto", step: 99 }); assert.equal(s.step, 3);
  s = player(s, { type: "bounds", min: 1, max: 2 }); assert.equal(s.step, 2);
  s = player(s, { type: "first" }); assert.equal(s.step, 1);
  s = player(s, { type: "toggle" }); assert.ok(s.playing);
  s = player(s, { type: "toggle" }); assert.equal(s.playing, false);
});

test("playing pauses where a backward pass begins, and ▶ there plays the backward", () => {
  const idx = indexTrace(fixture("dynamic_passes"));
  const pauses = forwardEnds(idx);
  assert.deepEqual(pauses, idx.events.flatMap((e, i) => (e.type === "backward_begin" ? [i] : [])));
  assert.ok(pauses.length > 1, "one pause per pass");
  let s = { step: 0, min: 0, max: idx.events.length, playing: true, live: false, canAdvance: false, pauses };
  while (s.playing) s = player(s, { type: "tick" });
  assert.equal(s.step, pauses[0], "the first forward is built and the backward waits");
  s = player(s, { type: "play" });
  while (s.playing) s = player(s, { type: "tick" });
  assert.equal(s.step, pauses[1], "the next pass's forward, then it waits again");
  s = player(s, { type: "step" });
  assert.equal(s.step, pauses[1] + 1, "→ steps into the backward");
});

test("live mode: stepping past the last event asks for more", () => {
  let s = { step: 3, min: 0, max: 3, playing: false, live: true, canAdvance: true };
  s = player(s, { type: "step" });
  assert.equal(s.advance, true);
  assert.equal(s.step, 3, "Python bumps the step, not the view");
  s = player({ ...s, canAdvance: false }, { type: "step" });
  assert.equal(s.advance, false);
  const partial = indexTrace({ ...fixture("e_labelled"), events: fixture("e_labelled").events.slice(0, 15) });
  assert.equal(canAdvance(partial), true);
  assert.equal(canAdvance(simple), false);
});

test("tick delay follows the speed, clamped", () => {
  assert.equal(tickDelay(4), 250);
  assert.equal(tickDelay(0), 250, "nonsense falls back to the default");
  assert.equal(tickDelay(1000), Math.round(1000 / 60));
});

test("scrubber segments cover every event and mark phases and passes", () => {
  for (const { name, doc } of allFixtures()) {
    const idx = indexTrace(doc);
    const segs = phaseSegments(idx);
    const covered = segs.reduce((n, s) => n + s.to - s.from, 0);
    assert.equal(covered, idx.events.length, name);
  }
  const passes = indexTrace(fixture("dynamic_passes"));
  const segs = phaseSegments(passes);
  assert.deepEqual(segs.map((s) => s.phase), ["forward", "backward", "forward", "backward", "forward", "backward"]);
  assert.deepEqual(passRange(passes, 1), { min: passes.passes[1].first_event + 1, max: passes.passes[1].last_event + 1 });
  assert.deepEqual(passRange(passes, -1), { min: 0, max: passes.events.length });
});

test("every fixture replays without throwing, and unknown events are skipped", () => {
  for (const { name, doc } of allFixtures()) {
    const idx = indexTrace(doc);
    for (let k = 0; k <= idx.events.length; k++) assert.ok(stateAt(idx, k), name);
  }
  const odd = indexTrace({ ...fixture("e_labelled"), events: [{ type: "from_the_future" }] });
  assert.equal(stateAt(odd, 1).phase, "start");
  assert.equal(eventNode({ type: "backward_begin", roots: ["t7"] }), "t7");
  assert.equal(indexTrace(null).nodes.size, 0);
  const bare = indexTrace({ nodes: [{ id: "n1", label: "hello" }] });
  assert.deepEqual([...stateAt(bare, 0).visible], ["n1"], "no create event: shown from the start");
});

test("live mode: a document that ends with its forward pass can advance (the kernel has not begun)", () => {
  const doc = fixture("e_labelled");
  const forward = { ...doc, events: doc.events.filter((e) => e.type === "create") };
  assert.equal(canAdvance(indexTrace(forward)), true);
  assert.equal(canAdvance(indexTrace(doc)), false, "after backward_end there is nothing more");
  const base = { step: 12, min: 0, max: 12, playing: false, live: true, canAdvance: true };
  assert.equal(player(base, { type: "step" }).advance, true);
  assert.equal(player(base, { type: "last" }).advance, "all", "▶| runs the rest of the real backward");
  assert.equal(player({ ...base, canAdvance: false }, { type: "last" }).advance, false);
  assert.equal(player(base, { type: "play" }).step, 12, "play from the end keeps going in the kernel");
});

test("each pass shows its own gradients; grad None at the end of a pass clears a badge", () => {
  const idx = indexTrace(fixture("dynamic_passes"));
  for (const p of idx.passes) {
    const end = stateAt(idx, p.last_event + 1);
    for (const id of end.grads.keys()) {
      assert.ok(!(p.grad_none || []).includes(id), `pass ${p.index}: ${id} is None, yet has a badge`);
    }
    const mine = new Set(idx.events.slice(p.first_event, p.last_event + 1)
      .filter((e) => e.type === "accumulate").map((e) => e.node));
    assert.deepEqual([...end.grads.keys()].sort(), [...mine].sort(), `pass ${p.index}`);
  }
});

test("after backward, a branch the loss does not depend on is dead; the rest is not", () => {
  const doc = {
    nodes: [
      { id: "t0", kind: "tensor", requires_grad: true, is_leaf: true },
      { id: "op0", kind: "op", op: "MulBackward0" }, { id: "t1", kind: "tensor", requires_grad: true },
      { id: "op1", kind: "op", op: "ExpBackward0" }, { id: "t2", kind: "tensor", requires_grad: true },
    ],
    edges: [{ src: "t0", dst: "op0", arg: 0 }, { src: "op0", dst: "t1", arg: 0 },
      { src: "t0", dst: "op1", arg: 0 }, { src: "op1", dst: "t2", arg: 0 }],
    events: [
      { type: "create", node: "t0" }, { type: "create", node: "op0" }, { type: "create", node: "t1" },
      { type: "create", node: "op1" }, { type: "create", node: "t2" },  // t2 = exp(t0): never used
      { type: "backward_begin", roots: ["t1"] },
      { type: "backward_step", node: "op0", grad_output: { shape: [], values: [1] },
        grad_inputs: [{ arg: 0, node: "t0", grad: { shape: [], values: [2] } }] },
      { type: "accumulate", node: "t0", grad: { shape: [], values: [2] } },
      { type: "backward_end", completed: true, grad_none: [] },
    ],
  };
  const idx = indexTrace(doc);
  assert.deepEqual([...stateAt(idx, 8).dead], [], "nothing is dead before the backward ends");
  assert.deepEqual([...stateAt(idx, 9).dead].sort(), ["op1", "t2"]);
});
