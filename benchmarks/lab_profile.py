"""Where one ``bench_lab.py`` cell's time goes: the kernel's messages and the page's main thread.

    python benchmarks/lab_profile.py --only training        # the 1,250-block training step
    python benchmarks/lab_profile.py --only 5,000 --save p.cpuprofile

Two views of the same cell (``bench_lab.py``'s notebook, its graph chosen by ``--only``):

- **kernel**: the cell run in a kernel of its own (``jupyter_client``, no browser), run three
  times; for each message of the last run, when the kernel made it (its header's date) and
  when it arrived, from the execute request: tracing and ``to_dict`` end where the widget's
  ``comm_open`` is made, packing the state into JSON ends where the next message is made.
- **page**: the cell run in JupyterLab with Chromium as ``bench_lab.py`` runs it, the page
  profiled (CDP ``Profiler``) from Shift-Enter to the graph drawn; printed as a timeline of
  100 ms slices, each with the functions that took most of it (a known function on the
  stack names its whole sample: JupyterLab's message decoding, the widget's model, layout),
  then the functions that took longest. Also the kernel websocket protocol JupyterLab
  negotiated: under ``v1.kernel.websocket.jupyter.org`` jupyter_server passes the kernel's
  bytes through; under the legacy one it decodes and re-encodes every message in Python.

Build the widget first (``npm run build`` in js/: an unminified build, ``minify: false``
in js/build.mjs for the run, names the widget's functions). Times move with the machine's
load (printed); profiling itself slows the page by a few percent.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import tempfile
import time
from pathlib import Path

import bench_lab
from bench_lab import ROOT, SETUP, Case, cases, marked

# a function on a sample's stack that names the whole sample (the first found, innermost first)
PHASES = ("deserializeV1KernelWebsocketJupyterOrg", "_handleCommOpen", "_make_model", "loadEsm",
          "indexTrace", "displayGraph", "findOutlines", "layoutGraph", "setGraph", "relayout",
          "mountWidget", "initialize", "createRenderedMimetype", "decode")


# Installed in the page once the notebook's kernel is connected: when each kernel message arrived
# (its event's timeStamp, before JupyterLab decodes it) with its type and the kernel's date; and
# the Shift-Enter's time. Returns the kernel websocket protocol negotiated ("" for the legacy one).
WATCH_MESSAGES = """() => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel, ws = kernel._ws;
  window.__agArrivals = [];
  window.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && ev.shiftKey) window.__agKeyAt = ev.timeStamp; }, true);
  ws.addEventListener('message', (ev) => {
    if (!(ev.data instanceof ArrayBuffer)) return;  // the v1 protocol's messages are binary
    const view = new DataView(ev.data), offset = (i) => Number(view.getBigUint64(8 * i, true));
    const header = JSON.parse(new TextDecoder().decode(new Uint8Array(ev.data, offset(2), offset(3) - offset(2))));
    window.__agArrivals.push({ type: header.msg_type, date: Date.parse(header.date), at: ev.timeStamp,
      origin: performance.timeOrigin, bytes: ev.data.byteLength });
  });
  return ws.protocol;
}"""


def chosen_case(only: str) -> Case:
    found = [case for case in cases(False) if only in case.name]
    if not found:
        raise SystemExit(f"no graph's name contains {only!r}: " + ", ".join(case.name for case in cases(False)))
    return found[0]


def kernel_timeline(case: Case) -> None:
    from jupyter_client.manager import start_new_kernel

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    manager, client = start_new_kernel(kernel_name="python3", env=env)
    try:
        client.execute_interactive(SETUP.format(depth=1250), timeout=300)
        for _ in range(3):
            start = time.time()
            msg_id = client.execute(case.source)
            lines = []
            while True:
                msg = client.get_iopub_msg(timeout=300)
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                content, kind = msg["content"], msg["msg_type"]
                what = kind + (f" {content['execution_state']}" if kind == "status" else "")
                if kind == "comm_open":
                    what += f" {content['data'].get('state', {}).get('_model_name')}"
                elif kind == "comm_msg":
                    what += f" {sorted(content['data'].get('state', {}))}"
                made = msg["header"]["date"].timestamp() - start
                lines.append(f"  {what:44s} made {made * 1e3:7.0f} ms, arrived {(time.time() - start) * 1e3:7.0f} ms")
                if kind == "status" and content["execution_state"] == "idle":
                    break
        print(f"kernel (the third run of the cell; load average {os.getloadavg()[0]:.1f}):")
        print("\n".join(lines))
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def _stacks(profile: dict):
    """(ms, innermost-first function names) per sample, with the time since the profile began."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", ())}
    memo: dict = {}

    def names(node_id):
        if node_id not in memo:
            frame = nodes[node_id]["callFrame"]
            above = names(parent[node_id]) if node_id in parent else ()
            memo[node_id] = (frame["functionName"] or "(anonymous)", *above)
        return memo[node_id]

    at = 0.0
    for node_id, delta in zip(profile["samples"], profile["timeDeltas"]):
        at += delta / 1000
        yield at, delta / 1000, names(node_id)


