"""Jupyter Notebook 7 and marimo servers on 127.0.0.1 for browser tests (JupyterLab's is
lab_harness.py). Each starts a subprocess, waits until it answers, and stops it after."""
from __future__ import annotations

import contextlib
import os
import secrets
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from lab_harness import _free_port

REPO = str(Path(__file__).resolve().parents[2])


def _env() -> dict:
    # the kernel must import this checkout's ag_jupyter even where it is not pip-installed
    path = os.pathsep.join(p for p in (REPO, os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "JUPYTER_PLATFORM_DIRS": "1", "PYTHONPATH": path}


@contextlib.contextmanager
def _server(command: list, probe: str, log_path: Path, name: str):
    log = open(log_path, "w")
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=_env())
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
def notebook7(root_dir: Path, log_path: Path):
    """Jupyter Notebook 7 serving ``root_dir``; yields its base URL and token."""
    port, token = _free_port(), secrets.token_hex(16)
    command = [sys.executable, "-m", "notebook", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               f"--ServerApp.token={token}", "--ServerApp.allow_root=True", f"--ServerApp.root_dir={root_dir}",
               "--JupyterNotebookApp.expose_app_in_browser=True"]
    base = f"http://127.0.0.1:{port}"
    with _server(command, f"{base}/api/status?token={token}", log_path, "Jupyter Notebook"):
        yield base, token


@contextlib.contextmanager
def marimo_app(app_path: Path, log_path: Path):
    """``marimo run APP --headless``: the app as its readers see it; yields its URL."""
    port = _free_port()
    command = [sys.executable, "-m", "marimo", "run", str(app_path), "--headless", "--no-token",
               "--host", "127.0.0.1", "--port", str(port)]
    base = f"http://127.0.0.1:{port}"
    with _server(command, f"{base}/health", log_path, "marimo"):
        yield base
