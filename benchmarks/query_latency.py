"""End-to-end query latency of clinrag (LLM-free default configuration).

Measures:
  * cold start: a fresh ``python -c`` subprocess running ``clinrag.run.ask(question)`` once; reports the
    subprocess wall time (as seen by the parent) and, inside it, interpreter start, imports and the first
    answer (which includes loading the encoder and the already-built index). Median of ``--cold-runs``.
  * warm: in-process, after one warm-up question, every guideline-drift case (all splits) through ``ask()``;
    p50/p95/mean/max ms over all questions and split by the decision actually taken (answer / abstain), per
    pass, and of each question's fastest pass (robust to bursts of load from other processes).
    Query embeddings are evicted from clinrag's per-process embedding cache before every pass, so repeated
    passes do not get cached query vectors (``--keep-query-cache`` to disable that).
  * per node: the compiled graph through ``graph.stream(..., stream_mode="updates")``; each node's time is the
    gap since the previous update; p50 per node.

Run:  .venv/bin/python benchmarks/query_latency.py [--repeats 3] [--cold-runs 3] [--json-out PATH]
Honours CLINRAG_INDEX_ROOT; the index is built (not timed) before anything is measured.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import warnings
from collections import defaultdict
from pathlib import Path

import numpy as np

warnings.filterwarnings("ignore", category=DeprecationWarning)

CHILD = r"""
import sys, time, json, warnings
t_start = time.time()
warnings.filterwarnings("ignore", category=DeprecationWarning)
from clinrag.run import ask
from clinrag.graph import graph
t_imported = time.time()
result = ask(sys.argv[2])
t_answered = time.time()
print("@@RESULT@@" + json.dumps({"interpreter_start_s": t_start - float(sys.argv[1]),
      "imports_s": t_imported - t_start, "first_answer_s": t_answered - t_imported,
      "in_process_total_s": t_answered - t_start, "decision": result.decision}))
