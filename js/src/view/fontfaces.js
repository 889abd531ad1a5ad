// A widget drawn inside a shadow root (a MyST page's {anywidget}) has its styles there,
// but browsers ignore @font-face rules in a shadow root: KaTeX's maths would fall back to
// the page's serif. The font faces are copied to the document once (fonts are global).
const HOISTED = "data-ag-font-faces";

function faces(sheet) {
  try {
    return [...sheet.cssRules].filter((rule) => rule.constructor.name === "CSSFontFaceRule").map((rule) => rule.cssText);
  } catch (error) {
    return []; // a sheet from another origin cannot be read: its fonts are its own business
  }
}

function copy(rules) {
  if (!rules.length || document.head.querySelector(`style[${HOISTED}]`)) return;
  const style = document.createElement("style");
  style.setAttribute(HOISTED, "");
  style.textContent = rules.join("\n");
  document.head.appendChild(style);
}

/** Copies the @font-face rules of `el`'s shadow root (if it is in one) to the document,
 *  now and when a stylesheet link there finishes loading. */
export function hoistFontFaces(el) {
  const root = el.getRootNode();
  if (typeof ShadowRoot === "undefined" || !(root instanceof ShadowRoot)) return;
  const collect = () => copy([...root.styleSheets, ...(root.adoptedStyleSheets || [])].flatMap(faces));
  collect();
  for (const link of root.querySelectorAll("link[rel=stylesheet]")) link.addEventListener("load", collect, { once: true });
}
