// Export the drawn graph as a standalone SVG file or a PNG (through a canvas).
// The widget's look comes from CSS (JupyterLab's --jp-* variables), which a saved
// file would not have, so the computed styles are copied inline onto a clone.

const STYLE_PROPS = ["fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "opacity",
  "font-family", "font-size", "font-weight", "text-anchor", "dominant-baseline", "visibility"];

/** A standalone SVG string of the whole graph (not just the visible viewport). */
export function svgString(svg, layout) {
  const clone = svg.cloneNode(true);
  const live = svg.querySelectorAll("*"), copy = clone.querySelectorAll("*");
  const drop = [];
  live.forEach((node, i) => {
    const cs = getComputedStyle(node);
    if (cs.display === "none" || cs.visibility === "hidden" || Number(cs.opacity) === 0) {
      if (node.tagName !== "marker" && !node.closest("defs")) drop.push(copy[i]);
      return;
    }
    copy[i].setAttribute("style", STYLE_PROPS.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(";"));
  });
  for (const node of drop) node.remove();
  const pad = 16;
  const w = Math.ceil((layout ? layout.width : 400) + 2 * pad), h = Math.ceil((layout ? layout.height : 300) + 2 * pad);
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("width", w);
  clone.setAttribute("height", h);
  clone.setAttribute("viewBox", `0 0 ${w} ${h}`);
  clone.removeAttribute("class");
  clone.setAttribute("style", `background:${background(svg)}`);
  const viewport = clone.querySelector(".ag-viewport");
  if (viewport) viewport.setAttribute("transform", `translate(${pad},${pad})`);
  return new XMLSerializer().serializeToString(clone);
}

// The theme's background (dark themes export dark pictures).
function background(svg) {
  return getComputedStyle(svg.parentNode || svg).getPropertyValue("--ag-background").trim() || "#ffffff";
}

function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Name for exported files, from the trace title (letters, digits, - and _ only). */
export function fileName(title, ext) {
  const base = String(title || "graph").replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 60);
  return `${base || "graph"}.${ext}`;
}

export function exportSVG(svg, layout, title) {
  download(new Blob([svgString(svg, layout)], { type: "image/svg+xml" }), fileName(title, "svg"));
}

/** PNG at 2x: the SVG drawn onto a canvas through an Image. Resolves when saved. */
export function exportPNG(svg, layout, title) {
  const text = svgString(svg, layout);
  const img = new Image();
  const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
  return new Promise((resolve, reject) => {
    img.onload = () => {
      const scale = 2;
      const canvas = document.createElement("canvas");
      canvas.width = Math.min(16384, img.width * scale);
      canvas.height = Math.min(16384, img.height * scale);
      const ctx = canvas.getContext("2d");
      ctx.fillStyle = background(svg);
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
      URL.revokeObjectURL(url);
      canvas.toBlob((blob) => {
        if (blob) { download(blob, fileName(title, "png")); resolve(); } else reject(new Error("PNG export failed"));
      }, "image/png");
    };
    img.onerror = () => { URL.revokeObjectURL(url); reject(new Error("PNG export failed")); };
    img.src = url;
  });
}
