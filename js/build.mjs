// Bundles the widget into ../ag_jupyter/static/ as one ES module (no code splitting:
// anywidget loads a single file, and a split bundle renders nothing).
import { build } from "esbuild";
import { mkdir } from "node:fs/promises";

const outdir = new URL("../ag_jupyter/static/", import.meta.url).pathname;
await mkdir(outdir, { recursive: true });
await build({
  entryPoints: ["src/index.js"],
  bundle: true,
  format: "esm",
  outfile: `${outdir}widget.js`,
  minify: true,
  sourcemap: false,
  target: ["es2020"],
  loader: { ".woff2": "dataurl", ".woff": "empty", ".ttf": "empty" },
  logLevel: "info",
});
// The kernel-less page (write_html, the ag_html exporter): the same render code
// as a classic script, so it can be inlined in a page opened from file://.
await build({
  entryPoints: ["src/page.js"],
  bundle: true,
  format: "iife",
  outfile: `${outdir}page.js`,
  minify: true,
  sourcemap: false,
  target: ["es2020"],
  loader: { ".woff2": "dataurl", ".woff": "empty", ".ttf": "empty" },
  logLevel: "info",
});
await build({
  entryPoints: ["src/page.css"],
  bundle: true,
  outfile: `${outdir}page.css`,
  minify: true,
  logLevel: "info",
});
await build({
  entryPoints: ["src/styles.css"],
  bundle: true,
  outfile: `${outdir}widget.css`,
  minify: true,
  loader: { ".woff2": "dataurl", ".woff": "empty", ".ttf": "empty" },
  logLevel: "info",
});
