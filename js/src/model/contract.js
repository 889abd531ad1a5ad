// The model contract with the Python GraphWidget, read from the one file both sides
// read (ag_jupyter/widgets/contract.json): trait names and defaults, which traits a
// page keeps, what a change of each redraws, the trace document's major version.
import contract from "../../../ag_jupyter/widgets/contract.json" with { type: "json" };

/** {name: default} for every synced trait. */
export const TRAIT_DEFAULTS = Object.freeze(Object.fromEntries(contract.traits.map((t) => [t.name, t.default])));
/** The traits a written page keeps (live is not one: a page has no kernel). */
export const PAGE_TRAITS = Object.freeze(contract.traits.filter((t) => t.page).map((t) => t.name));
export const DOCUMENT_MAJOR = contract.document.major;
/** The traits whose change lays the graph out again (``redraws: "layout"``), and those
 *  whose change redraws the step's state on the same layout (``"view"``): every trait is
 *  one or the other, so a new setting redraws without a list here to forget it in. */
export const LAYOUT_TRAITS = Object.freeze(contract.traits.filter((t) => t.redraws === "layout").map((t) => t.name));
export const VIEW_TRAITS = Object.freeze(contract.traits.filter((t) => t.redraws === "view").map((t) => t.name));

/** Why a document cannot be drawn right (another major version), or null. */
export function documentProblem(doc) {
  if (!doc || typeof doc !== "object" || doc.version === undefined) return null;
  const major = String(doc.version).split(".")[0];
  if (major === String(DOCUMENT_MAJOR)) return null;
  return `This graph is a version ${doc.version} trace document and this widget reads version `
    + `${DOCUMENT_MAJOR}.x: make the graph again with this ag_jupyter, or install the one that wrote it.`;
}
