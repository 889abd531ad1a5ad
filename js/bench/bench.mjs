// Measures the built bundle (ag_jupyter/static/widget.js) with a fake model:
// first paint of big traces, one step while playing, payload bytes per node.
// window.agBench.runAll(fixtureUrls) resolves to a results object.
import widget from "../../ag_jupyter/static/widget.js";
import { synthTrace, blocksFor } from "../test/helpers/synth.mjs";
import { fakeModel, defaults } from "./fake-model.mjs";

const stage = document.getElementById("stage");
const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
// "Painted": two animation frames after the work, so style, layout and paint ran.
const painted = async () => { await frame(); await frame(); };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function mount(trace, extra = {}) {
  const model = fakeModel({ ...defaults, trace, step: trace.events.length, ...extra });
  const el = document.createElement("div");
  stage.replaceChildren(el);
  const stopHost = widget.initialize({ model });
  const stopView = widget.render({ model, el });
  return { model, el, stop: () => { stopView(); stopHost(); } };
}

async function firstPaint(trace, extra, repeats = 3) {
  const times = [];
  let shown = 0;
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    const w = mount(trace, extra);
    await painted();
    times.push(performance.now() - t0);
    shown = w.el.querySelectorAll("g.ag-node").length;
    w.stop();
  }
  return { ms: median(times), shown };
}

// One step while playing: set the step as the play timer does, then wait for paint.
async function stepWhilePlaying(trace, count = 40) {
  const w = mount(trace, { step: 0 });
  const n = trace.events.length;
  const starts = [Math.floor(n * 0.25), n - count - 2]; // forward steps, then backward steps
  const sync = [], paint = [];
  w.model.set("playing", false);
  for (const start of starts) {
    w.model.set("step", start);
    await painted();
    for (let k = 1; k <= count; k++) {
      const t0 = performance.now();
      w.model.set("step", start + k);
      sync.push(performance.now() - t0);
      await frame();
      paint.push(performance.now() - t0);
    }
  }
  w.stop();
  return { syncMs: median(sync), paintMs: median(paint), maxSyncMs: Math.max(...sync) };
}

const bytesPerNode = (doc) => new TextEncoder().encode(JSON.stringify(doc)).length / Math.max(1, doc.nodes.length);

export async function runAll(fixtureUrls = []) {
  const t1k = synthTrace({ blocks: blocksFor(1000) });
  const t5k = synthTrace({ blocks: blocksFor(5000) });
  await firstPaint(synthTrace({ blocks: 3 }), {}, 1); // warm up the JIT and fonts
  const r = { nodes1k: t1k.nodes.length, nodes5k: t5k.nodes.length };
  r.paint1k = await firstPaint(t1k, {});
  r.paint5kCollapsed = await firstPaint(t5k, { max_nodes: 300 });
  r.paint5kFull = await firstPaint(t5k, {}, 1);
  r.step1k = await stepWhilePlaying(t1k);
  const payload = [];
  for (const url of fixtureUrls) {
    const doc = await (await fetch(url)).json();
    if (Array.isArray(doc.nodes) && doc.nodes.length) payload.push({ name: url.split("/").pop(), nodes: doc.nodes.length, perNode: bytesPerNode(doc) });
  }
  payload.push({ name: "synthetic 1k", nodes: t1k.nodes.length, perNode: bytesPerNode(t1k) });
  r.payload = payload;
  document.getElementById("out").textContent = JSON.stringify(r, null, 1);
  return r;
}

window.agBench = { runAll, mount, synthTrace };
window.agBenchReady = true;