def page_report(profile: dict, key_at_ms: float) -> None:
    slices = collections.defaultdict(collections.Counter)
    longest = collections.Counter()
    for at, ms, stack in _stacks(profile):
        if at < key_at_ms:
            continue
        phase = next((name for name in stack if name in PHASES), stack[0])
        slices[int((at - key_at_ms) // 100)][phase] += ms
        for name in dict.fromkeys(stack):  # each once, innermost first (ties print in that order)
            longest[name] += ms
    print("page main thread from Shift-Enter, per 100 ms (ms in each; idle: waiting):")
    for k in sorted(slices):
        print(f"  {k * 100:5d} " + ", ".join(f"{name} {ms:.0f}" for name, ms in slices[k].most_common(4)))
    print("longest (inclusive ms):")
    for name, ms in longest.most_common(40):
        if name not in ("(root)", "(program)", "(idle)"):
            print(f"  {ms:7.1f} {name}")


def page_profile(case: Case, save: Path | None) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        bench_lab.write_notebook(root / "bench.ipynb", [SETUP.format(depth=1250), marked(case.source, "# case 1")])
        with bench_lab.jupyterlab(root, root / "jupyterlab.log") as (base, token), sync_playwright() as p:
            browser = p.chromium.launch(executable_path=bench_lab.CHROMIUM, args=bench_lab.CHROMIUM_ARGS)
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.set_default_timeout(300_000)
            bench_lab.open_notebook(page, base, token, "bench.ipynb")
            protocol = page.evaluate(WATCH_MESSAGES)
            page.evaluate((ROOT / "benchmarks" / "lab_probes.js").read_text())
            learner = bench_lab.Learner(page, page.context.new_cdp_session(page))
            page.locator(".jp-Notebook .jp-Cell").first.locator(".jp-InputArea-editor").click()
            page.keyboard.press("Escape")
            page.keyboard.press("Shift+Enter")  # the setup cell
            page.wait_for_function("() => /\\[\\d+\\]/.test(document.querySelector('.jp-InputArea-prompt')"
                                   ".textContent)")
            cdp = learner.cdp
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 250})
            cdp.send("Profiler.start")
            shown = learner.run_cell("# case 1")
            stopped = page.evaluate("() => performance.now()")
            profile = cdp.send("Profiler.stop")["profile"]
            key_at, arrivals = page.evaluate("() => [window.__agKeyAt, window.__agArrivals]")
            browser.close()
    print(f"page: cell (Shift-Enter to output) {shown['output']:.0f} ms, first picture {shown['drawn']:.0f} ms; "
          f"kernel websocket protocol: {protocol or 'legacy (none negotiated)'}; "
          f"load average {os.getloadavg()[0]:.1f}")
    print("messages of the cell: made in the kernel, arrived in the page (wall clock, from Shift-Enter):")
    key_wall = arrivals and arrivals[0]["origin"] + key_at
    for message in arrivals:
        if message["at"] >= key_at:
            made = message["date"] - key_wall if message["date"] else float("nan")
            print(f"  {message['type']:22s} {message['bytes'] / 1e6:6.2f} MB made {made:7.0f} ms, "
                  f"arrived {message['at'] - key_at:7.0f} ms")
    # the profile's samples, in page time: its end is about ``stopped``
    page_report(profile, key_at - (stopped - (profile["endTime"] - profile["startTime"]) / 1000))
    if save:
        save.write_text(json.dumps(profile))
        print(f"profile written to {save} (open it in Chromium's DevTools, Performance panel)")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="training", help="the graph whose name contains this (bench_lab.py's)")
    parser.add_argument("--save", type=Path, default=None, help="write the page's CPU profile here")
    parser.add_argument("--skip-kernel", action="store_true", help="only the page")
    args = parser.parse_args(argv)
    case = chosen_case(args.only)
    print(f"{case.name}")
    if not args.skip_kernel:
        kernel_timeline(case)
    page_profile(case, args.save)


if __name__ == "__main__":
    main()
