import { test } from "node:test";
import assert from "node:assert/strict";
import { displayGraph, displayState, prefixes, scopeCounts, SCOPE_PREFIX } from "../src/model/collapse.js";
import { indexTrace, stateAt } from "../src/model/timeline.js";
import { comparePasses, passNodes, passOptions } from "../src/model/passes.js";
import { fixture } from "./helpers/fixtures.mjs";
import { synthTrace } from "./helpers/synth.mjs";

test("scope prefixes", () => {
  assert.deepEqual(prefixes("model.fc1.act"), ["model", "model.fc1", "model.fc1.act"]);
  assert.deepEqual(prefixes(undefined), []);
  // made once per scope and shared by every caller: frozen, so no caller can change another's
  const again = prefixes("model.fc1.act");
  assert.equal(again, prefixes("model.fc1.act"));
  assert.ok(Object.isFrozen(again) && Object.isFrozen(prefixes("")));
  assert.throws(() => again.push("x"), TypeError);
  assert.deepEqual(prefixes("model.fc1"), ["model", "model.fc1"]);
});

test("nothing collapsed: one display node per trace node, same edges", () => {
  const idx = indexTrace(fixture("e_labelled"));
  const d = displayGraph(idx);
  assert.equal(d.nodes.length, idx.nodes.size);
  assert.equal(d.edges.length, idx.edges.length);
  assert.equal(d.nodes.find((n) => n.id === "t0").text, "a", "a scalar shows no empty shape");
  assert.equal(d.nodes.find((n) => n.id === "t0").role, "leaf");
});

test("collapsing a scope makes one box; inner edges vanish, crossing ones re-aim", () => {
  const idx = indexTrace(fixture("mlp_scopes"));
  const inFc1 = [...idx.nodes.values()].filter((n) => n.scope === "MLP.fc1").length;
  assert.ok(inFc1 > 1);
  const d = displayGraph(idx, { collapsed: ["MLP.fc1"] });
  const box = d.nodes.find((n) => n.id === SCOPE_PREFIX + "MLP.fc1");
  assert.equal(box.kind, "scope");
  assert.equal(box.members.length, inFc1);
  assert.equal(box.text, `MLP.fc1  (${inFc1})`);
  assert.equal(d.nodes.length, idx.nodes.size - inFc1 + 1);
  for (const e of d.edges) assert.notEqual(e.src, e.dst);
  assert.ok(d.edges.some((e) => e.dst === box.id) && d.edges.some((e) => e.src === box.id));
  const s = displayState(d, stateAt(idx, idx.events.length));
  assert.ok(s.visible.has(box.id));
  assert.equal(s.lit.size, d.edges.length);
});

test("the current node inside a box makes the box current", () => {
  const idx = indexTrace(fixture("mlp_scopes"));
  const d = displayGraph(idx, { collapsed: ["MLP.fc2"] });
  const k = idx.events.findIndex((e) => idx.nodes.get(e.node)?.scope === "MLP.fc2");
  assert.equal(displayState(d, stateAt(idx, k + 1)).current, SCOPE_PREFIX + "MLP.fc2");
});

test("hide constants drops tensors that need no grad", () => {
  const idx = indexTrace(fixture("mlp_scopes"));
  const consts = [...idx.nodes.values()].filter((n) => n.kind === "tensor" && !n.requires_grad).length;
  assert.ok(consts > 0);
  assert.equal(displayGraph(idx, { hideConstants: true }).nodes.length, idx.nodes.size - consts);
});

test("max_nodes collapses the deepest scopes that bring the count under the limit", () => {
  const idx = indexTrace(synthTrace({ blocks: 30 }));
  assert.ok(idx.nodes.size > 500);
  const d = displayGraph(idx, { maxNodes: 200 });
  assert.ok(d.nodes.length <= 200, `${d.nodes.length}`);
  assert.ok(d.collapsed.length > 0);
  assert.ok(d.collapsed.every((s) => s.split(".").length === 3), "block level: model.blocks.N");
  const tight = displayGraph(idx, { maxNodes: 10 });
  assert.deepEqual(tight.collapsed, ["model.blocks"], "the deepest depth that fits");
  assert.deepEqual(displayGraph(idx, { maxNodes: 1 }).collapsed, ["model"], "nothing fits: top-level modules");
  const open = displayGraph(idx, { maxNodes: 200, expanded: ["model.blocks.0"] });
  assert.ok(!open.collapsed.includes("model.blocks.0"));
  assert.equal(displayGraph(idx, { maxNodes: 0 }).nodes.length, idx.nodes.size);
  assert.ok(scopeCounts(idx).get("model") > 500);
});

test("a pass shows its own nodes plus the shared parameters it used", () => {
  const idx = indexTrace(fixture("dynamic_passes"));
  assert.equal(idx.passes.length, 3);
  const ids = passNodes(idx, 1);
  for (const p of idx.passes[1].params_used) assert.ok(ids.has(p));
  const d = displayGraph(idx, { passIndex: 1 });
  assert.equal(d.nodes.length, ids.size);
  assert.ok(d.nodes.length < idx.nodes.size);
});

test("comparing passes marks the ops one pass ran and the other did not, and unused params", () => {
  const idx = indexTrace(fixture("dynamic_passes"));
  const c0 = comparePasses(idx, 0);
  assert.equal(c0.against, 1);
  assert.deepEqual(c0.unused, idx.passes[0].params_unused);
  assert.deepEqual(c0.unused.map((id) => idx.nodes.get(id).label), ["mid.weight", "mid.bias"]);
  assert.match(c0.text, /unused: mid\.weight, mid\.bias/);
  assert.equal(c0.added.size, 0, "pass 0 runs a subset of pass 1");
  assert.ok(c0.missing > 0);
  const c2 = comparePasses(idx, 2);
  assert.equal(c2.against, 1);
  assert.ok(c2.added.size > 0, "pass 2 runs mid twice");
  for (const id of c2.added) assert.equal(idx.nodePass.get(id), 2);
  assert.match(c2.text, /not in pass 1/);
  assert.equal(comparePasses(indexTrace(fixture("e_labelled")), 0).against, null);
  assert.deepEqual(passOptions(idx).map((o) => o.value), [-1, 0, 1, 2]);
});
