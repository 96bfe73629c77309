"""``clinrag serve`` as a subprocess and a concurrent-client load generator: the one copy used by the load tests
(tests/reliability/test_rel_load.py, tests/test_serve_postgres.py) and the scale benchmark (benchmarks/scale.py's
worker RSS and 50-client concurrency).

``served(folder, env, args)`` starts ``clinrag serve`` on a free loopback port (its own process group, the per-caller
rate limit off: a load test from one address would otherwise be answered with 429s), waits for ``/healthz`` and
yields (base URL, pid); ``hammer(url, clients, questions, ...)`` runs ``clients`` threads asking ``POST /api/ask``
in turn and returns request count, errors, p50/p95 latency and throughput; ``rss_kib(pid)`` reads VmRSS.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx

# The questions a load run asks of the built-in corpus, in turn: answered ones, a refused one (out of scope), one
# that abstains (insufficient support) and an as-of question, so that every path of the graph is under load.
LOAD_QUESTIONS = [
    "When should average-risk women start mammography?",
    "Should average-risk adults start colorectal cancer screening at 45 or 50?",
    "Who is eligible for lung cancer screening?",
    "What A1C target does the ADA suggest?",
    "Should adults take aspirin for primary prevention?",
    "How did the USPSTF prostate cancer screening recommendation change?",
    "how do I dose metformin?",
    "How often should I replace my toothbrush?",
    "Who is eligible for lung cancer screening as of 2015?",
]

CLINRAG = Path(sys.executable).parent / "clinrag"
REPO_ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int, field: str = "VmRSS") -> int | None:
    """Resident set size of a process (KiB; ``field="VmHWM"``: its peak), None once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None


def worker_pids(pid: int) -> list[int]:
    """The worker processes of ``clinrag serve --workers N`` (uvicorn's spawned children of ``pid``; not
    multiprocessing's resource tracker), or [pid] itself when it has none (one worker serves in-process)."""
    try:
        children = [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return [pid]
    spawned = [c for c in children if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]
    return spawned or [pid]


def expendable(pid: int) -> None:
    """Make ``pid`` the first process the kernel's OOM killer picks (a benchmark worker, never a neighbour's job)."""
    try:
        Path(f"/proc/{pid}/oom_score_adj").write_text("1000")
    except OSError:
        pass


@contextmanager
def served(folder: Path, env: dict[str, str] | None = None, args: Sequence[str] = (),
           startup_s: float = 180) -> Iterator[tuple[str, int]]:
    """``clinrag serve ARGS`` on a free loopback port: (base URL, pid). ``env`` is added to this process's
    environment (default chat database: ``folder/threads.sqlite``); the log is ``folder/serve.log`` and must hold
    no traceback when the server has stopped."""
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    log_path = folder / "serve.log"
    log = log_path.open("w")
    full_env = {**os.environ, "PYTHONUNBUFFERED": "1", "LANGSMITH_TRACING": "false", "CLINRAG_RATE_LIMIT": "0",
                "CLINRAG_CHAT_DB": str(folder / "threads.sqlite"), **(env or {})}
    proc = subprocess.Popen([str(CLINRAG), "serve", "--port", str(port), *args], stdout=log,
                            stderr=subprocess.STDOUT, env=full_env, cwd=REPO_ROOT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    expendable(proc.pid)  # inherited by the workers it spawns
    try:
        deadline = time.monotonic() + startup_s
        while True:
            assert proc.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, f"no /healthz after {startup_s} s:\n{log_path.read_text()}"
            try:
                if httpx.get(f"{url}/healthz", timeout=startup_s).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.3)
        yield url, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait(timeout=10)
        log.close()
    assert "Traceback" not in log_path.read_text(), log_path.read_text()


def hammer(url: str, clients: int, questions: Sequence[str], per_client: int | None = None,
           seconds: float | None = None) -> dict:
    """``clients`` threads asking in turn, ``per_client`` questions each or for ``seconds``; latencies, errors.
    An error is a transport failure, a non-200 status or a body whose decision is not answer / abstain."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds if seconds else None

    def client(n: int):
        with httpx.Client(timeout=600) as http:
            i = 0
            while (per_client is None or i < per_client) and (stop_at is None or time.monotonic() < stop_at):
                q = questions[(n + i) % len(questions)]
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
