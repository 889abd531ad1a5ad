// The entry of a page written by write_html or the ag_html nbconvert exporter: no
// kernel, no network. Every `.ag-page-graph` holds its graph's data in a
// <script type="application/json" class="ag-graph-data"> (parsed with JSON.parse,
// never evaluated); each gets the notebook's own widget (index.js: initialize +
// render) driven by an in-page model. A static picture beside the data, if any,
// stays on screen until the widget has drawn, and stays for good if it fails.
import widget from "./index.js";
import { createPageModel, pageValues } from "./page-model.js";

function mountOne(box) {
  const data = box.querySelector("script.ag-graph-data");
  if (!data || box.dataset.agMounted) return;
  box.dataset.agMounted = "1";
  const state = JSON.parse(data.textContent);
  if (state.note) {
    const note = document.createElement("p");
    note.className = "ag-page-note";
    note.textContent = state.note;
    box.appendChild(note);
  }
  // A page is read in a column narrower than a notebook: the whole graph fits on load.
  // One that would play waits until it is scrolled into view (a course page's iframe
  // below the fold would have finished before the student got there).
  const values = { ...pageValues(state), fit_whole: true };
  const playWhenSeen = !!values.playing && typeof IntersectionObserver === "function";
  if (playWhenSeen) values.playing = false;
  const model = createPageModel(values);
  const el = document.createElement("div");
  el.className = "ag-page-view";
  box.appendChild(el);
  const view = widget();
  view.initialize({ model });
  view.render({ model, el });
  if (playWhenSeen) {
    const seen = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      seen.disconnect();
      model.set("playing", true);
    }, { threshold: 0.5 });
    seen.observe(el);
  }
  const picture = box.querySelector(".ag-static");
  if (picture) picture.hidden = true;
}

function mountAll() {
  for (const box of document.querySelectorAll(".ag-page-graph")) {
    try {
      mountOne(box);
    } catch (error) {
      const message = document.createElement("p");
      message.className = "ag-page-error";
      message.textContent = `This graph could not be drawn here (${error.message}); the picture above is its final state.`;
      box.appendChild(message);
      console.error(error);
    }
  }
  performance.mark("ag-page-mounted");
  document.documentElement.dataset.agPage = "ready";
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountAll);
else mountAll();
