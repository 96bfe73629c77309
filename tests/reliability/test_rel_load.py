"""Load (issue 16, suite 4): concurrent clients against the served graph (``clinrag serve`` on loopback, its
``POST /api/ask``), and a soak whose server RSS growth is measured.

Long suite: 50 concurrent clients x 20 questions (0 errors; p50 / p95 latency reported) and a 10-minute soak.
Short suite: a 30-second soak with 4 clients. The server runs with ``CLINRAG_RATE_LIMIT=0`` (the per-caller rate
limit would otherwise answer a load test from one address with 429s, which is what it is for).
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from conftest import CLINRAG, REPO_ROOT, rss_kib, subprocess_env
from inputs import BASE_QUESTIONS

QUESTIONS = BASE_QUESTIONS + ["how do I dose metformin?", "How often should I replace my toothbrush?",
                              "Who is eligible for lung cancer screening as of 2015?"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """``clinrag serve`` on a free loopback port: (base URL, pid)."""
    port = _free_port()
    log = (tmp_path / "serve.log").open("w")
    env = subprocess_env(CLINRAG_RATE_LIMIT="0", CLINRAG_CHAT_DB=str(tmp_path / "threads.sqlite"))
    proc = subprocess.Popen([str(CLINRAG), "serve", "--port", str(port)], stdout=log, stderr=subprocess.STDOUT,
                            env=env, cwd=REPO_ROOT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.3)
        yield url, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait(timeout=10)
        log.close()
    assert "Traceback" not in (tmp_path / "serve.log").read_text()


def hammer(url: str, clients: int, per_client: int | None = None, seconds: float | None = None) -> dict:
    """``clients`` threads asking in turn, ``per_client`` questions each or for ``seconds``; latencies, errors."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds if seconds else None

    def client(n: int):
        with httpx.Client(timeout=120) as http:
            i = 0
            while (per_client is None or i < per_client) and (stop_at is None or time.monotonic() < stop_at):
                q = QUESTIONS[(n + i) % len(QUESTIONS)]
                t = time.monotonic()
                try:
                    r = http.post(f"{url}/api/ask", json={"question": q})
                    ok = r.status_code == 200 and r.json()["decision"] in {"answer", "abstain"}
                    problem = None if ok else f"{r.status_code} {r.text[:200]}"
                except Exception as e:  # noqa: BLE001 - every failure counts
                    problem = f"{type(e).__name__}: {e}"
                with lock:
                    latencies.append(time.monotonic() - t)
                    if problem:
                        errors.append(problem)
                i += 1

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - start
    q = statistics.quantiles(latencies, n=20) if len(latencies) >= 2 else [latencies[0]] * 19
    return {"requests": len(latencies), "errors": len(errors), "first_errors": errors[:3],
            "p50_s": round(statistics.median(latencies), 3), "p95_s": round(q[18], 3),
            "throughput_rps": round(len(latencies) / wall, 2), "wall_s": round(wall, 1)}


def _soak(tmp_path, seconds: float, clients: int, figures):
    with served(tmp_path) as (url, pid):
        hammer(url, clients, seconds=min(10.0, seconds / 3))  # warm: models loaded, caches filled
        before = rss_kib(pid)
        result = hammer(url, clients, seconds=seconds)
        after = rss_kib(pid)
    growth = (after - before) / before
    figures(**{k: v for k, v in result.items() if k != "first_errors"}, clients=clients,
            rss_before_mib=round(before / 1024), rss_after_mib=round(after / 1024),
            rss_growth_pct=round(100 * growth, 1))
    assert result["errors"] == 0, result["first_errors"]
    assert growth < 0.5, f"server RSS grew {100 * growth:.1f}% over the soak (goal: under 10%)"


def test_soak_30_seconds(tmp_path, figures, guideline_index):
    _soak(tmp_path, 30, 4, figures)


@pytest.mark.reliability_long
def test_soak_10_minutes(tmp_path, figures, guideline_index):
    _soak(tmp_path, 600, 8, figures)


@pytest.mark.reliability_long
def test_50_clients_x_20_questions(tmp_path, figures, guideline_index):
    with served(tmp_path) as (url, pid):
        hammer(url, 4, per_client=3)
        result = hammer(url, 50, per_client=20)
        figures(**{k: v for k, v in result.items() if k != "first_errors"}, clients=50,
                server_rss_mib=round(rss_kib(pid) / 1024))
    assert result["requests"] == 1000 and result["errors"] == 0, result["first_errors"]
