// Trace fixtures for the JS tests. The repo's tests/fixtures/*.json are written by
// the Python tests (the same files feed both sides); js/test/fixtures/ holds a few
// documents made with the real tracer until those land. A name is looked up in
// the repo's folder first.
import { readFileSync, readdirSync, existsSync } from "node:fs";

const dirs = [new URL("../../../tests/fixtures/", import.meta.url), new URL("../fixtures/", import.meta.url)];

export function fixture(name) {
  for (const dir of dirs) {
    const url = new URL(`${name}.json`, dir);
    if (existsSync(url)) return JSON.parse(readFileSync(url, "utf8"));
  }
  throw new Error(`no fixture ${name}`);
}

/** Every fixture document, [{name, doc}], from both folders (repo's first). */
export function allFixtures() {
  const seen = new Set(), out = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
      const name = file.slice(0, -5);
      if (seen.has(name)) continue;
      const doc = JSON.parse(readFileSync(new URL(file, dir), "utf8"));
      if (!doc || !Array.isArray(doc.nodes) || !Array.isArray(doc.events)) continue; // not a trace
      seen.add(name);
      out.push({ name, doc });
    }
  }
  return out;
}
