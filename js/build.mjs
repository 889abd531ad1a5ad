// Bundles the widget into ../ag_jupyter/static/ as one ES module (no code splitting:
// anywidget loads a single file, and a split bundle renders nothing).
import { build } from "esbuild";
import { mkdir } from "node:fs/promises";

const outdir = new URL("../ag_jupyter/static/", import.meta.url).pathname;
await mkdir(outdir, { recursive: true });
// KaTeX's woff2 fonts inline as data URLs; the older formats are left out.
const common = { bundle: true, minify: true, logLevel: "info",
  loader: { ".woff2": "dataurl", ".woff": "empty", ".ttf": "empty" } };
await build({ ...common, entryPoints: ["src/app/index.js"], format: "esm", outfile: `${outdir}widget.js`, target: ["es2020"] });
// The kernel-less page (write_html, the ag_html exporter): the same render code
// as a classic script, so it can be inlined in a page opened from file://.
await build({ ...common, entryPoints: ["src/app/page.js"], format: "iife", outfile: `${outdir}page.js`, target: ["es2020"] });
// A MyST page's {anywidget} directive (w.to_myst()): the page's model, as an ES module.
await build({ ...common, entryPoints: ["src/app/myst.js"], format: "esm", outfile: `${outdir}myst.mjs`, target: ["es2020"] });
await build({ ...common, entryPoints: ["src/view/page.css"], outfile: `${outdir}page.css` });
await build({ ...common, entryPoints: ["src/view/styles.css"], outfile: `${outdir}widget.css` });
