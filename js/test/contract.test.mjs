import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { TRAIT_DEFAULTS, PAGE_TRAITS, documentProblem } from "../src/model/contract.js";
import { trait } from "../src/app/host.js";
import { VIEW_DEFAULTS } from "../src/app/page-model.js";
import { fakeModel } from "../bench/fake-model.mjs";

const contract = JSON.parse(readFileSync(new URL("../../ag_jupyter/widgets/contract.json", import.meta.url)));

test("every trait's default comes from the contract file Python reads too", () => {
  assert.deepEqual(Object.keys(TRAIT_DEFAULTS), contract.traits.map((t) => t.name));
  const empty = fakeModel({});
  for (const t of contract.traits) assert.deepEqual(trait(empty, t.name), t.default, t.name);
  assert.equal(trait(fakeModel({ speed: 9 }), "speed"), 9);
  assert.deepEqual(Object.keys(VIEW_DEFAULTS).sort(), [...PAGE_TRAITS, "live"].sort());
});

test("a document of another major version is refused with what to do", () => {
  assert.equal(documentProblem({ version: "1.1" }), null);
  assert.equal(documentProblem({ nodes: [] }), null, "a hand-made document without a version is drawn");
  assert.match(documentProblem({ version: "2.0" }), /version 2\.0 trace document .* reads version 1\.x/);
});
