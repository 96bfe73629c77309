"""``langgraph dev`` on a free loopback port, offline, for the integration tests (Studio, RemoteGraph, MCP).

The server runs with the test session's environment (conftest: CLINRAG_INDEX_ROOT in a temp dir, HF offline, no
LangSmith tracing), so nothing is downloaded and the user's index cache is untouched. conftest.py starts one per
test session (fixtures ``studio`` and ``studio_client``).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

REPO_ROOT = Path(__file__).resolve().parents[1]
LANGGRAPH = Path(sys.executable).parent / "langgraph"
ASSISTANT = "clinrag"  # the graph id in langgraph.json

STARTUP_TIMEOUT_S = 120
# The first run loads the sentence-transformers / NLI models and builds the index: give reads plenty of time.
CLIENT_TIMEOUT = httpx.Timeout(connect=10.0, read=300.0, write=30.0, pool=30.0)
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _read_log(path: Path) -> str:
    try:
        return ANSI.sub("", path.read_text(encoding="utf-8", errors="replace"))
    except FileNotFoundError:
        return ""


def _tail(text: str, limit: int = 8000) -> str:
    return text if len(text) <= limit else "...\n" + text[-limit:]


def _stop(proc: subprocess.Popen) -> None:
    """Terminate the server's whole process group: SIGTERM, then SIGKILL if it lingers."""
    if proc.poll() is not None:
        return
    for sig, wait_s in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait_s)
            return
        except subprocess.TimeoutExpired:
            continue


class StudioServer:
    def __init__(self, url: str, log_path: Path):
        self.url = url
        self.log_path = log_path

    def log(self) -> str:
        return _read_log(self.log_path)

    def log_tail(self) -> str:
        return _tail(self.log())


@contextmanager
def running_studio(log_dir: Path | str) -> Iterator[StudioServer]:
    """``langgraph dev`` on a free port, cwd = repo root; always torn down (process group), even on failure."""
    assert LANGGRAPH.exists(), f"langgraph CLI not found next to the interpreter: {LANGGRAPH}"
    assert (REPO_ROOT / "langgraph.json").is_file()

    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = Path(log_dir) / "langgraph-dev.log"
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "true",
        "LANGSMITH_TRACING": "false",
        "PYTHONUNBUFFERED": "1",
    }
    # The in-memory runtime persists threads under ./.langgraph_api (relative to the cwd); remove it afterwards
    # unless a developer already had one there.
    persistence_dir = REPO_ROOT / ".langgraph_api"
    had_persistence_dir = persistence_dir.exists()

    cmd = [
        str(LANGGRAPH), "dev", "--no-browser", "--no-reload",
        "--host", "127.0.0.1", "--port", str(port),
    ]  # fmt: skip
    with open(log_path, "wb") as log_file:
        proc = subprocess.Popen(
            cmd,
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so teardown reaches every child
        )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                raise RuntimeError(
                    f"langgraph dev exited with code {proc.returncode} before answering /ok:\n"
                    f"{_tail(_read_log(log_path))}"
                )
            try:
                if httpx.get(f"{url}/ok", timeout=2.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"langgraph dev did not answer {url}/ok within {STARTUP_TIMEOUT_S} s:\n"
                                   f"{_tail(_read_log(log_path))}")
            time.sleep(0.5)
        yield StudioServer(url, log_path)
    finally:
        _stop(proc)
        if not had_persistence_dir:
            shutil.rmtree(persistence_dir, ignore_errors=True)