"""


def stats_ms(values_s: list[float]) -> dict:
    if not values_s:
        return {"n": 0}
    ms = np.asarray(values_s) * 1000.0
    return {"n": len(ms), "p50": round(float(np.percentile(ms, 50)), 1), "p95": round(float(np.percentile(ms, 95)), 1),
            "mean": round(float(ms.mean()), 1), "max": round(float(ms.max()), 1)}


def cold_start(question: str, runs: int) -> dict:
    samples = []
    for _ in range(runs):
        launch = time.time()
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", CHILD, repr(launch), question], capture_output=True, text=True,
                              env={**os.environ, "PYTHONWARNINGS": "ignore"})
        wall = time.perf_counter() - t0
        line = next((l for l in proc.stdout.splitlines() if l.startswith("@@RESULT@@")), None)
        if proc.returncode != 0 or line is None:
            raise RuntimeError(f"cold-start child failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        samples.append({"subprocess_wall_s": wall, **json.loads(line.removeprefix("@@RESULT@@"))})
    keys = ["subprocess_wall_s", "interpreter_start_s", "imports_s", "first_answer_s", "in_process_total_s"]
    return {"question": question, "runs": samples,
            "median": {k: round(float(np.median([s[k] for s in samples])), 3) for k in keys}}


def evict_queries(baseline: set[str]) -> None:
    """Drop every embedding cached since ``baseline`` was taken (question vectors), keeping index sentences."""
    from clinrag.tools.index import embeddings

    for key in [k for k in embeddings._cache if k not in baseline]:
        del embeddings._cache[key]


def warm_passes(questions: list[str], repeats: int, baseline: set[str] | None) -> dict:
    from clinrag.context import Context
    from clinrag.run import ask

    ctx = Context()
    by_decision: dict[str, list[float]] = defaultdict(list)
    every, per_pass, per_question = [], [], [[] for _ in questions]
    for _ in range(repeats):
        if baseline is not None:
            evict_queries(baseline)
        times = []
        for i, q in enumerate(questions):
            t0 = time.perf_counter()
            result = ask(q, ctx)
            dt = time.perf_counter() - t0
            times.append(dt)
            per_question[i].append(dt)
            by_decision[result.decision].append(dt)
        every += times
        per_pass.append(stats_ms(times))
    return {"all": stats_ms(every), "answered": stats_ms(by_decision["answer"]),
            "abstained": stats_ms(by_decision["abstain"]), "per_pass": per_pass,
            "min_over_passes": stats_ms([min(t) for t in per_question])}


def node_breakdown(questions: list[str], repeats: int, baseline: set[str] | None) -> dict:
    from clinrag.context import Context
    from clinrag.graph import graph

    ctx = Context()
    per_node: dict[str, list[float]] = defaultdict(list)
    for _ in range(repeats):
        if baseline is not None:
            evict_queries(baseline)
        for q in questions:
            last = time.perf_counter()
            for update in graph.stream({"question": q}, context=ctx, stream_mode="updates"):
                now = time.perf_counter()
                for node in update:
                    per_node[node].append(now - last)
                last = now
    return {node: stats_ms(v) for node, v in per_node.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--cold-runs", type=int, default=3)
    ap.add_argument("--keep-query-cache", action="store_true", help="let repeated passes reuse cached query vectors")
    ap.add_argument("--json-out")
    args = ap.parse_args()
    t_script = time.perf_counter()

    from rich.console import Console
    from rich.table import Table

    from clinrag.context import Context
    from clinrag.evals.guideline_drift import load_cases
    from clinrag.run import ask
    from clinrag.tools.index import embeddings
    from clinrag.tools.index.store import get_index

    console = Console()
    ctx = Context()
    load_start = os.getloadavg()
    get_index(ctx.corpus_path, ctx.index_dir)  # build (untimed) so that neither measurement includes it
    cases = load_cases()
    questions = [c.inputs.question for c in cases]
    cold_q = next(c.inputs.question for c in cases if c.outputs.decision == "answer")

    cold = cold_start(cold_q, args.cold_runs)
    ask("Which organizations issue guidance on colorectal cancer screening?", ctx)  # warm-up, not a case
    baseline = None if args.keep_query_cache else set(embeddings._cache)
    warm = warm_passes(questions, args.repeats, baseline)
    nodes = node_breakdown(questions, args.repeats, baseline)
    load_end = os.getloadavg()

    console.print(f"[bold]cold start[/] ({args.cold_runs} runs, median) question: {cold_q!r}")
    for k, v in cold["median"].items():
        console.print(f"  {k:22s} {v:8.3f} s   runs: {', '.join(f'{s[k]:.3f}' for s in cold['runs'])}")
    table = Table(title=f"warm ask() latency, ms ({len(questions)} questions x {args.repeats} passes)")
    for col in ("set", "n", "p50", "p95", "mean", "max"):
        table.add_column(col, justify="right" if col != "set" else "left")
    rows = [("all", warm["all"]), ("answered", warm["answered"]), ("abstained", warm["abstained"])]
    rows += [(f"pass {i + 1}", s) for i, s in enumerate(warm["per_pass"])]
    rows.append(("per-question min over passes", warm["min_over_passes"]))
    for name, s in rows:
        table.add_row(name, *[str(s.get(c, "-")) for c in ("n", "p50", "p95", "mean", "max")])
    console.print(table)
    ntable = Table(title="per-node latency (graph.stream updates), ms")
    for col in ("node", "n", "p50", "p95", "mean"):
        ntable.add_column(col, justify="right" if col != "node" else "left")
    for node, s in nodes.items():
        ntable.add_row(node, *[str(s[c]) for c in ("n", "p50", "p95", "mean")])
    console.print(ntable)
    elapsed = time.perf_counter() - t_script
    console.print(f"load average (1/5/15 min) at start {load_start}, at end {tuple(round(x, 2) for x in load_end)}; "
                  f"{os.cpu_count()} CPUs; script time {elapsed:.1f} s")
    if args.json_out:
        payload = {"cold_start": cold, "warm": warm, "nodes": nodes, "repeats": args.repeats,
                   "query_cache_evicted": baseline is not None, "n_questions": len(questions),
                   "loadavg_start": load_start, "loadavg_end": load_end, "cpus": os.cpu_count(),
                   "script_s": round(elapsed, 1)}
        Path(args.json_out).write_text(json.dumps(payload, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
