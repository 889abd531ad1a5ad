// "all passes" at the end of a three-pass trace: each earlier pass's computed tensors
// show the gradient their own backward left, not the "not on the path" None (issue 32).
import { test } from "node:test";
import assert from "node:assert/strict";
import { indexTrace, stateAt } from "../src/model/timeline.js";
import { createCursor } from "../src/model/cursor.js";
import { gradState } from "../src/model/nodecontent.js";
import { fixture } from "./helpers/fixtures.mjs";

// What pass p's backward sent each computed tensor it made (the last one, the running total).
function sentInPass(index, p) {
  const sent = new Map();
  for (const e of index.events) {
    if ((e.pass || 0) !== p || e.type !== "backward_step") continue;
    for (const out of index.outputs.get(e.node) || []) if (e.grad_output) sent.set(out.dst, e.grad_output);
    for (const g of e.grad_inputs || []) if (g.node && g.grad) sent.set(g.node, g.total || g.grad);
  }
  for (const id of [...sent.keys()]) {
    const node = index.nodes.get(id);
    if (node.is_leaf || (index.nodePass.get(id) || 0) !== p) sent.delete(id);
  }
  return sent;
}

test("all passes: an earlier pass's tensors keep the gradient their backward sent them", () => {
  const index = indexTrace(fixture("dynamic_passes"));
  assert.ok(index.passes.length >= 3);
  const end = stateAt(index, index.events.length);
  const fromCursor = createCursor(index).moveTo(index.events.length);
  for (const p of [0, 1]) {
    const sent = sentInPass(index, p);
    assert.ok(sent.size > 3, `pass ${p} sends its tensors gradients`);
    for (const [id, grad] of sent) {
      const shown = gradState(end, id, false);
      assert.notEqual(shown.state, "none", `pass ${p}'s ${id} is drawn "not on the path"`);
      assert.deepEqual(shown.summary, grad);
      assert.deepEqual(gradState(fromCursor, id, false), shown, "the cursor equals stateAt");
    }
  }
  // the last pass's own tensors are unchanged: their gradients are this pass's
  for (const [id, grad] of sentInPass(index, index.passes.length - 1)) assert.deepEqual(end.received.get(id), grad);
});
