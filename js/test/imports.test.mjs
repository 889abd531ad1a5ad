// The front end's folders as layers, read from the source: model/ (pure: no DOM) imports
// only model/; view/ (the DOM) imports model/ and view/; app/ (the host and the wiring)
// imports anything. No import cycle among src's modules, and js/README.md maps every one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const JS = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SRC = join(JS, "src");
const RANK = { model: 0, view: 1, app: 2 };

function sources(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(js|css|d\.ts)$/.test(entry.name) ? [relative(SRC, path)] : [];
  });
}

/** The src modules a module imports (static imports and re-exports; packages and JSON left out). */
export function importsOf(text, from) {
  const found = [];
  const pattern = /^\s*(?:import|export)\s[^;]*?from\s*["'](\.[^"']+)["']|^\s*import\s*["'](\.[^"']+)["']/gm;
  for (const match of text.matchAll(pattern)) {
    const target = relative(SRC, resolve(SRC, dirname(from), match[1] || match[2]));
    if (target.endsWith(".js")) found.push(target);
  }
  return found;
}

/** One cycle per strongly connected group of modules (Tarjan), as a path back to its start. */
export function cycles(graph) {
  const index = new Map(), low = new Map(), stack = [], onStack = new Set(), found = [];
  const connect = (v) => {
    index.set(v, index.size); low.set(v, index.get(v)); stack.push(v); onStack.add(v);
    for (const w of graph.get(v) || []) {
      if (!index.has(w)) { connect(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const group = new Set();
    for (let w = null; w !== v;) { w = stack.pop(); onStack.delete(w); group.add(w); }
    if (group.size > 1 || (graph.get(v) || []).includes(v)) {
      const path = [v];
      for (let next = (graph.get(v) || []).find((w) => group.has(w)); ; next = (graph.get(next) || []).find((w) => group.has(w))) {
        if (path.includes(next)) { found.push([...path.slice(path.indexOf(next)), next]); break; }
        path.push(next);
      }
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found;
}

const FILES = sources(SRC);
const MODULES = FILES.filter((f) => f.endsWith(".js"));
const GRAPH = new Map(MODULES.map((m) => [m, importsOf(readFileSync(join(SRC, m), "utf8"), m)]));

test("every src module sits in model/, view/ or app/", () => {
  assert.ok(MODULES.length > 30);
  assert.deepEqual(MODULES.filter((m) => !(m.split("/")[0] in RANK)), []);
});

test("no import cycle among src's modules", () => {
  assert.deepEqual(cycles(GRAPH).map((c) => c.join(" -> ")), []);
});

test("model/ imports no view/ or app/ module, view/ no app/ module", () => {
  const upward = [];
  for (const [module, targets] of GRAPH) {
    for (const target of targets) {
      assert.ok(GRAPH.has(target), `${module} imports ${target}, which is not a module of src/`);
      if (RANK[target.split("/")[0]] > RANK[module.split("/")[0]]) upward.push(`${module} -> ${target}`);
    }
  }
  assert.deepEqual(upward, []);
});

test("model/ is pure: no DOM, no timers", () => {
  const touching = MODULES.filter((m) => m.startsWith("model/") &&
    /\b(document\.\w+\(|window\.|requestAnimationFrame|setTimeout|ResizeObserver|addEventListener)/.test(readFileSync(join(SRC, m), "utf8")));
  assert.deepEqual(touching, []);
});

test("js/README.md maps every module and stylesheet", () => {
  const readme = readFileSync(join(JS, "README.md"), "utf8");
  assert.deepEqual(FILES.filter((f) => !readme.includes(`\`${f}\``)), []);
});

test("the checks see a cycle and resolve relative paths", () => {
  assert.deepEqual(cycles(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]])), [["a", "b", "c", "a"]]);
  const text = 'import { x } from "../model/a.js";\nexport { y } from "./b.js";\nimport z from "katex";\n';
  assert.deepEqual(importsOf(text, "view/v.js"), ["model/a.js", "view/b.js"]);
});
