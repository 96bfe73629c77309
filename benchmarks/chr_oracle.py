"""CHR's retrieval mechanism under oracle hypotheses, its baselines, a lambda sweep, and the LLM-free numbers.

ORACLE HYPOTHESES (H+ = the correct option's text, H- = the distractor most similar to the question) give an
UPPER BOUND OF THE RETRIEVAL MECHANISM, NOT END-TO-END ACCURACY: what the top 5 of each retriever lets the
LLM-free option-support answerer conclude when the hypotheses are right.

Steps (corpus: the MedQuAD disease descriptions, built and indexed on first use; K = 5):
  1. tune lambda and the first-stage pool of CHR on the diagnosis-style questions of MMLU-Med and MedMCQA only
     (grid: lambda {0, 0.25, ..., 1.5} x pool {20, 50, 100, 200, 500, 1000}; ties prefer lambda nearest 1.0, then the
     smaller pool; pools 2000 and the whole corpus are shown for the trend, not chosen);
  2. on MedQA diagnosis questions (reported, never tuned on): every retriever with oracle hypotheses through the
     harness (`clinrag eval chr` code path): accuracy, mimic_share_top5, retrieval latency (query encoding
     included), and the overlap statistic (CHR right, HyDE wrong: share with no shared top-5 passage); then CHR
     and HyDE again at the Context defaults (lambda 1.0, pool floor 50 grown to 2% of the corpus);
  3. the lambda sweep on MedQA and on the tuning set at the chosen pool (and at the default pool 50);
  4. LLM-free option hypotheses (no oracle) on MedQA: every retriever, answer accuracy and H+ accuracy
     beside chance.

Run:  .venv/bin/python benchmarks/chr_oracle.py [--limit N] [--json-out PATH] [--skip-options]
Honours CLINRAG_DATA_DIR and CLINRAG_INDEX_ROOT. Prints markdown tables. Runs torch on one thread.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings

import numpy as np

warnings.filterwarnings("ignore", category=DeprecationWarning)
LAMBDAS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5)
POOLS = (20, 50, 100, 200, 500, 1000)
# Shown, never chosen: with oracle hypotheses accuracy keeps rising as the pool grows, up to the whole corpus,
# where the query no longer matters at all (the degenerate limit of an oracle H+).
EXTRA_POOLS = (2000, 0)  # 0 = every passage
DEFAULT_LAMBDA, DEFAULT_POOL = 1.0, 50  # the Context defaults (50 = the floor; the pool grows with the corpus)


def sweep(index, questions, lambdas, pools) -> dict[tuple[float, int], dict]:
    """Oracle CHR accuracy and mimic share for every (lambda, pool); answers memoized per top-5 list.

    The pool is taken as given (corpus scaling off): each grid point is an exact first-stage pool per ranking."""
    from clinrag import options

    fraction, options.POOL_FRACTION = options.POOL_FRACTION, 0.0
    try:
        return _sweep(index, questions, lambdas, pools)
    finally:
        options.POOL_FRACTION = fraction


def _sweep(index, questions, lambdas, pools) -> dict[tuple[float, int], dict]:
    from clinrag.tools.retrieval.option_support import answer_from_passages, oracle_hypotheses
    from clinrag.tools.retrieval.retrievers import chr_search, mimic_share

    hyps = {q.id: oracle_hypotheses(q.question, q.options, q.answer).hypotheses for q in questions}
    answers: dict[tuple, str | None] = {}
    out = {}
    for pool in pools:
        for lam in lambdas:
            correct, shares = [], []
            for q in questions:
                h = hyps[q.id]
                rows = chr_search(index, q.question, h.target, h.mimic, lam, pool, 5).rows
                key = (q.id, tuple(rows))
                if key not in answers:
                    answers[key] = answer_from_passages(index, q.options, rows)[0]
                correct.append(int(answers[key] == q.answer))
                shares.append(mimic_share(index, rows, h.target, h.mimic))
            out[(lam, pool)] = {"accuracy": round(float(np.mean(correct)), 4),
                                "mimic_share_top5": round(float(np.mean(shares)), 4)}
    return out


def choose(grid: dict[tuple[float, int], dict]) -> tuple[float, int]:
    return max(grid, key=lambda lp: (grid[lp]["accuracy"], -abs(lp[0] - 1.0), -lp[1]))


def harness(index, questions, hypotheses: str, lam: float, pool: int, retrievers: list[str] | None = None):
    from clinrag.evals.chr import report, run_experiment
    from clinrag.evals.chr_pipeline import HarnessSettings
    from clinrag.tools.retrieval.retrievers import RETRIEVERS

    settings = HarnessSettings(retrievers=retrievers or list(RETRIEVERS), hypotheses=hypotheses, lam=lam, pool=pool,
                               k=5)
    start = time.perf_counter()
    rows = run_experiment(questions, index, settings)
    result = report(rows, settings)
    result["wall_s"] = round(time.perf_counter() - start, 1)
    return rows, result


def sweep_table(grid: dict, pool: int, title: str) -> str:
    lines = [f"**{title} (pool {pool})**", "", "| lambda | " + " | ".join(str(l) for l in LAMBDAS) + " |",
             "|" + " --- |" * (len(LAMBDAS) + 1)]
    for metric in ("accuracy", "mimic_share_top5"):
        lines.append(f"| {metric} | " + " | ".join(str(grid[(l, pool)][metric]) for l in LAMBDAS) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, help="first N questions of each set (development runs)")
    parser.add_argument("--json-out")
    parser.add_argument("--skip-options", action="store_true", help="skip the LLM-free option-hypothesis run")
    args = parser.parse_args()
    os.environ.setdefault("LANGSMITH_TRACING", "false")
    import torch

    # One intra-op thread: on a shared 2-core machine two threads thrash under load (a MedQA vignette took
    # 0.2-1.4 s to encode with two threads and 80-90 ms with one, measured side by side).
    torch.set_num_threads(1)

    from clinrag.evals.chr import markdown_table
    from clinrag.evals.chr_data import built_corpus, ensure_index, load_mirage, select

    t0 = time.perf_counter()
    index = ensure_index(built_corpus("medquad"))
    print(f"MedQuAD disease-description index: {len(index.docs)} documents, {len(index.passages)} passages "
          f"(ready in {time.perf_counter() - t0:.0f} s); load average {os.getloadavg()[0]:.1f}", flush=True)
    limit = args.limit
    tune = select(load_mirage("mmlu"), "diagnosis")[:limit] + select(load_mirage("medmcqa"), "diagnosis")[:limit]
    test = select(load_mirage("medqa"), "diagnosis")[:limit]
    print(f"tuning: {len(tune)} MMLU-Med + MedMCQA diagnosis questions; "
          f"reporting: {len(test)} MedQA diagnosis questions")

    start = time.perf_counter()
    extra = tuple(p or len(index.passages) for p in EXTRA_POOLS)
    tune_grid = sweep(index, tune, LAMBDAS, POOLS + extra)
    lam, pool = choose({lp: v for lp, v in tune_grid.items() if lp[1] in POOLS})
    print(f"\n## 1. Tuning (oracle, MMLU-Med + MedMCQA diagnosis, {time.perf_counter() - start:.0f} s): "
          f"lambda = {lam}, pool = {pool}\n")
    print("| pool \\ lambda | " + " | ".join(str(l) for l in LAMBDAS) + " |\n|" + " --- |" * (len(LAMBDAS) + 1))
    for p in POOLS + extra:
        name = f"{p} (trend only{', whole corpus' if p == len(index.passages) else ''})" if p in extra else str(p)
        print(f"| {name} | " + " | ".join(str(tune_grid[(l, p)]["accuracy"]) for l in LAMBDAS) + " |")

    print(f"\n## 2. MedQA diagnosis, oracle hypotheses, every retriever (lambda {lam}, pool {pool})\n")
    oracle_rows, oracle = harness(index, test, "oracle", lam, pool)
    print(markdown_table(oracle))
    print(f"\n({oracle['wall_s']} s)")
    print(f"\n### 2b. CHR and HyDE at the Context defaults (lambda {DEFAULT_LAMBDA}, pool {DEFAULT_POOL})\n")
    _, at_default = harness(index, test, "oracle", DEFAULT_LAMBDA, DEFAULT_POOL, retrievers=["chr", "hyde"])
    print(markdown_table(at_default))

    start = time.perf_counter()
    pools = sorted({pool, DEFAULT_POOL})
    test_grid = sweep(index, test, LAMBDAS, pools)
    print(f"\n## 3. Lambda sweep (oracle CHR, {time.perf_counter() - start:.0f} s)\n")
    for p in pools:
        print(sweep_table(test_grid, p, "MedQA diagnosis") + "\n")
        print(sweep_table(tune_grid, p, "MMLU-Med + MedMCQA diagnosis (tuning set)") + "\n")

    options = None
    if not args.skip_options:
        print(f"\n## 4. LLM-free option hypotheses, MedQA diagnosis (lambda {lam}, pool {pool})\n")
        _, options = harness(index, test, "options", lam, pool)
        print(markdown_table(options))
        print(f"\n({options['wall_s']} s)")

    if args.json_out:
        payload = {
            "chosen": {"lambda": lam, "pool": pool}, "n_tune": len(tune), "n_test": len(test),
            "tune_grid": {f"{l}/{p}": v for (l, p), v in tune_grid.items()},
            "test_grid": {f"{l}/{p}": v for (l, p), v in test_grid.items()},
            "oracle": oracle, "oracle_at_defaults": at_default, "options": options,
            "oracle_cases": [{"id": r["question"].id, **{n: {k: v for k, v in o.items() if k != "answered_by"}
                                                          for n, o in r["outputs"]["by_retriever"].items()}}
                             for r in oracle_rows],
        }
        with open(args.json_out, "w") as fh:
            json.dump(payload, fh, indent=2)
    print(f"\ntotal {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
