// ag_jupyter's JupyterLab / Notebook 7 extension: a graph output that outlives its kernel.
//
// A graph's output carries three representations: ipywidgets' widget view, a static
// SVG of the final graph, and this extension's own MIME type, which ranks ahead of
// ipywidgets' so that only ag_jupyter outputs come here (other widgets never do).
// The renderer *is* ipywidgets' widget renderer (a subclass of the class its factory
// makes, so ipywidgets finds it and hands it the notebook's widget manager as it does
// its own); only where ipywidgets would say "model not found" (a notebook reopened
// without its kernel, a restarted server) does the saved picture take its place.
import { Widget } from "@lumino/widgets";

export const GRAPH_MIME = "application/vnd.ag-jupyter.graph+json";
const WIDGET_MIME = "application/vnd.jupyter.widget-view+json";
const SVG_MIME = "image/svg+xml";
const NOT_FOUND = /model not found/i;
const RANK = -20; // ipywidgets ranks its widget view -10: come first

function staticPicture(svg) {
  const box = document.createElement("div");
  box.className = "ag-static-picture";
  const img = document.createElement("img");
  img.alt = "the graph: a static picture (run the cell to step through it)";
  // an <img> never runs anything in the SVG it shows, so this is safe untrusted too
  img.src = `data:${SVG_MIME};charset=utf-8,${encodeURIComponent(svg)}`;
  img.style.maxWidth = "100%";
  const note = document.createElement("div");
  note.className = "ag-static-note";
  note.textContent = "A picture of the graph as it was saved: run the cell to step through it.";
  note.style.cssText = "font-size: var(--jp-ui-font-size0, 11px); color: var(--jp-ui-font-color2, #616161);";
  box.append(img, note);
  return box;
}

function picture(model) {
  const svg = model.data[SVG_MIME];
  return svg ? staticPicture(String(svg)) : document.createTextNode(
    "This graph's widget needs its kernel: run the cell again.");
}

/** The saved picture, where the notebook has no widget support at all. */
class PictureRenderer extends Widget {
  async renderModel(model) {
    this.node.replaceChildren(picture(model));
  }
}

const subclasses = new WeakMap();

/** ipywidgets' renderer class, extended to fall back on the picture. */
function graphRendererClass(WidgetRenderer) {
  if (subclasses.has(WidgetRenderer)) return subclasses.get(WidgetRenderer);
  class GraphRenderer extends WidgetRenderer {
    async renderModel(model) {
      this._agModel = model;
      if (!model.trusted) { // a notebook from elsewhere: its widget code does not run, its picture shows
        this._agShowPicture();
        return;
      }
      this._agWatch();
      await super.renderModel(model);
      this._agCheck();
    }

    // ipywidgets may say "Loading widget..." first and "model not found" only once
    // its manager is restored (it then renders again): keep watching until then
    _agWatch() {
      if (this._agObserver) return;
      this._agObserver = new MutationObserver(() => this._agCheck());
      this._agObserver.observe(this.node, { childList: true, characterData: true, subtree: true });
    }

    _agCheck() {
      if (!NOT_FOUND.test(this.node.textContent || "") || !this._agModel) return;
      this._agObserver.disconnect();
      this._agShowPicture();
      this._agObserver.observe(this.node, { childList: true, characterData: true, subtree: true });
    }

    _agShowPicture() {
      this.removeClass("jupyter-widgets");
      this.node.replaceChildren(picture(this._agModel));
    }

    dispose() {
      if (this._agObserver) this._agObserver.disconnect();
      super.dispose();
    }
  }
  subclasses.set(WidgetRenderer, GraphRenderer);
  return GraphRenderer;
}

/** The graph renderer factory of one notebook's rendermime (each notebook has its own
 * copy, where ipywidgets registers the renderer bound to that notebook's widgets). */
function factoryFor(rendermime) {
  return {
    safe: true,
    mimeTypes: [GRAPH_MIME],
    createRenderer: (options) => {
      const widgets = rendermime.getFactory(WIDGET_MIME);
      if (!widgets) return new PictureRenderer();
      const probe = widgets.createRenderer({ ...options, mimeType: WIDGET_MIME });
      const GraphRenderer = graphRendererClass(probe.constructor);
      const renderer = new GraphRenderer({ ...options, mimeType: WIDGET_MIME });
      // the notebook's widget manager, where ipywidgets' factory already has it
      // (otherwise ipywidgets hands it over later, as to its own renderers)
      const manager = probe._manager && probe._manager.promise;
      if (manager) manager.then((m) => { if (!renderer.isDisposed) renderer.manager = m; });
      probe.dispose();
      return renderer;
    },
  };
}

const plugin = {
  id: "ag-jupyter:graph-renderer",
  description: "ag_jupyter graphs: the live widget, or the saved picture where the widget cannot run.",
  autoStart: true,
  activate: (app) => {
    app.docRegistry.addWidgetExtension("Notebook", {
      createNew: (panel) => { panel.content.rendermime.addFactory(factoryFor(panel.content.rendermime), RANK); },
    });
  },
};

export default plugin;
