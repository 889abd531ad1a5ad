import { test } from "node:test";
import assert from "node:assert/strict";
import { nodeLabel, graphLabel, stepSentence, spoken, opWord } from "../src/model/describe.js";
import { indexTrace, stateAt } from "../src/model/timeline.js";
import { displayGraph, displayState } from "../src/model/collapse.js";
import { fixture } from "./helpers/fixtures.mjs";

const readme = () => {
  const doc = fixture("e_labelled"), index = indexTrace(doc), display = displayGraph(index);
  const id = (x) => doc.nodes.find((n) => n.expr === x || n.label === x).id;
  const producer = (x) => index.producer.get(id(x));
  const at = (step) => { const state = stateAt(index, step); return { state, ds: displayState(display, state) }; };
  const label = (nodeId, step) => nodeLabel(index, display.nodes.find((d) => d.id === nodeId), at(step).ds);
  return { doc, index, display, id, producer, at, label };
};

test("a leaf is named by what its box says: name, role, value, gradient once it arrived", () => {
  const g = readme();
  assert.equal(g.label(g.id("a"), 1), "a, leaf, value 2, gradient not computed yet, current step");
  const total = g.index.events.length;
  assert.equal(g.label(g.id("a"), total), "a, leaf, value 2, gradient −3");
  assert.equal(g.label(g.id("b"), total), "b, leaf, value −3, gradient 2");
});

test("an op says what it does to which inputs and what it gives", () => {
  const g = readme();
  const total = g.index.events.length;
  assert.equal(g.label(g.producer("a*b"), total), "multiply, a times b, gives a*b = −6");
  assert.equal(g.label(g.producer("log(d)"), total), "logarithm of d, gives log(d) = 1.386");
  assert.equal(opWord({ op: "FooBackward0" }), "Foo", "an op without a word keeps PyTorch's name");
});

test("the graph is described: node count, output, where the step is", () => {
  const g = readme();
  assert.equal(graphLabel(g.index, g.display, g.at(0).state), "computation graph, 12 nodes, output e = 7.863; nothing built yet");
  assert.match(graphLabel(g.index, g.display, g.at(5).state), /; step 5 of 22, forward at multiply$/);
});

test("each step is a sentence with the document's numbers", () => {
  const g = readme();
  const sentence = (step) => stepSentence(g.index, g.at(step).state);
  const stepOf = (pred) => g.index.events.findIndex(pred) + 1;
  assert.equal(sentence(0), "");
  assert.equal(sentence(1), "step 1 of 22. forward: made a = 2");
  assert.equal(sentence(stepOf((e) => e.type === "create" && e.node === g.id("a*b"))), "step 6 of 22. forward: made a*b = 2 × (−3) = −6");
  const mul = stepOf((e) => e.type === "backward_step" && e.node === g.producer("a*b"));
  assert.equal(sentence(mul), `step ${mul} of 22. backward: multiply a*b received 1; sends −3 to a, 2 to b`);
  assert.equal(sentence(mul + 1), `step ${mul + 1} of 22. a.grad is now −3`);
  assert.match(sentence(22), /backward done: .*a\.grad = −3/);
});

test("a large tensor is named by its shape and min/max; a collapsed module by its size", () => {
  const doc = fixture("large_matmul"), index = indexTrace(doc), display = displayGraph(index);
  const ds = displayState(display, stateAt(index, 0));
  const big = display.nodes.find((d) => d.content && d.content.value && d.content.value.kind === "large");
  const text = nodeLabel(index, big, ds);
  const v = big.content.value;
  assert.ok(text.includes(`min ${spoken(v.min)}, max ${spoken(v.max)}`), text);
  assert.match(text, /shape \d+ by \d+/);
  const scoped = fixture("mlp_scopes"), si = indexTrace(scoped);
  const scopeName = [...new Set(scoped.nodes.map((n) => n.scope).filter(Boolean))][0].split(".")[0];
  const sd = displayGraph(si, { collapsed: [scopeName] });
  const box = sd.nodes.find((d) => d.kind === "scope");
  assert.equal(nodeLabel(si, box, displayState(sd, stateAt(si, 0))), `module ${scopeName}, ${box.members.length} nodes inside, collapsed`);
});

test("minus signs are spoken as minus, other hyphens kept", () => {
  assert.equal(spoken("a-b = -3, [-1, 2], (-0.5)"), "a-b = −3, [−1, 2], (−0.5)");
});

test("in predict mode a backward step is named without the gradient it would give away", () => {
  const g = readme();
  const mul = g.index.events.findIndex((e) => e.type === "backward_step" && e.node === g.producer("a*b")) + 1;
  const hidden = stepSentence(g.index, g.at(mul).state, { hideGradients: true });
  assert.equal(hidden, `step ${mul} of 22. backward: multiply (predict mode: the gradient is yours to work out)`);
  assert.doesNotMatch(stepSentence(g.index, g.at(mul + 1).state, { hideGradients: true }), /3/);
});
