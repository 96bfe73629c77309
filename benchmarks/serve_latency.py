"""Latency that ``clinrag serve`` adds over in-process ``clinrag.run.ask`` (LLM-free default configuration).

Over every guideline-drift benchmark question (``clinrag.evals.guideline_drift.load_cases``, all splits), in the
same run, interleaved question by question:

  * in-process: ``clinrag.run.ask(question)`` (full answer) and the graph streamed in ``custom`` mode (time to
    the first clinrag event);
  * API: a real uvicorn on loopback (``clinrag.server.app:create_app`` in its own process, one worker) through a
    keep-alive httpx client: ``POST /api/ask`` (full answer) and ``POST /api/ask/stream`` (time to the first
    ``event:`` line, and to ``event: end``).

Reports p50/p95 (ms) of each and the API's overhead at p50 (goal: at most 30 ms), plus the median of the
per-question differences (API minus in-process, paired). Each question is streamed before it is asked, on both
sides, so ``ask`` and ``/api/ask`` both find the question's embedding in their process's cache: the pairs
compare like with like (first event with first event, stream end with stream end, ask with ask).
Also prints the page weight: the bytes of ``clinrag/server/static`` (index.html and its assets) when installed.

Run:  .venv/bin/python benchmarks/serve_latency.py [--repeats 3] [--json-out PATH]
Honours CLINRAG_INDEX_ROOT; the index is built (not timed) before anything is measured, and one warm-up question
is run both ways first.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import numpy as np

GOAL_MS = 30.0
STATIC = Path(__file__).resolve().parents[1] / "clinrag" / "server" / "static"


def stats_ms(values_s: list[float]) -> dict:
    ms = np.asarray(values_s) * 1000.0
    return {"n": len(ms), "p50": round(float(np.percentile(ms, 50)), 1), "p95": round(float(np.percentile(ms, 95)), 1),
            "mean": round(float(ms.mean()), 1)}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int, log_path: Path) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "uvicorn", "clinrag.server.app:create_app", "--factory", "--host", "127.0.0.1",
           "--port", str(port), "--log-level", "warning", "--no-access-log"]
    with log_path.open("w") as log:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "CLINRAG_RATE_LIMIT": "0"}  # a benchmark, not a client
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited:\n{log_path.read_text()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"the server did not start:\n{log_path.read_text()}")


def in_process(graph, question: str) -> tuple[float, float, float]:
    """(seconds to the first clinrag event, to the end of the stream, to the full answer via ``ask``)."""
    from clinrag.context import Context
    from clinrag.run import ask

    t0 = time.perf_counter()
    first = None
    for mode, _chunk in graph.stream({"question": question}, context=Context(), stream_mode=["custom", "values"]):
        if mode == "custom" and first is None:
            first = time.perf_counter() - t0
    t1 = time.perf_counter()
    ask(question)
    return first, t1 - t0, time.perf_counter() - t1


def via_api(client: httpx.Client, question: str) -> tuple[float, float, float]:
    """(seconds to the first streamed event, to the stream's end, to the full /api/ask answer)."""
    t0 = time.perf_counter()
    first = end = None
    with client.stream("POST", "/api/ask/stream", json={"question": question}) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if line.startswith("event:") and first is None:
                first = time.perf_counter() - t0
            if line == "event: end":
                end = time.perf_counter() - t0
    t1 = time.perf_counter()
    response = client.post("/api/ask", json={"question": question})
    response.raise_for_status()
    return first, end, time.perf_counter() - t1


def page_weight() -> dict:
    files = {str(p.relative_to(STATIC)): p.stat().st_size for p in sorted(STATIC.rglob("*")) if p.is_file()}
    return {"files": files, "total_bytes": sum(files.values())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeats", type=int, default=3, help="passes over the questions (default: 3)")
    parser.add_argument("--json-out", help="also write the figures as JSON here")
    args = parser.parse_args()

    from clinrag.evals.guideline_drift import load_cases
    from clinrag.graph import graph
    from clinrag.tools.index.store import get_index

    get_index()  # built (not timed) before anything is measured
    questions = [c.inputs.question for c in load_cases()]
    port = free_port()
    log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"clinrag-serve-latency-{port}.log"
    server = start_server(port, log_path)
    samples: dict[str, list[float]] = {k: [] for k in ("inproc_first", "inproc_stream_end", "inproc_full",
                                                       "api_first", "api_stream_end", "api_full")}
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
            in_process(graph, questions[0])  # warm-up, both ways
            via_api(client, questions[0])
            for _ in range(args.repeats):
                for question in questions:
                    for key, value in zip(samples, (*in_process(graph, question), *via_api(client, question)),
                                          strict=True):
                        samples[key].append(value)
    finally:
        server.terminate()
        server.wait(timeout=20)

    report = {key: stats_ms(values) for key, values in samples.items()}
    paired = {
        "first_event_ms": round(float(np.median(np.subtract(samples["api_first"], samples["inproc_first"]))) * 1e3, 1),
        "stream_end_ms": round(float(np.median(np.subtract(samples["api_stream_end"], samples["inproc_stream_end"])))
                               * 1e3, 1),
        "full_answer_ms": round(float(np.median(np.subtract(samples["api_full"], samples["inproc_full"]))) * 1e3, 1),
    }
    overhead_p50 = round(report["api_full"]["p50"] - report["inproc_full"]["p50"], 1)
    result = {"questions": len(questions), "repeats": args.repeats, "latency_ms": report,
              "api_overhead_p50_ms": overhead_p50, "api_overhead_paired_median_ms": paired,
              "goal_ms": GOAL_MS, "goal_met": overhead_p50 <= GOAL_MS, "page": page_weight()}

    print(f"{len(questions)} questions x {args.repeats} passes (ms)        p50     p95")
    names = {"inproc_first": "in-process, first event", "api_first": "API stream, first event",
             "inproc_stream_end": "in-process stream, end", "api_stream_end": "API stream, event: end",
             "inproc_full": "in-process ask(), full answer", "api_full": "API /api/ask, full answer"}
    for key in ("inproc_first", "api_first", "inproc_stream_end", "api_stream_end", "inproc_full", "api_full"):
        print(f"  {names[key]:<34} {report[key]['p50']:>7} {report[key]['p95']:>7}")
    print(f"API overhead at p50 (full answer): {overhead_p50} ms (goal <= {GOAL_MS:.0f} ms: "
          f"{'met' if result['goal_met'] else 'NOT met'}); paired median: first event {paired['first_event_ms']} ms, "
          f"stream end {paired['stream_end_ms']} ms, full answer {paired['full_answer_ms']} ms")
    page = result["page"]
    if page["files"]:
        print(f"page weight: {page['total_bytes']} bytes ("
              + ", ".join(f"{name} {size}" for name, size in page["files"].items()) + ")")
    else:
        print("page weight: no page installed in clinrag/server/static")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
