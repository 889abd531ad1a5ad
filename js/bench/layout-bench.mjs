// Layout engines side by side in Node: dagre vs the layered layout, on synthetic
// traces (npm run bench:layout). Each size is laid out once to warm up, then the
// median of 3 runs is printed. dagre stops at 1,000 nodes (seconds per run).
import { layoutGraph } from "../src/model/layout.js";
import { displayGraph } from "../src/model/collapse.js";
import { indexTrace } from "../src/model/timeline.js";
import { synthTrace, blocksFor } from "../test/helpers/synth.mjs";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (fn) => { const t0 = performance.now(); fn(); return performance.now() - t0; };

console.log("nodes   edges   dagre ms   layered ms");
for (const target of [25, 100, 250, 500, 1000, 2000, 5000]) {
  const graph = displayGraph(indexTrace(synthTrace({ blocks: blocksFor(target) })));
  const row = { dagre: "", layered: "" };
  for (const engine of ["dagre", "layered"]) {
    if (engine === "dagre" && graph.nodes.length > 1100) { row.dagre = "-"; continue; }
    const run = () => layoutGraph(graph, { engine });
    run();
    row[engine] = median([time(run), time(run), time(run)]).toFixed(0);
  }
  console.log(`${String(graph.nodes.length).padStart(5)}  ${String(graph.edges.length).padStart(6)}  ${row.dagre.padStart(9)}  ${row.layered.padStart(11)}`);
}
