"""A written page's speed: the README example's page (size, write time) and a 1,000-node
trace's page opened from file:// with the network refused (first picture).

Run from the repository root:  python benchmarks/bench_page.py

Medians of several runs; the targets are issue 15's (a README page <= 2 MB written in
< 1 s; a 1,000-node page's first picture < 1 s offline).
"""
from __future__ import annotations

import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "browser")]

from bench_widget import ARGS, CHROMIUM, ensure_bundle  # noqa: E402
from offline import OfflinePage  # noqa: E402

import ag_jupyter as ag  # noqa: E402

RUNS = 5


def readme_widget():
    with ag.trace("e = a*b + log(d)*c") as tr:
        a, b = ag.tensor(2.0, requires_grad=True), ag.tensor(-3.0, requires_grad=True)
        c, d = ag.tensor(10.0, requires_grad=True), ag.tensor(4.0, requires_grad=True)
        (a * b + ag.log(d) * c).backward()
    return ag.show(tr, names={"a": a, "b": b, "c": c, "d": d}, animate=False)


def chain_widget(nodes: int = 1000):
    with ag.trace() as tr:
        w, h = ag.tensor(0.9, requires_grad=True), ag.tensor(1.0, requires_grad=True)
        while tr.node_count < nodes:
            h = (h * w).tanh() + h
        h.backward()
    return ag.show(tr, animate=False)


def write_times(widget, path) -> list:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        widget.write_html(path)
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    from playwright.sync_api import sync_playwright

    ensure_bundle()
    out = pathlib.Path(tempfile.mkdtemp())
    small, big = readme_widget(), chain_widget()
    small_ms, big_ms = write_times(small, out / "readme.html"), write_times(big, out / "big.html")
    paints = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for _ in range(RUNS):
            view = OfflinePage(browser, out / "big.html")
            view.page.locator(".ag-graph g.ag-node").first.wait_for(state="visible")
            paints.append(view.page.evaluate("performance.getEntriesByName('ag-page-mounted')[0].startTime"))
            view.close()
        browser.close()
    rows = [
        ("README example page, size", f"{(out / 'readme.html').stat().st_size / 1e6:.2f} MB", "<= 2 MB"),
        ("README example page, written (median)", f"{statistics.median(small_ms):.0f} ms", "< 1 s"),
        (f"{len(big.trace['nodes']):,}-node page, size", f"{(out / 'big.html').stat().st_size / 1e6:.2f} MB", ""),
        (f"{len(big.trace['nodes']):,}-node page, written (median)", f"{statistics.median(big_ms):.0f} ms", ""),
        ("  first picture from file://, offline (median)", f"{statistics.median(paints):.0f} ms", "< 1 s"),
    ]
    for what, measured, target in rows:
        print(f"{what:<52}{measured:>12}   {target}")


if __name__ == "__main__":
    main()
