"""Query-time speed: clinrag's fast path against the straightforward path, in one run.

* fast: ONNX Runtime encoders (no torch import), sentence-pair NLI scores precomputed at index time and cached.
* straightforward: torch + sentence-transformers encoders (``CLINRAG_MODEL_RUNTIME=torch``), every sentence pair
  scored by the NLI backend on every question, as before issue 7.
* answerability: the fast path with the answerability cross-encoder on for every source type (weight
  --answerability-weight, at most --answerability-top-n candidates scored per question; ONNX Runtime): what the
  support score costs when the model is used, beside the shipped setting.

Every measurement runs in fresh child processes of this script (one process tree), same index, same questions:

* cold start, whole process: ``clinrag ask --json QUESTION`` as a user runs it (interpreter start to exit),
  median of --process-runs, alternated in the same run with a bare ``python -c "import langgraph.graph,
  langchain_core.messages, pydantic"`` (what any LangGraph app pays); the difference is clinrag's own share
* cold start: process launch to first answer (imports, model and index load, one question); median of --cold-runs
* warm: ``ask()`` over all guideline-drift questions (contradiction check on), p50/p95, after one warm-up
  question; query vectors are evicted between passes (pair scores stay: that is what the cache is for)
* pool: the contradiction check alone on a pool of 20 related PubMedQA abstracts (data directory), models
  loaded: cold (abstracts never seen: split, embedded, every pair scored), uncached (sentence vectors as the
  index stores them, every pair scored) and, fast path only, precomputed (sentence vectors and pair scores as
  an index build stores them); the straightforward path's "precomputed" is its uncached time

    .venv/bin/python benchmarks/query_speed.py [--repeats 2] [--cold-runs 3] [--process-runs 5] [--cold-start-only]
        [--paths fast straightforward answerability] [--answerability-top-n 10] [--json-out PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from query_latency import stats_ms

HERE = Path(__file__).resolve().parent
# the goals (each also >= 5x the straightforward path); never-seen abstracts have none (None)
GOALS = {"cold_start_s": 1.5, "warm_p50_ms": 250, "warm_p95_ms": 600, "pool_cold_s": None, "pool_uncached_s": 1.0,
         "pool_precomputed_s": 0.05}
# whole `clinrag ask --json` process: total, and clinrag's share over the bare imports below
PROCESS_GOALS = {"ask_s": 1.5, "clinrag_share_s": 0.5}
# the answerability cross-encoder on (issue 13): warm per question, and what it may add to the cold start
ANSWERABILITY_GOALS = {"warm_p50_ms": 100, "warm_p95_ms": 250, "cold_extra_s": 0.2}
BARE_IMPORTS = "import langgraph.graph, langchain_core.messages, pydantic"

CHILD = r"""
import json, sys, time, warnings
launch = float(sys.argv[1]); mode = sys.argv[2]; path = sys.argv[3]; arg = sys.argv[4]
warnings.filterwarnings("ignore")
if path == "straightforward":
    # every pair scored on every question: no stored pair scores, no pair-score cache
    from clinrag.tools.nli import contradiction, pair_scores
    pair_scores.load_pair_scores = lambda *a, **k: 0
    contradiction.score_pairs = lambda backend, pairs: backend.predict(pairs)
if path.startswith("answerability"):
    # answerability:WEIGHT:TOP_N: the cross-encoder in the support score of every source type
    from clinrag.tools.retrieval import answerability
    _, weight, top_n = path.split(":")
    answerability.ANSWERABILITY_MODEL = "cross-encoder"
    answerability.ANSWERABILITY_WEIGHT = answerability.ABSTRACT_ANSWERABILITY_WEIGHT = float(weight)
    answerability.CROSS_ENCODER_TOP_N = int(top_n)
out = {}
if mode == "cold":
    from clinrag.run import ask
    result = ask(arg)
    out = {"first_answer_s": time.time() - launch, "decision": result.decision}
elif mode == "warm":
    sys.path.insert(0, HERE)
    from query_speed import warm
    out = warm(json.loads(arg))
elif mode == "pool":
    sys.path.insert(0, HERE)
    from query_speed import pool
    out = pool(path)
