"""Jupyter Notebook 7 and marimo servers on 127.0.0.1 for browser tests (JupyterLab's is
lab_harness.py). Each starts a subprocess, waits until it answers, and stops it after."""
from __future__ import annotations

import contextlib
import secrets
import sys
from pathlib import Path

from lab_harness import _free_port, running_server


@contextlib.contextmanager
def notebook7(root_dir: Path, log_path: Path):
    """Jupyter Notebook 7 serving ``root_dir``; yields its base URL and token."""
    port, token = _free_port(), secrets.token_hex(16)
    command = [sys.executable, "-m", "notebook", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               f"--ServerApp.token={token}", "--ServerApp.allow_root=True", f"--ServerApp.root_dir={root_dir}",
               "--JupyterNotebookApp.expose_app_in_browser=True"]
    base = f"http://127.0.0.1:{port}"
    with running_server(command, f"{base}/api/status?token={token}", log_path, "Jupyter Notebook"):
        yield base, token


@contextlib.contextmanager
def marimo_app(app_path: Path, log_path: Path):
    """``marimo run APP --headless``: the app as its readers see it; yields its URL."""
    port = _free_port()
    command = [sys.executable, "-m", "marimo", "run", str(app_path), "--headless", "--no-token",
               "--host", "127.0.0.1", "--port", str(port)]
    base = f"http://127.0.0.1:{port}"
    with running_server(command, f"{base}/health", log_path, "marimo"):
        yield base
