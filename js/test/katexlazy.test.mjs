import { test } from "node:test";
import assert from "node:assert/strict";
import { katex, whenKatex } from "../src/view/katexlazy.js";

test("KaTeX is made on the first ask, not on import, and once for every waiter", async () => {
  assert.equal(katex, null, "importing the module makes nothing");
  const order = [];
  await new Promise((resolve) => {
    whenKatex(() => order.push(katex ? "first" : "not made"));
    whenKatex(() => { order.push(katex ? "second" : "not made"); resolve(); });
  });
  assert.deepEqual(order, ["first", "second"]);
  const made = katex;
  assert.match(made.renderToString("x^2"), /class="katex"/);
  await new Promise((resolve) => whenKatex(resolve));
  assert.equal(katex, made, "made once: a later ask gets the same");
});
