// Trace fixtures for the JS tests.
// - Shared fixtures: the repo's tests/fixtures/*.json, written by the tracer's
//   tests (the same files feed Python and JS). AG_TRACE_FIXTURES=<dir> points
//   elsewhere (e.g. a tracer branch not merged yet).
// - JS fixtures: js/test/fixtures/*.json, made with the real tracer by
//   make_js_fixtures.py, for what the shared ones do not show (labels, scopes,
//   errors, NaN, three passes).
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { pathToFileURL } from "node:url";

const sharedDirs = [
  process.env.AG_TRACE_FIXTURES && pathToFileURL(`${process.env.AG_TRACE_FIXTURES.replace(/\/?$/, "/")}`),
  new URL("../../../tests/fixtures/", import.meta.url),
].filter(Boolean);
const localDir = new URL("../fixtures/", import.meta.url);

function find(name, dirs) {
  for (const dir of dirs) {
    const url = new URL(`${name}.json`, dir);
    if (existsSync(url)) return JSON.parse(readFileSync(url, "utf8"));
  }
  return null;
}

/** A JS fixture (always present). */
export function fixture(name) {
  const doc = find(name, [localDir]);
  if (!doc) throw new Error(`no fixture ${name}`);
  return doc;
}

/** A shared fixture, or null when tests/fixtures has no such file (tests skip). */
export function shared(name) {
  return find(name, sharedDirs);
}

/** Every fixture document, shared and JS: [{name, doc}]. */
export function allFixtures() {
  const seen = new Set(), out = [];
  for (const dir of [...sharedDirs, localDir]) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
      const doc = JSON.parse(readFileSync(new URL(file, dir), "utf8"));
      if (seen.has(file) || !doc || !Array.isArray(doc.nodes) || !Array.isArray(doc.events)) continue;
      seen.add(file);
      out.push({ name: file.slice(0, -5), doc });
    }
  }
  return out;
}
