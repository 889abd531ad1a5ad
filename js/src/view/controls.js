// The toolbar: player buttons, speed, scrubber with its phase strip, step counter,
// and the view buttons (direction, fit, collapse, constants, pass, export).
// It only reports actions through onAction(name, value); app.js decides.
// Text goes in with textContent.

const SPEEDS = [0.5, 1, 2, 4, 8, 16, 32];

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

export function createControls(container, { onAction }) {
  const bar = el("div", { class: "ag-toolbar", role: "toolbar" });
  const button = (action, text, title) => {
    const b = el("button", { type: "button", "data-action": action, title, "aria-label": title }, text);
    b.addEventListener("click", () => onAction(action));
    return b;
  };
  const player = el("div", { class: "ag-player" });
  const play = button("play", "▶", "play / pause (space)");
  player.append(button("first", "|◀", "first"), button("back", "◀", "back (←)"), play,
    button("step", "▶|", "step (→)"), button("last", "▶▶|", "last"));
  const speed = el("select", { class: "ag-speed", title: "events per second", "aria-label": "speed" });
  for (const s of SPEEDS) speed.append(el("option", { value: String(s) }, `${s}/s`));
  speed.addEventListener("change", () => onAction("speed", Number(speed.value)));
  const counter = el("span", { class: "ag-step-counter", "aria-live": "polite" }, "0 / 0");

  const scrub = el("div", { class: "ag-scrub" });
  const strip = el("div", { class: "ag-phases", "aria-hidden": "true" });
  const scrubber = el("input", { type: "range", class: "ag-scrubber", min: "0", max: "0", step: "1", value: "0", "aria-label": "event" });
  // Dragged across a whole pass, the scrubber fires more inputs than frames: the first
  // goes at once, the rest wait for the next animation frame and only the last counts.
  let frame = 0, queued = null;
  const go = (v) => { onAction("goto", v); frame = requestAnimationFrame(flush); };
  const flush = () => { frame = 0; if (queued !== null) { const v = queued; queued = null; go(v); } };
  scrubber.addEventListener("input", () => { if (frame) queued = Number(scrubber.value); else go(Number(scrubber.value)); });
  scrub.append(strip, scrubber);

  const view = el("div", { class: "ag-view" });
  const direction = button("direction", "LR", "layout direction");
  const collapse = button("collapse", "collapse", "collapse / expand the selected node's module");
  const constants = button("constants", "constants", "hide / show constants");
  const pass = el("select", { class: "ag-pass", "aria-label": "pass" });
  const predict = button("predict", "predict", "predict mode: type each leaf's gradient before it is shown");
  pass.addEventListener("change", () => onAction("pass", Number(pass.value)));
  view.append(direction, button("fit", "fit", "zoom to fit"), collapse, constants, predict, pass,
    button("export-svg", "SVG", "export as SVG"), button("export-png", "PNG", "export as PNG"));
  bar.append(player, speed, scrub, counter, view);
  container.appendChild(bar);

  let segKey = "", passKey = "";
  /** s: {step, min, max, total, playing, speed, direction, hideConstants, segments,
   * passOptions, passIndex, collapseText, canCollapse}. */
  function update(s) {
    play.textContent = s.playing ? "❚❚" : "▶";
    play.setAttribute("aria-pressed", String(!!s.playing));
    counter.textContent = `${s.step} / ${s.total}`;
    scrubber.min = String(s.min);
    scrubber.max = String(s.max);
    scrubber.value = String(s.step);
    // A speed set from Python that is not in the list gets its own option.
    const sp = String(Number(s.speed) > 0 ? Number(s.speed) : 4);
    if (![...speed.options].some((o) => o.value === sp)) speed.append(el("option", { value: sp }, `${sp}/s`));
    if (speed.value !== sp) speed.value = sp;
    direction.textContent = s.direction === "TB" ? "TB" : "LR";
    constants.textContent = s.hideConstants ? "show constants" : "hide constants";
    predict.setAttribute("aria-pressed", String(!!s.predict));
    collapse.textContent = s.collapseText || "collapse";
    collapse.disabled = !s.canCollapse;
    const key = JSON.stringify([s.min, s.max, s.segments]);
    if (key !== segKey) { segKey = key; drawStrip(strip, s); }
    const pk = JSON.stringify(s.passOptions);
    if (pk !== passKey) {
      passKey = pk;
      pass.replaceChildren(...s.passOptions.map((o) => el("option", { value: String(o.value) }, o.text)));
    }
    pass.hidden = s.passOptions.length <= 2; // "all" plus one pass: nothing to choose
    pass.value = String(s.passIndex);
  }

  return { element: bar, update, destroy: () => { cancelAnimationFrame(frame); bar.remove(); } };
}

// Coloured runs under the scrubber: forward, backward, error; a tick at each pass start.
function drawStrip(strip, s) {
  const span = Math.max(1, s.max - s.min);
  const parts = [];
  let lastPass = null;
  for (const seg of s.segments) {
    const from = Math.max(seg.from, s.min), to = Math.min(seg.to, s.max);
    if (to <= from) continue;
    const d = el("div", { class: `ag-phase ag-phase-${seg.phase}`, title: `pass ${seg.pass}: ${seg.phase}` });
    d.style.left = `${((from - s.min) / span) * 100}%`;
    d.style.width = `${((to - from) / span) * 100}%`;
    if (lastPass !== null && seg.pass !== lastPass) d.classList.add("ag-pass-start");
    lastPass = seg.pass;
    parts.push(d);
  }
  strip.replaceChildren(...parts);
}
