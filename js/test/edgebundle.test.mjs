import { test } from "node:test";
import assert from "node:assert/strict";
import { BUNDLE_MIN, bundleFans, trunkPath } from "../src/model/edgebundle.js";

// `count` sources in a column at x = 0 (LR; y = 0 in TB), each with a direct edge into one box.
function fan(count, direction = "LR", { bent = false } = {}) {
  const lr = direction === "LR", at = (a, c) => (lr ? [a, c] : [c, a]);
  const nodes = new Map([["box", { x: at(300, 5000)[0], y: at(300, 5000)[1], width: 100, height: 100 }]]);
  const edges = [];
  for (let i = 0; i < count; i++) {
    nodes.set(`p${i}`, { x: at(0, i * 90)[0], y: at(0, i * 90)[1], width: 80, height: 40 });
    const points = [at(40, i * 90), ...(bent ? [at(150, i * 90)] : []), at(250, 5000)];
    edges.push({ src: `p${i}`, dst: "box", points });
  }
  return { nodes, edges };
}

test("a fan of BUNDLE_MIN direct edges into one box shares a trunk; each keeps a stub to it", () => {
  for (const direction of ["LR", "TB"]) {
    const lay = fan(BUNDLE_MIN + 6, direction), lr = direction === "LR";
    const { stubs, trunks } = bundleFans(lay, direction);
    assert.equal(trunks.length, 1);
    assert.equal(trunks[0].dst, "box");
    assert.deepEqual(trunks[0].edges, lay.edges.map((_, i) => i));
    const bus = 40 + (250 - 40) / 2; // half way between the sources' ends and the box's near side
    for (const [i, points] of stubs) {
      assert.deepEqual(points, [lay.edges[i].points[0], lr ? [bus, i * 90] : [i * 90, bus]], direction);
    }
    const [a, b, c, d] = trunks[0].points.map((p) => (lr ? p : [p[1], p[0]]));
    assert.deepEqual([a, b], [[bus, 0], [bus, (BUNDLE_MIN + 5) * 90]], "the run covers every source");
    assert.deepEqual([c, d], [[bus, 5000], [250, 5000]], "then straight into the box's side");
    assert.match(trunkPath(trunks[0].points), /^M[\d.]+,[\d.]+L[\d.]+,[\d.]+M[\d.]+,[\d.]+L[\d.]+,[\d.]+$/);
  }
});

test("fewer edges, or edges routed through the layout's bends, are drawn as they are", () => {
  assert.deepEqual(bundleFans(fan(BUNDLE_MIN - 1)), { stubs: new Map(), trunks: [] });
  assert.deepEqual(bundleFans(fan(BUNDLE_MIN + 6, "LR", { bent: true })), { stubs: new Map(), trunks: [] });
});
