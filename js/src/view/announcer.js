// A polite live region that says each step in a sentence (describe.js). Seen by screen
// readers only. While playing, a step every quarter second would drown the reader: at
// most one sentence per PLAYING_GAP_MS is said, the latest (the last one wins).
const PLAYING_GAP_MS = 1500;
const SETTLE_MS = 80; // a few refreshes of the same step in one tick are said once

export function createAnnouncer(parent) {
  const region = document.createElement("div");
  region.className = "ag-sr-only ag-announcer";
  region.setAttribute("role", "status");
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-atomic", "true");
  parent.appendChild(region);
  // The state a widget opens in is not news: a notebook of ten graphs would read ten
  // sentences on opening. Only steps taken after that are said.
  let pending = "", said = null, timer = null, lastAt = -Infinity;

  function flush() {
    timer = null;
    if (pending === said) return;
    said = pending;
    lastAt = performance.now();
    region.textContent = pending;
  }

  /** Says `text` (once: the same sentence again is not repeated). */
  function say(text, { playing = false } = {}) {
    if (said === null) { said = text; return; }
    pending = text;
    if (timer !== null) return; // already waiting: the newest text goes out then
    const wait = playing ? Math.max(SETTLE_MS, lastAt + PLAYING_GAP_MS - performance.now()) : SETTLE_MS;
    timer = setTimeout(flush, wait);
  }

  return { element: region, say, destroy: () => { clearTimeout(timer); region.remove(); } };
}