out["torch_imported"] = "torch" in sys.modules
print("@@RESULT@@" + json.dumps(out))
""".replace("HERE", repr(str(HERE)))


def child(mode: str, path: str, arg: str = "") -> dict:
    env = {**os.environ, "PYTHONWARNINGS": "ignore",
           "CLINRAG_MODEL_RUNTIME": "torch" if path == "straightforward" else "auto"}
    proc = subprocess.run([sys.executable, "-c", CHILD, repr(time.time()), mode, path, arg], capture_output=True,
                          text=True, env=env)
    line = next((x for x in proc.stdout.splitlines() if x.startswith("@@RESULT@@")), None)
    if proc.returncode != 0 or line is None:
        raise RuntimeError(f"{mode}/{path} child failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return json.loads(line.removeprefix("@@RESULT@@"))


def _timed_process(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds user + system) of one child process; CPU time is less sensitive to load."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd[:3]} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cold_start_process(question: str, runs: int) -> dict:
    """Whole ``clinrag ask --json`` processes and bare-import processes, alternated (same machine load), after
    one untimed ``clinrag ask`` (index built, files in the OS cache); medians and clinrag's share."""
    ask_cmd = [str(Path(sys.executable).with_name("clinrag")), "ask", "--json", question]
    bare_cmd = [sys.executable, "-c", BARE_IMPORTS]
    _timed_process(ask_cmd)
    ask, bare = [], []
    for _ in range(runs):
        bare.append(_timed_process(bare_cmd))
        ask.append(_timed_process(ask_cmd))
    (ask_med, ask_cpu), (bare_med, bare_cpu) = np.median(ask, axis=0), np.median(bare, axis=0)
    return {"runs": runs, "ask_s": round(ask_med, 3), "bare_imports_s": round(bare_med, 3),
            "clinrag_share_s": round(ask_med - bare_med, 3), "ask_runs_s": [round(x, 3) for x, _ in ask],
            "bare_imports_runs_s": [round(x, 3) for x, _ in bare], "ask_cpu_s": round(ask_cpu, 3),
            "bare_imports_cpu_s": round(bare_cpu, 3), "clinrag_share_cpu_s": round(ask_cpu - bare_cpu, 3)}


def print_cold_start_process(cs: dict) -> None:
    print(f"cold start, whole process (median of {cs['runs']}): `clinrag ask --json` {cs['ask_s']:.3f} s | "
          f"bare `{BARE_IMPORTS}` {cs['bare_imports_s']:.3f} s | clinrag's share {cs['clinrag_share_s']:.3f} s")
    print(f"  CPU time (user + system, medians): ask {cs['ask_cpu_s']:.3f} s | bare {cs['bare_imports_cpu_s']:.3f} s "
          f"| clinrag's share {cs['clinrag_share_cpu_s']:.3f} s")
    verdicts = [f"{k} <= {g}: {'ok' if cs[k] <= g else 'MISSED'}" for k, g in PROCESS_GOALS.items()]
    print(f"  goals: {'; '.join(verdicts)}; runs: ask {cs['ask_runs_s']}, bare {cs['bare_imports_runs_s']}")


def warm(spec: dict) -> dict:
    """In a child: warm ask() latency over the questions."""
    from clinrag.context import Context
    from clinrag.run import ask
    from clinrag.tools.index import embeddings

    ctx = Context()
    ask("Which organizations issue guidance on colorectal cancer screening?", ctx)  # warm-up, not a case
    index_sentences = set(embeddings._cache)
    times = []
    for _ in range(spec["repeats"]):
        embeddings.forget_cached([k for k in embeddings._cache if k not in index_sentences])  # query vectors
        for q in spec["questions"]:
            t0 = time.perf_counter()
            ask(q, ctx)
            times.append(time.perf_counter() - t0)
    return {"warm": stats_ms(times)}


