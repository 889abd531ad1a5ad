// In-page probes for bench_lab.py, evaluated once in JupyterLab's page. Every time is
// performance.now() in the page, measured from the learner's key press (the keydown's
// own timeStamp, caught on window before JupyterLab or the widget sees it).
(() => {
  let keyAt = 0;
  window.addEventListener("keydown", (ev) => { keyAt = ev.timeStamp; }, true);
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
  // a cell by the marker comment in its source (an index would shift if JupyterLab ever
  // detached cells out of view)
  const cellAt = (marker) => [...document.querySelectorAll(".jp-Notebook .jp-Cell")]
    .find((c) => (c.querySelector(".jp-InputArea-editor") || c).textContent.includes(marker));

  window.__agBench = {
    /** Before Shift-Enter on the cell marked ``i``: resolves to {output, drawn} ms after the key,
     * output: the cell's new output is in the page; drawn: its graph has node boxes
     * and the next frame has begun. */
    armCell(i) {
      const cell = cellAt(i);
      const seen = new Set(cell.querySelectorAll(".jp-OutputArea-child"));
      this.pending = new Promise((resolve) => {
        let output = 0;
        const check = () => {
          if (!output && [...cell.querySelectorAll(".jp-OutputArea-child")].some((c) => !seen.has(c))) {
            output = performance.now();
          }
          const graph = [...cell.querySelectorAll(".ag-graph")].find((g) => !seen.has(g.closest(".jp-OutputArea-child")));
          if (output && graph && graph.querySelector("g.ag-node")) {
            observer.disconnect();
            frame().then((t) => resolve({ output: output - keyAt, drawn: t - output }));
          }
        };
        const observer = new MutationObserver(check);
        observer.observe(cell, { childList: true, subtree: true });
      });
    },
    /** Before a step key in the widget of the cell marked ``i``: resolves to the ms from the key to
     * the step counter changed and the next frame begun (null after 5 s without a change). */
    armStep(i) {
      const counter = cellAt(i).querySelector(".ag-step-counter");
      this.pending = new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          observer.disconnect();
          clearTimeout(timer);
          frame().then((t) => resolve(t - keyAt));
        });
        const timer = setTimeout(() => { observer.disconnect(); resolve(null); }, 5000);
        observer.observe(counter, { childList: true, characterData: true, subtree: true });
      });
    },
    /** Frame times (ms between animation frames) until ``stop()``; with the number of
     * distinct steps the counter of the cell marked ``i`` showed meanwhile. */
    recordFrames(i) {
      const counter = cellAt(i).querySelector(".ag-step-counter");
      const frames = [], shown = new Set();
      let last = 0, running = true;
      const observer = new MutationObserver(() => shown.add(counter.textContent));
      observer.observe(counter, { childList: true, characterData: true, subtree: true });
      const tick = (t) => {
        if (!running) return;
        if (last) frames.push(t - last);
        last = t;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      this.stop = () => { running = false; observer.disconnect(); return { frames, steps: shown.size }; };
    },
  };
})();
