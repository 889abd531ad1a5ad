// Passes: a trace that ran the model several times (a DynamicNet called 3 times)
// holds several passes. These helpers pick a pass's nodes and compare two passes,
// so the view can mark what differs and which parameters a pass did not use.
// Pure: no DOM.

/** Node ids drawn for pass `p`: what it created, plus the tensors it consumed that
 * an earlier pass created (shared parameters, an input made before). */
export function passNodes(index, p) {
  const ids = new Set();
  for (const [id, at] of index.nodePass) if (at === p) ids.add(id);
  for (const e of index.edges) {
    if (ids.has(e.dst) && index.nodes.get(e.dst).kind === "op") ids.add(e.src);
  }
  const pass = index.passes[p];
  for (const id of pass ? pass.params_unused || [] : []) if (index.nodes.has(id)) ids.add(id);
  return ids;
}

// An op is told apart from other ops by where it ran and what it is; the k-th
// such op of a pass matches the k-th of another pass.
function signatures(index, p) {
  const seen = new Map(), out = new Map();
  const ops = [];
  for (const [id, at] of index.nodePass) {
    const node = index.nodes.get(id);
    if (at === p && node && node.kind === "op") ops.push(id);
  }
  ops.sort((a, b) => index.createdAt.get(a) - index.createdAt.get(b));
  for (const id of ops) {
    const node = index.nodes.get(id);
    const base = `${node.scope || ""}|${node.op}`;
    const k = (seen.get(base) || 0) + 1;
    seen.set(base, k);
    out.set(id, `${base}#${k}`);
  }
  return out;
}

/**
 * Compare pass `p` with pass `q` (default: the one before, or the next for pass 0).
 * Returns {against, added: Set of op ids in p with no counterpart in q (and their
 * output tensors), missing: count of q's ops p lacks, unused: [param ids], text}.
 */
export function comparePasses(index, p, q = p > 0 ? p - 1 : p + 1) {
  const pass = index.passes[p];
  const unused = pass ? (pass.params_unused || []).filter((id) => index.nodes.has(id)) : [];
  if (!index.passes[q] || q === p) return { against: null, added: new Set(), missing: 0, unused, text: unusedText(index, unused) };
  const mine = signatures(index, p), theirs = new Set(signatures(index, q).values());
  const own = new Set(mine.values());
  const added = new Set();
  for (const [id, sig] of mine) {
    if (theirs.has(sig)) continue;
    added.add(id);
    for (const out of index.outputs.get(id) || []) added.add(out.dst);
  }
  let missing = 0;
  for (const sig of theirs) if (!own.has(sig)) missing++;
  const addedOps = [...added].filter((id) => index.nodes.get(id).kind === "op").length;
  const parts = [];
  if (addedOps) parts.push(`${addedOps} op${addedOps === 1 ? "" : "s"} not in pass ${q}`);
  if (missing) parts.push(`${missing} op${missing === 1 ? "" : "s"} of pass ${q} not run`);
  if (!parts.length) parts.push(`same ops as pass ${q}`);
  const extra = unusedText(index, unused);
  return { against: q, added, missing, unused, text: parts.join(", ") + (extra ? `; ${extra}` : "") };
}

function unusedText(index, unused) {
  if (!unused.length) return "";
  const names = unused.map((id) => index.nodes.get(id).label || id);
  return `unused: ${names.join(", ")}`;
}

/** Options for the pass selector: [{value, text}], "all" first. */
export function passOptions(index) {
  const opts = [{ value: -1, text: "all passes" }];
  for (const p of index.passes) {
    opts.push({ value: p.index, text: `pass ${p.index}${p.backward ? "" : " (forward only)"}` });
  }
  return opts;
}