def pool(path: str) -> dict:
    """In a child: the contradiction check on a 20-abstract pool, models loaded. cold: nothing seen before
    (sentences split and embedded, pairs scored); uncached: sentence vectors primed as an index stores them, every
    pair scored; precomputed (fast path): sentence vectors and pair scores as an index build stores them."""
    import tempfile

    from nli_speed import pubmedqa_pool

    from clinrag.context import Context
    from clinrag.tools.index import embeddings
    from clinrag.tools.index.text import split_sentences
    from clinrag.tools.nli import pair_scores
    from clinrag.tools.nli.backends import get_nli_backend
    from clinrag.tools.nli.contradiction import contradiction_graph

    ctx = Context()
    texts = pubmedqa_pool(20)
    backend = get_nli_backend(ctx.nli_backend)
    contradiction_graph({"x": "Aspirin lowers risk. It works.", "y": "Aspirin does not lower risk."}, backend)  # load
    t0 = time.perf_counter()
    edges, _ = contradiction_graph(texts, backend, ctx.pair_similarity_threshold)
    out = {"pool_cold_s": time.perf_counter() - t0, "pool_edges": len(edges)}
    doc_of = [(s, d) for d, t in texts.items() for s in split_sentences(t)]
    sentences = [s for s, _ in doc_of]
    vectors = embeddings.embed_texts(sentences)
    out["pool_sentences"] = len(sentences)
    if path == "fast":
        pair_scores.forget_pair_scores()
    embeddings.forget_cached(sentences)
    embeddings.prime_cache(sentences, vectors)  # what loading the index does
    t0 = time.perf_counter()
    contradiction_graph(texts, backend, ctx.pair_similarity_threshold)
    out["pool_uncached_s"] = time.perf_counter() - t0
    if path == "fast":
        with tempfile.TemporaryDirectory() as tmp:
            out["pool_pairs_precomputed"] = pair_scores.precompute_pair_scores(
                Path(tmp), sentences, [d for _, d in doc_of], vectors, dict.fromkeys(texts), backend,
                ctx.pair_similarity_threshold)
            pair_scores.forget_pair_scores()
            pair_scores.load_pair_scores(Path(tmp), sentences, backend)
        t0 = time.perf_counter()
        edges2, _ = contradiction_graph(texts, backend, ctx.pair_similarity_threshold)
        out.update(pool_precomputed_s=time.perf_counter() - t0, same_edges=edges2 == edges)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--cold-runs", type=int, default=3)
    ap.add_argument("--process-runs", type=int, default=5, help="whole `clinrag ask --json` processes (median)")
    ap.add_argument("--cold-start-only", action="store_true", help="only the whole-process cold start")
    ap.add_argument("--paths", nargs="+", choices=("fast", "straightforward", "answerability"),
                    default=["fast", "straightforward", "answerability"])
    ap.add_argument("--answerability-weight", type=float, default=0.5,
                    help="answerability path: the cross-encoder's weight in every source type's support score")
    ap.add_argument("--answerability-top-n", type=int, default=None,
                    help="answerability path: candidates scored per question (default: CROSS_ENCODER_TOP_N)")
    ap.add_argument("--json-out")
    args = ap.parse_args()
    if args.answerability_top_n is None:
        from clinrag.tools.retrieval.answerability import CROSS_ENCODER_TOP_N

        args.answerability_top_n = CROSS_ENCODER_TOP_N

    from clinrag.context import Context
    from clinrag.evals.guideline_drift import load_cases
    from clinrag.tools.index.store import get_index

    ctx = Context()
    load_start = os.getloadavg()
    get_index(ctx.corpus_path, ctx.index_dir)  # build (untimed) so no measurement includes it
    cases = load_cases()
    questions = [c.inputs.question for c in cases]
    cold_q = next(c.inputs.question for c in cases if c.outputs.decision == "answer")
    result: dict = {"nli_backend": ctx.nli_backend, "n_questions": len(questions), "repeats": args.repeats}
    print(f"cold start, whole process x {args.process_runs} ...", file=sys.stderr, flush=True)
    result["cold_start_process"] = cold_start_process(cold_q, args.process_runs)
    if args.cold_start_only:
        print_cold_start_process(result["cold_start_process"])
        print(f"load average {load_start} -> {tuple(round(x, 2) for x in os.getloadavg())}")
        if args.json_out:
            Path(args.json_out).write_text(json.dumps(result, indent=2))
        return 0
    answerability_path = f"answerability:{args.answerability_weight}:{args.answerability_top_n}"
    if "answerability" in args.paths:
        from clinrag.tools.index.onnx_models import export_answerability

        export_answerability()  # untimed, as `clinrag index build` does
    for path in args.paths:
        label, path = path, answerability_path if path == "answerability" else path
        print(f"[{label}] cold starts ...", file=sys.stderr, flush=True)
        colds = [child("cold", path, cold_q) for _ in range(args.cold_runs)]
        print(f"[{label}] warm passes over {len(questions)} questions ...", file=sys.stderr, flush=True)
        warm_stats = child("warm", path, json.dumps({"questions": questions, "repeats": args.repeats}))
        result[label] = {
            "cold_start_s": round(float(np.median([c["first_answer_s"] for c in colds])), 3),
            "cold_runs_s": [round(c["first_answer_s"], 3) for c in colds],
            "torch_imported_in_query": colds[0]["torch_imported"],
            "warm_p50_ms": warm_stats["warm"]["p50"], "warm_p95_ms": warm_stats["warm"]["p95"],
        }
        if label == "answerability":
            result[label].update(weight=args.answerability_weight, top_n=args.answerability_top_n)
            continue  # the contradiction pool does not read the support score
        print(f"[{label}] 20-abstract pool ...", file=sys.stderr, flush=True)
        pool_stats = child("pool", path)
        result[label].update({
            "pool_cold_s": round(pool_stats["pool_cold_s"], 3),
            "pool_uncached_s": round(pool_stats["pool_uncached_s"], 3),
            "pool_edges": pool_stats["pool_edges"], "pool_sentences": pool_stats["pool_sentences"],
        })
        if "pool_precomputed_s" in pool_stats:
            result[label]["pool_precomputed_s"] = round(pool_stats["pool_precomputed_s"], 4)
            result[label]["pool_precomputed_same_edges"] = pool_stats["same_edges"]
            result[label]["pool_pairs_precomputed"] = pool_stats["pool_pairs_precomputed"]
    if "fast" in result and "straightforward" in result:
        fast, slow = result["fast"], result["straightforward"]
        slow["pool_precomputed_s"] = slow["pool_uncached_s"]  # the straightforward path has no precomputed graph
        print(f"{'measure':22s} {'fast':>10s} {'straightfwd':>12s} {'ratio':>7s} {'goal':>8s}")
        for key, goal in GOALS.items():
            ratio = slow[key] / fast[key] if fast[key] else float("inf")
            result.setdefault("ratios", {})[key] = round(ratio, 1)
            verdict = "-" if goal is None else "ok" if fast[key] <= goal and ratio >= 5 else "MISSED"
            shown_goal = goal if goal is not None else "-"
            print(f"{key:22s} {fast[key]:10.3f} {slow[key]:12.3f} {ratio:6.1f}x {shown_goal:>8} {verdict}")
    if "fast" in result and "answerability" in result:
        fast, ans = result["fast"], result["answerability"]
        result["answerability_goals"] = {
            "warm_p50_ms <= 100": ans["warm_p50_ms"] <= ANSWERABILITY_GOALS["warm_p50_ms"],
            "warm_p95_ms <= 250": ans["warm_p95_ms"] <= ANSWERABILITY_GOALS["warm_p95_ms"],
            "cold start + <= 0.2 s": ans["cold_start_s"] - fast["cold_start_s"] <= ANSWERABILITY_GOALS["cold_extra_s"]}
        print(f"answerability cross-encoder on (w {ans['weight']}, top {ans['top_n']}): warm p50 "
              f"{ans['warm_p50_ms']:.1f} ms (shipped path {fast['warm_p50_ms']:.1f}), p95 {ans['warm_p95_ms']:.1f} ms "
              f"({fast['warm_p95_ms']:.1f}), cold start {ans['cold_start_s']:.3f} s ({fast['cold_start_s']:.3f}); "
              + "; ".join(f"{k}: {'ok' if v else 'MISSED'}" for k, v in result["answerability_goals"].items()))
    print_cold_start_process(result["cold_start_process"])
    if "fast" in result and "pool_pairs_precomputed" in result["fast"]:
        fast = result["fast"]
        print(f"pool: {fast['pool_sentences']} sentences, {fast['pool_edges']} document pairs with a kept sentence "
              f"pair, {fast['pool_pairs_precomputed']} sentence pairs precomputed; same edges from the stored graph: "
              f"{fast['pool_precomputed_same_edges']}")
        print(f"torch imported by the fast query process: {fast['torch_imported_in_query']}; "
              f"NLI backend {ctx.nli_backend}; load average {load_start} -> "
              f"{tuple(round(x, 2) for x in os.getloadavg())}")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
