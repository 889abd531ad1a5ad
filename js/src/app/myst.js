// The entry of a MyST page's {anywidget} directive (w.to_myst(): static/myst.mjs). The
// directive's JSON body is the model: {trace, view}. MyST's model is read once through
// get(); the view runs on an in-page model, as a written page does (page.js), so it steps
// with no kernel whatever else the host's model offers.
import widget from "./index.js";
import { createPageModel, pageValues } from "./page-model.js";
import { hoistFontFaces } from "../view/fontfaces.js";

export default {
  render({ model, el }) {
    const state = { trace: model.get("trace"), view: model.get("view") || {}, note: model.get("note") || "" };
    const page = createPageModel({ ...pageValues(state), fit_whole: true });
    const view = widget();
    const stopHost = view.initialize({ model: page });
    const unmount = view.render({ model: page, el });
    hoistFontFaces(el);
    return () => { unmount(); stopHost(); };
  },
};
