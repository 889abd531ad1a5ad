import { test } from "node:test";
import assert from "node:assert/strict";
import { locate } from "../src/view/codestrip.js";
import { fileName } from "../src/view/export.js";
import { SCOPE_PREFIX } from "../src/model/collapse.js";

test("code strip: the line number when the code agrees, else a search, else -1", () => {
  const src = ["a = ag.tensor(2.0)", "b = a * 3", "c = b.sum()"];
  assert.equal(locate(src, { lineno: 2, code: "b = a * 3" }), 1);
  assert.equal(locate(src, { lineno: 2 }), 1, "no code text: trust the number");
  assert.equal(locate(src, { lineno: 40, code: "  c = b.sum()  " }), 2, "numbers from another file: find the text");
  assert.equal(locate(src, { lineno: 40, code: "zzz" }), -1);
  assert.equal(locate([], { lineno: 1, code: "x" }), -1);
  assert.equal(locate(src, null), -1);
});

test("export file names keep only safe characters", () => {
  assert.equal(fileName("e = a*b + log(d)*c", "svg"), "e_a_b_log_d_c.svg");
  assert.equal(fileName("<img src=x onerror=alert(1)>", "png"), "img_src_x_onerror_alert_1.png");
  assert.equal(fileName("", "png"), "graph.png");
  assert.equal(SCOPE_PREFIX, "scope:");
});
