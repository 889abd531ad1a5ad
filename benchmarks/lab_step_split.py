"""Where a step's time goes in JupyterLab: the parts of bench_lab.py's "one step" measure.

    python benchmarks/lab_step_split.py --ops 500                 # steps back, then forward
    python benchmarks/lab_step_split.py --ops 500 --pause-ms 400  # each step alone

Runs one ``%%autograd`` chain of ``--ops`` ops in a real JupyterLab (as bench_lab.py does),
presses ← and → in its widget and splits each step, p50 / p90 ms: input (the key's time
stamp to its handler), script (the handler to the step counter changed: the widget's
refresh), wait (to the next animation frame's callback: a frame still being drawn, and
the style and layout the frame's hover hit test asks for before its callbacks run) and
the frame after (to a task after that frame: its style, layout and paint). "total" is
bench_lab.py's measure. What issue 31's step floor was found with (js/README.md).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_lab import CHAIN, SETUP, learner_at, marked, percentile  # noqa: E402
from lab_harness import jupyterlab, write_notebook  # noqa: E402

# Per step: the key's time stamp, its handler's start, the counter's change, the next frame's
# callback, and a task after that frame.
PROBE = """(() => {
  const steps = window.__agSplit = [];
  let step = null;
  window.addEventListener('keydown', (ev) => { step = {key: ev.timeStamp, start: performance.now()}; }, true);
  new MutationObserver(() => {
    if (!step) return;
    const s = step; step = null; s.script = performance.now();
    requestAnimationFrame(() => { s.frame = performance.now();
      setTimeout(() => { s.after = performance.now(); steps.push(s); }, 0); });
  }).observe(document.querySelector('.ag-step-counter'), {childList: true, characterData: true, subtree: true});
})()"""
CELL = "# case 1"


def split(steps: list[dict], totals: list[float]) -> str:
    parts = {"total": totals, "input": [s["start"] - s["key"] for s in steps],
             "script": [s["script"] - s["start"] for s in steps], "wait": [s["frame"] - s["script"] for s in steps],
             "frame after": [s["after"] - s["frame"] for s in steps]}
    return "  ".join(f"{name} {statistics.median(v):.1f} / {percentile(v, 0.9):.1f}" for name, v in parts.items() if v)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ops", type=int, default=500, help="ops in the chain (500: 1,003 nodes)")
    parser.add_argument("--steps", type=int, default=30, help="steps each way")
    parser.add_argument("--pause-ms", type=int, default=0, help="wait this long before each press")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_notebook(root / "split.ipynb", [SETUP.format(depth=5), marked(CHAIN.format(ops=args.ops), CELL)])
        with jupyterlab(root, root / "jupyterlab.log") as (base, token), sync_playwright() as p:
            browser, learner = learner_at(p, base, token, "split.ipynb")
            page = learner.page
            learner.run_cell(CELL)
            learner.widget(CELL).locator(".ag-step-counter").wait_for(state="attached")
            page.wait_for_timeout(500)
            learner.widget(CELL).focus()
            page.keyboard.press("End")
            page.wait_for_timeout(800)
            page.evaluate(PROBE)
            for key in ("ArrowLeft", "ArrowRight"):
                totals = learner.steps(CELL, key, args.steps, pause_ms=args.pause_ms)
                page.wait_for_timeout(300)
                print(f"{args.ops} ops, {key}:", split(page.evaluate("() => window.__agSplit.splice(0)"), totals))
            browser.close()


if __name__ == "__main__":
    main()
