// The code strip: the cell line that made the current node, shown inside the
// cell's source when we have it (with a line either side), else the line's own
// code. Text only (textContent).

const CONTEXT = 1; // lines shown before and after the highlighted one

/** Which 0-based source line a trace `line` points at, or -1. Pure. */
export function locate(sourceLines, line) {
  if (!line || !sourceLines.length) return -1;
  const code = (line.code || "").trim();
  const at = line.lineno - 1;
  // Cell line numbers are 1-based within the cell; trust them when the code agrees.
  if (at >= 0 && at < sourceLines.length && (!code || sourceLines[at].trim() === code)) return at;
  return code ? sourceLines.findIndex((s) => s.trim() === code) : -1;
}

export function createCodeStrip(container) {
  const root = document.createElement("div");
  root.className = "ag-codestrip";
  container.appendChild(root);
  let shown = null;

  function show(line, source) {
    const key = line ? `${line.file}:${line.lineno}:${line.code}` : "";
    if (key === shown) return;
    shown = key;
    root.replaceChildren();
    if (!line) return;
    const lines = source ? String(source).split("\n") : [];
    const at = locate(lines, line);
    if (at < 0) {
      root.append(row(line.lineno, (line.code || "").trim() || `${line.function} (${line.file})`, true));
      return;
    }
    for (let i = Math.max(0, at - CONTEXT); i <= Math.min(lines.length - 1, at + CONTEXT); i++) {
      root.append(row(i + 1, lines[i], i === at));
    }
  }

  return { element: root, show, destroy: () => root.remove() };
}

function row(lineno, code, current) {
  const div = document.createElement("div");
  div.className = current ? "ag-code-line ag-code-current" : "ag-code-line";
  const no = document.createElement("span");
  no.className = "ag-lineno";
  no.textContent = String(lineno);
  const text = document.createElement("code");
  text.textContent = code;
  div.append(no, text);
  return div;
}
