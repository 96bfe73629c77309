"""Reliability and security suites (issue 16): shared helpers, the ``reliability_long`` marker and the figures.

Short versions of every suite run with the rest of the tests (``make test``). Tests marked ``reliability_long``
(the long versions: every generated input, the 50-client load, the 10-minute soak) run only when selected with
``-m reliability_long`` (``make reliability``); without that they are skipped here, whatever ``addopts`` says.

Measured figures (cases, latencies, RSS growth) are recorded with the ``figures`` fixture, printed in the terminal
summary and, when ``CLINRAG_RELIABILITY_OUT`` names a file, written there as JSON (docs/reliability.md's table).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))  # serve_load: served(), hammer(), rss_kib(), shared with benchmarks
from serve_load import rss_kib  # noqa: E402, F401 - re-exported for the suites

CLINRAG = Path(sys.executable).parent / "clinrag"
LONG = "reliability_long"
FIGURES: dict[str, dict] = {}


def pytest_configure(config):
    config.addinivalue_line("markers", f"{LONG}: long reliability suite (make reliability; -m {LONG})")


def long_selected(config) -> bool:
    return LONG in (config.getoption("markexpr", "") or "") and f"not {LONG}" not in config.getoption("markexpr", "")


def pytest_collection_modifyitems(config, items):
    if long_selected(config):
        return
    skip = pytest.mark.skip(reason=f"long reliability suite: run with -m {LONG} (make reliability)")
    for item in items:
        if LONG in item.keywords:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter):
    if not FIGURES:
        return
    terminalreporter.section("reliability figures")
    for name, values in sorted(FIGURES.items()):
        terminalreporter.write_line(f"{name}: {json.dumps(values, sort_keys=True)}")
    out = os.environ.get("CLINRAG_RELIABILITY_OUT")
    if out:
        path = Path(out)
        old = json.loads(path.read_text()) if path.is_file() else {}
        path.write_text(json.dumps({**old, **FIGURES}, indent=2, sort_keys=True))


@pytest.fixture
def figures(request):
    """``figures(**values)`` records measured values under the test's name."""
    def record(**values):
        FIGURES.setdefault(request.node.name, {}).update(values)
    return record


def subprocess_env(**extra: str) -> dict[str, str]:
    """The test session's environment (index root, offline models, no tracing) for a ``clinrag`` subprocess."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "LANGSMITH_TRACING": "false"}
    env.update(extra)
    return env


class RssSampler:
    """Samples a process's RSS every ``interval`` seconds in a thread: ``samples`` of (time, KiB)."""

    def __init__(self, pid: int, interval: float = 0.2):
        self.pid, self.interval, self.samples = pid, interval, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            value = rss_kib(self.pid)
            if value is None:
                return
            self.samples.append((time.monotonic(), value))
            self._stop.wait(self.interval)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=5)

    def at(self, t: float) -> int | None:
        """The last sample taken at or before ``t``."""
        before = [v for s, v in self.samples if s <= t]
        return before[-1] if before else None


def run_lines(args: list[str], lines: list[bytes], timeout: float, env: dict | None = None,
              cwd: Path | None = None) -> dict:
    """Run ``clinrag ARGS`` with ``lines`` on stdin (written from a thread, so megabyte lines cannot deadlock),
    timing every stdout line and sampling RSS. Returns stdout lines, their arrival times, stderr, rc, RSS samples."""
    proc = subprocess.Popen([str(CLINRAG), *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env or subprocess_env(), cwd=cwd or REPO_ROOT)
    start = time.monotonic()

    def write():
        try:
            for line in lines:
                proc.stdin.write(line + b"\n")
            proc.stdin.close()
        except BrokenPipeError:
            pass

    err: list[bytes] = []
    writer = threading.Thread(target=write, daemon=True)
    reader = threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True)
    out, times = [], []
    with RssSampler(proc.pid) as rss:
        writer.start()
        reader.start()
        try:
            for raw in proc.stdout:
                out.append(raw.rstrip(b"\n"))
                times.append(time.monotonic())
                if time.monotonic() - start > timeout:
                    raise TimeoutError
            proc.wait(timeout=max(1.0, timeout - (time.monotonic() - start)))
        except (TimeoutError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
            raise AssertionError(f"clinrag {' '.join(args)} ran past {timeout} s ({len(out)} lines out)") from None
        reader.join(timeout=10)
    return {"stdout": out, "times": times, "start": start, "stderr": b"".join(err).decode("utf-8", "replace"),
            "rc": proc.returncode, "rss": rss}
