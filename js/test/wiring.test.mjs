// What app.js used to hold, now pure: the scope a collapse/expand acts on, the keymap,
// the code strip's line, and the redraw lists that come from contract.json.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { displayGraph } from "../src/model/collapse.js";
import { LAYOUT_TRAITS, VIEW_TRAITS } from "../src/model/contract.js";
import { keyAction, KEYMAP } from "../src/model/keymap.js";
import { selectedScope, toggleScope } from "../src/model/scopes.js";
import { indexTrace, stateAt, stripLine } from "../src/model/timeline.js";
import { fixture } from "./helpers/fixtures.mjs";

const contract = JSON.parse(readFileSync(new URL("../../ag_jupyter/widgets/contract.json", import.meta.url)));

test("every trait of the contract redraws the layout or the view, never both, never neither", () => {
  assert.deepEqual([...LAYOUT_TRAITS, ...VIEW_TRAITS].sort(), contract.traits.map((t) => t.name).sort());
  assert.deepEqual([...LAYOUT_TRAITS].sort(), ["collapsed", "direction", "hide_constants", "max_nodes", "pass_index", "trace"]);
  for (const t of contract.traits) assert.ok(["layout", "view"].includes(t.redraws), t.name);
});

test("a node's innermost module closes; a module box opens, from the list or past max_nodes", () => {
  const index = indexTrace(fixture("mlp_scopes"));
  const display = displayGraph(index);
  const inner = [...index.nodes.values()].find((n) => n.scope === "MLP.fc1");
  const close = selectedScope(inner.id, index, display);
  assert.deepEqual(close, { scope: "MLP.fc1", open: false });
  assert.deepEqual(toggleScope(close, ["MLP.fc1.act", "other"]),
    { set: { collapsed: ["other", "MLP.fc1"], selected: "scope:MLP.fc1" }, close: "MLP.fc1" });
  const open = selectedScope("scope:MLP.fc1", index, display);
  assert.deepEqual(toggleScope(open, ["MLP.fc1"]), { set: { collapsed: [], selected: "" } });
  assert.deepEqual(toggleScope(open, []), { set: { selected: "" }, expand: "MLP.fc1" });
  assert.equal(selectedScope("", index, display), null);
  assert.equal(selectedScope(inner.id, index, null), null);
});

test("keys step and play unless typing, with a modifier, or space on a button", () => {
  assert.equal(keyAction({ key: "ArrowRight" }, "DIV"), "step");
  assert.equal(keyAction({ key: "f" }, "svg"), "fit");
  assert.equal(keyAction({ key: " " }, "DIV"), "play");
  assert.equal(keyAction({ key: " " }, "BUTTON"), null);
  assert.equal(keyAction({ key: "ArrowRight" }, "INPUT"), null);
  assert.equal(keyAction({ key: "ArrowRight", ctrlKey: true }, "DIV"), null);
  assert.equal(keyAction({ key: "x" }, "DIV"), null);
  assert.deepEqual(Object.values(KEYMAP).sort(), ["back", "first", "fit", "last", "play", "step"]);
});

test("the code strip shows the current node's line, and the loss's once backward is done", () => {
  const index = indexTrace(fixture("e_labelled"));
  const end = stateAt(index, index.events.length);
  assert.equal(end.phase, "done");
  const root = index.nodes.get([...index.roots][0]);
  assert.ok(root.line, "the fixture records source lines");
  assert.deepEqual(stripLine(index, end), root.line);
  const first = stateAt(index, 1);
  assert.deepEqual(stripLine(index, first), index.nodes.get(first.current).line || null);
  assert.equal(stripLine(index, stateAt(index, 0)), null);
});
