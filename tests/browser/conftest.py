"""Browser tests: a real JupyterLab and Debian's Chromium driven by Playwright.

They skip with the reason when Chromium, JupyterLab or Playwright are missing, except
under CI (AG_REQUIRE_BROWSER=1), where a missing piece is a failure.
"""
import functools
import http.server
import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest
from lab_harness import CHROMIUM, CHROMIUM_ARGS, jupyterlab, missing_requirements

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("AG_TEST_ARTIFACTS", Path(__file__).resolve().parents[2] / "test-artifacts"))


@pytest.fixture(scope="session")
def browser_ready():
    reason = missing_requirements()
    if reason:
        if os.environ.get("AG_REQUIRE_BROWSER"):
            pytest.fail(f"browser tests are required here but cannot run: {reason}")
        pytest.skip(reason)


@pytest.fixture(scope="session")
def lab(browser_ready, tmp_path_factory):
    root = tmp_path_factory.mktemp("lab")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with jupyterlab(root, ARTIFACTS / "jupyterlab.log") as (base, token):
        yield root, base, token


@pytest.fixture(scope="session")
def chromium(browser_ready):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda m: page.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))
    yield page
    context.close()


@pytest.fixture(scope="session")
def site(browser_ready):
    if not (ROOT / "ag_jupyter" / "static" / "widget.js").exists():
        if not shutil.which("npm"):
            pytest.skip("the widget bundle is not built and npm is missing")
        subprocess.run(["npm", "install"], cwd=ROOT / "js", check=True)
        subprocess.run(["npm", "run", "build"], cwd=ROOT / "js", check=True)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(ROOT)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/js/bench/view.html"
    server.shutdown()
