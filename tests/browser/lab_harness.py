"""A real JupyterLab on 127.0.0.1 for browser tests, and a Playwright page in Debian's Chromium."""
from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

CHROMIUM = os.environ.get("AG_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def missing_requirements() -> str | None:
    """Why a browser test cannot run here, or None."""
    if not Path(CHROMIUM).exists():
        return f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    for module in ("playwright", "jupyterlab", "anywidget"):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed (pip install -e '.[test,jupyter]')"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _preset_settings(settings_dir: Path) -> None:
    # A "news" notification otherwise covers part of the page on first start.
    target = settings_dir / "@jupyterlab" / "apputils-extension"
    target.mkdir(parents=True, exist_ok=True)
    (target / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))


def server_env() -> dict:
    # the kernel must import this checkout's ag_jupyter even where it is not pip-installed
    repo = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join(p for p in (repo, os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "JUPYTER_PLATFORM_DIRS": "1", "PYTHONPATH": path}


@contextlib.contextmanager
def running_server(command: list, probe: str, log_path: Path, name: str):
    """Run ``command`` until ``probe`` (a URL) answers (90 s at most); stop it after."""
    log = open(log_path, "w")
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=server_env())
    try:
        deadline = time.time() + 90
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"{name} exited early; see {log_path}")
            try:
                urllib.request.urlopen(probe, timeout=2)
                break
            except OSError:
                if time.time() > deadline:
                    raise RuntimeError(f"{name} did not answer in 90 s; see {log_path}") from None
                time.sleep(0.5)
        yield
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@contextlib.contextmanager
def jupyterlab(root_dir: Path, log_path: Path):
    """Start JupyterLab serving ``root_dir``; yield its base URL and token; stop it after."""
    settings, workspaces = root_dir / ".settings", root_dir / ".workspaces"
    _preset_settings(settings)
    port, token = _free_port(), secrets.token_hex(16)
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               f"--ServerApp.token={token}", "--ServerApp.allow_root=True",
               f"--ServerApp.root_dir={root_dir}", f"--LabApp.user_settings_dir={settings}",
               f"--LabApp.workspaces_dir={workspaces}", "--LabApp.expose_app_in_browser=True",
               "--ServerApp.open_browser=False"]
    base = f"http://127.0.0.1:{port}"
    with running_server(command, f"{base}/api/status?token={token}", log_path, "JupyterLab"):
        yield base, token


def open_notebook(page, base: str, token: str, name: str, timeout_ms: int = 120_000) -> None:
    # reset: a fresh workspace, so tabs another test opened do not come back
    page.goto(f"{base}/lab/tree/{name}?reset&token={token}", timeout=timeout_ms)
    page.wait_for_selector(".jp-Notebook", timeout=timeout_ms)
    # wait until the kernel is connected and idle
    page.wait_for_function(
        """() => { const app = window.jupyterapp; if (!app) return false;
                   const w = app.shell.currentWidget; const s = w && w.sessionContext;
                   return !!(s && s.session && s.session.kernel && s.session.kernel.status === 'idle'); }""",
        timeout=timeout_ms)


def run_all_cells(page, timeout_ms: int = 120_000) -> None:
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(
        """() => { const w = window.jupyterapp.shell.currentWidget;
                   const s = w && w.sessionContext; const k = s && s.session && s.session.kernel;
                   const cells = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')]
                     .map(e => e.textContent);
                   return k && k.status === 'idle' && cells.length > 0 && cells.every(t => /\\[\\d+\\]/.test(t)); }""",
        timeout=timeout_ms)


def write_notebook(path: Path, cells: list[str]) -> None:
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, str(path))


def chromium_available() -> bool:
    return shutil.which(CHROMIUM) is not None or Path(CHROMIUM).exists()
