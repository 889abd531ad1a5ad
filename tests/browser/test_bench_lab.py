"""benchmarks/bench_lab.py --quick, the real-JupyterLab widget benchmark's smoke run: it
finishes, and its table has every measure for every graph with a p50, a p90 and a verdict,
then the machine and the browser. (Its numbers are the benchmark's business, not a test's.)"""
import re
import subprocess
import sys

import pytest
from conftest import ROOT

pytestmark = pytest.mark.browser

MEASURES = ["cell: Shift-Enter to output", "first picture: output to drawn", "one step back", "one step forward",
            "one step back, alone",
            "scrub: frame times", "play: frame times", "page JS heap, MB"]


def test_the_quick_run_prints_every_row(browser_ready):
    run = subprocess.run([sys.executable, "benchmarks/bench_lab.py", "--quick"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    rows = [line.split("|")[1:-1] for line in run.stdout.splitlines() if line.startswith("| ") and "---" not in line]
    rows = [[cell.strip() for cell in row] for row in rows[1:]]  # without the header
    graphs = ["chain 10 ops", "training step, 5 blocks"]
    for graph in graphs:
        found = [row[1] for row in rows if row[0] == graph]
        assert [m for m in MEASURES if not any(f.startswith(m) for f in found)] == [], (graph, found)
    assert len(rows) == len(graphs) * len(MEASURES)
    for graph, measure, n, p50, p90, budget, verdict in rows:
        assert int(n) >= 1, (graph, measure)
        low, high = (float(re.match(r"[\d.]+", v).group()) for v in (p50, p90))
        assert 0 < low <= high, (graph, measure, p50, p90)
        assert verdict in ("met", "NOT met", "reported") and (budget == "") == (verdict == "reported")
    steps = [int(n) for graph, measure, n, *_ in rows if measure.startswith("one step")]
    assert steps and min(steps) == 3, "three steps each way, every one answered"
    assert re.search(r"^Machine: .+, \d+ cores", run.stdout, re.M)
    assert re.search(r"^Browser: Chromium \d+\.", run.stdout, re.M)
