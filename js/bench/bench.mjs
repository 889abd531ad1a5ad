// Measures the built bundle (ag_jupyter/static/widget.js) with a fake model:
// first paint of big traces, one step while playing, payload bytes per node.
// window.agBench.runAll(fixtureUrls) resolves to a results object.
import makeWidget from "../../ag_jupyter/static/widget.js";
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
  const widget = makeWidget(); // anywidget calls the factory once per model
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

// One step while playing: the widget's own timer plays (speed 8/s); for every step
// we take the time from the step change (a listener registered before the
// widget's) to the next animation frame, in a forward stretch and a backward one.
async function stepWhilePlaying(trace, count = 30) {
  let t0 = 0;
  const model = fakeModel({ ...defaults, trace, step: 0, speed: 8 });
  model.on("change:step", () => { t0 = performance.now(); });
  const el = document.createElement("div");
  stage.replaceChildren(el);
  const widget = makeWidget();
  const stopHost = widget.initialize({ model });
  const stopView = widget.render({ model, el });
  // Registered after the widget's listeners, so it runs once they are done.
  let t1 = 0;
  model.on("change:step", () => { t1 = performance.now(); });
  const n = trace.events.length, paint = [], sync = [];
  for (const start of [Math.floor(n * 0.25), n - count - 2]) {
    model.set("step", start);
    await painted();
    model.set("playing", true);
    for (let k = 0; k < count; k++) {
      const before = model.get("step");
      while (model.get("step") === before) await new Promise((r) => setTimeout(r, 2));
      sync.push(t1 - t0); // the widget's own handlers for this step
      await frame();
      paint.push(performance.now() - t0);
    }
    model.set("playing", false);
  }
  stopView(); stopHost();
  return { syncMs: median(sync), paintMs: median(paint), maxSyncMs: Math.max(...sync), p90Ms: [...paint].sort((a, b) => a - b)[Math.floor(paint.length * 0.9)] };
}

// One step by key, as a person presses ← or → on the focused widget: from the keydown
// to the frame after it (the step's own work, style, layout and paint), p50 and p90, at
// the end of the backward pass (30 steps back, then 30 forward).
async function stepByKey(trace, count = 30) {
  const w = mount(trace, { step: trace.events.length - 2 });
  await painted();
  const root = w.el.querySelector(".ag-graph");
  const out = {};
  for (const key of ["ArrowLeft", "ArrowRight"]) {
    const times = [];
    for (let k = 0; k < count; k++) {
      const t0 = performance.now();
      root.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      times.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
    times.sort((a, b) => a - b);
    out[key === "ArrowLeft" ? "back" : "forward"] = { p50: times[Math.floor(count / 2)], p90: times[Math.floor(count * 0.9)] };
  }
  w.stop();
  return { nodes: trace.nodes.length, ...out };
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
  r.stepByKey = [];
  for (const size of [200, 1000, 10000]) r.stepByKey.push(await stepByKey(synthTrace({ blocks: blocksFor(size) })));
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
