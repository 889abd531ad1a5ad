// anywidget entry: wires the synced model to the view. Kept thin on purpose:
// layout, timeline and formatting live in their own pure modules.
function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "ag-graph";
  el.appendChild(root);
  const draw = () => {
    const trace = model.get("trace") || { nodes: [] };
    root.replaceChildren();
    for (const node of trace.nodes || []) {
      const label = document.createElement("span");
      label.className = "ag-node";
      label.textContent = node.label || node.op || node.id;
      root.appendChild(label);
    }
  };
  model.on("change:trace", draw);
  draw();
}

export default { render };
