"""Widget speed in headless Chromium: first paint, one step while playing, payload.

Run from the repository root:  python benchmarks/bench_widget.py

Serves the repository on 127.0.0.1, opens js/bench/bench.html (the built bundle
with a fake anywidget model and synthetic traces) in Debian's Chromium through
Playwright, and prints the numbers against the targets of issue 5. Builds the
bundle first (npm run build in js/) when ag_jupyter/static/widget.js is missing.
"""
from __future__ import annotations

import functools
import http.server
import json
import pathlib
import subprocess
import sys
import threading

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def ensure_bundle() -> None:
    if (ROOT / "ag_jupyter" / "static" / "widget.js").exists():
        return
    js = ROOT / "js"
    if not (js / "node_modules").exists():
        subprocess.run(["npm", "install"], cwd=js, check=True)
    subprocess.run(["npm", "run", "build"], cwd=js, check=True)


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # keep the table readable
        pass


def serve() -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(Quiet, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def fixture_urls(base: str) -> list[str]:
    found = {}
    for folder in ("tests/fixtures", "js/test/fixtures"):  # the repo's own first
        for path in sorted((ROOT / folder).glob("*.json")):
            found.setdefault(path.name, f"{base}/{folder}/{path.name}")
    return list(found.values())


def run() -> dict:
    from playwright.sync_api import sync_playwright

    ensure_bundle()
    server, base = serve()
    errors: list[str] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            # A missing favicon is the browser's business; any other failed load is ours.
            page.on("console", lambda m: errors.append(m.text)
                    if m.type == "error" and "Failed to load resource" not in m.text else None)
            page.on("response", lambda r: errors.append(f"{r.status} {r.url}")
                    if r.status >= 400 and not r.url.endswith("favicon.ico") else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{base}/js/bench/bench.html")
            page.wait_for_function("window.agBenchReady === true", timeout=30_000)
            result = page.evaluate("urls => window.agBench.runAll(urls)", fixture_urls(base))
            browser.close()
    finally:
        server.shutdown()
    if errors:
        raise SystemExit("browser errors:\n" + "\n".join(errors))
    return result


def table(r: dict) -> str:
    rows = [
        (f"first paint, {r['nodes1k']:,}-node trace", f"{r['paint1k']['ms']:.0f} ms", "< 1 s",
         r["paint1k"]["ms"] < 1000),
        (f"first paint, {r['nodes5k']:,} nodes collapsed by module ({r['paint5kCollapsed']['shown']} boxes)",
         f"{r['paint5kCollapsed']['ms']:.0f} ms", "< 2 s", r["paint5kCollapsed"]["ms"] < 2000),
        (f"  (for scale: {r['nodes5k']:,} nodes, nothing collapsed)", f"{r['paint5kFull']['ms']:.0f} ms", "", None),
        (f"one step while playing ({r['nodes1k']:,} nodes), to next frame (median)",
         f"{r['step1k']['paintMs']:.1f} ms", "< 50 ms", r["step1k"]["paintMs"] < 50),
        ("  90th percentile", f"{r['step1k']['p90Ms']:.1f} ms", "", None),
        ("  of which the widget's handlers (median / max)",
         f"{r['step1k']['syncMs']:.1f} / {r['step1k']['maxSyncMs']:.1f} ms", "", None),
    ]
    for st in r.get("stepByKey", []):
        budget = 33 if st["nodes"] < 5000 else 50
        for way in ("back", "forward"):
            p50, p90 = st[way]["p50"], st[way]["p90"]
            rows.append((f"one step {way} by key ({st['nodes']:,} nodes), to next frame p50 / p90",
                         f"{p50:.1f} / {p90:.1f} ms", f"<= {budget} ms", p90 <= budget))
    fixtures = [p for p in r["payload"] if not p["name"].startswith("synthetic")]
    if fixtures:
        total_bytes = sum(p["perNode"] * p["nodes"] for p in fixtures)
        total_nodes = sum(p["nodes"] for p in fixtures)
        avg = total_bytes / total_nodes
        rows.append((f"average trace payload ({len(fixtures)} fixtures, {total_nodes} nodes)", f"{avg:.0f} B/node",
                     "< 1 KB", avg < 1024))
    for p in r["payload"]:
        rows.append((f"  {p['name']} ({p['nodes']} nodes)", f"{p['perNode']:.0f} B/node", "", None))
    width = max(len(row[0]) for row in rows) + 2
    lines = [f"{'what':<{width}}{'measured':>16}{'target':>10}  ok"]
    for what, measured, target, ok in rows:
        mark = "" if ok is None else ("yes" if ok else "NO")
        lines.append(f"{what:<{width}}{measured:>16}{target:>10}  {mark}")
    return "\n".join(lines)


if __name__ == "__main__":
    results = run()
    if "--json" in sys.argv:
        print(json.dumps(results, indent=1))
    print(table(results))
