// Live mode's document changes: Python sends each step of the real backward as the change
// it made to the trace document ({type: "trace_change", lists, values, removed}: see
// ag_jupyter/widgets/live.py document_change), not the whole document again. Pure.

/** The document ``doc`` with ``change`` applied (a new object; ``doc`` is left as it was),
 *  or null when ``change`` was made against a document of other lengths. */
export function applyChange(doc, change) {
  const next = { ...doc };
  for (const [key, part] of Object.entries(change.lists || {})) {
    const list = doc[key];
    if (!Array.isArray(list) || list.length !== part.length) return null;
    const grown = list.slice();
    for (const [at, item] of Object.entries(part.set || {})) grown[Number(at)] = item;
    for (const item of part.append || []) grown.push(item);
    next[key] = grown;
  }
  for (const [key, value] of Object.entries(change.values || {})) next[key] = value;
  for (const key of change.removed || []) delete next[key];
  return next;
}
