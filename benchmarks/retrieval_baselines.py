"""clinrag's retrieval step against stock LangChain retrievers over the same passages and the same encoder.

Retrievers (same K = Context().k for all):
  * FAISS similarity and FAISS MMR (fetch_k=20), inner product over unit vectors (= cosine);
  * EnsembleRetriever of stock BM25Retriever (rank_bm25) + FAISS similarity, weights [0.5, 0.5], its fused
    list cut to K (an extra row shows it uncut, as a stock user gets it: up to 2K passages);
  * clinrag.tools.retrieval.org_diverse.org_diverse_search_passages (what the graph's retrieve node runs without a
    chat model).
Over every answerable guideline-drift case (all splits): complete-evidence-set recall (every required doc
retrieved) per split, mean per-doc recall, required superseded documents retrieved, distinct documents and
organizations per answer, and warm per-question retrieval latency (p50/p95 ms, one warm-up call first).

Run:  .venv/bin/python benchmarks/retrieval_baselines.py [--json-out PATH]
Honours CLINRAG_INDEX_ROOT (the index is built on first use).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

warnings.filterwarnings("ignore", category=DeprecationWarning)
WARMUP_QUESTION = "Which organizations issue guidance on colorectal cancer screening?"


def build_retrievers(index, k: int) -> tuple[dict, float]:
    """Name -> callable(question) -> list of (doc_id, org); and the FAISS build time in seconds."""
    from langchain_classic.retrievers import EnsembleRetriever
    from langchain_community.retrievers import BM25Retriever
    from langchain_community.vectorstores import FAISS
    from langchain_community.vectorstores.utils import DistanceStrategy
    from langchain_core.documents import Document

    from clinrag.tools.index.embeddings import get_embeddings
    from clinrag.tools.index.store import embedding_text
    from clinrag.tools.retrieval.org_diverse import org_diverse_search_passages

    docs = [
        Document(page_content=embedding_text(p), metadata={"doc_id": p.doc_id, "passage_id": p.passage_id,
                 "org": p.meta.org, "status": p.meta.status, "topic": p.meta.topic})
        for p in index.passages
    ]
    t0 = time.perf_counter()
    store = FAISS.from_documents(docs, get_embeddings(), distance_strategy=DistanceStrategy.MAX_INNER_PRODUCT)
    build_s = time.perf_counter() - t0
    similarity = store.as_retriever(search_kwargs={"k": k})
    mmr = store.as_retriever(search_type="mmr", search_kwargs={"k": k, "fetch_k": 20})
    ensemble = EnsembleRetriever(retrievers=[BM25Retriever.from_documents(docs, k=k), similarity], weights=[0.5, 0.5])

    def lc(retriever, cut: int | None = None):
        return lambda q: [(d.metadata["doc_id"], d.metadata["org"]) for d in retriever.invoke(q)[:cut]]

    return {
        "faiss similarity": lc(similarity),
        "faiss mmr": lc(mmr),
        "ensemble bm25+faiss": lc(ensemble, k),
        "ensemble (uncut, <=2K)": lc(ensemble),
        "clinrag org_diverse": lambda q: [(e.doc_id, e.org) for e in org_diverse_search_passages(index, q, k=k)],
    }, build_s


def evaluate(retrieve, cases, index) -> dict:
    retrieve(WARMUP_QUESTION)  # warm-up, not a case
    rows, times = [], []
    for c in cases:
        t0 = time.perf_counter()
        hits = retrieve(c.inputs.question)
        times.append(time.perf_counter() - t0)
        got = {d for d, _ in hits}
        req = set(c.outputs.required_doc_ids)
        sup = {d for d in req if index.docs[d].status == "superseded"}
        rows.append({"split": c.metadata.get("split"), "complete": int(req <= got),
                     "per_doc": len(req & got) / len(req) if req else 1.0, "sup_req": len(sup),
                     "sup_found": len(sup & got),
                     # superseded versions surfaced for a question that did not ask about the past
                     "sup_unasked": 0 if sup else sum(index.docs[d].status == "superseded" for d in got),
                     "orgs": len({o for _, o in hits}), "docs": len(got),
                     "passages": len(hits)})

    def mean(key, split=None):
        vals = [r[key] for r in rows if split in (None, r["split"])]
        return round(float(np.mean(vals)), 4) if vals else None

    ms = np.asarray(times) * 1000
    return {
        "complete_recall": {"canonical": mean("complete", "canonical"), "holdout": mean("complete", "holdout"),
                            "all": mean("complete")},
        "per_doc_recall": mean("per_doc"),
        "superseded_found": sum(r["sup_found"] for r in rows), "superseded_required": sum(r["sup_req"] for r in rows),
        "superseded_cases": sum(r["sup_req"] > 0 for r in rows),
        "superseded_unasked": sum(r["sup_unasked"] for r in rows),
        "orgs_per_answer": mean("orgs"), "docs_per_answer": mean("docs"), "passages_per_answer": mean("passages"),
        "p50_ms": round(float(np.percentile(ms, 50)), 2), "p95_ms": round(float(np.percentile(ms, 95)), 2),
        "per_case_complete": [r["complete"] for r in rows],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json-out")
    args = ap.parse_args()
    t_script = time.perf_counter()

    from rich.console import Console
    from rich.table import Table

    from clinrag.context import Context
    from clinrag.evals.guideline_drift import load_cases
    from clinrag.tools.index.store import get_index

    ctx = Context()
    k = ctx.k
    load_start = os.getloadavg()
    index = get_index(ctx.corpus_path, ctx.index_dir)
    cases = [c for c in load_cases() if c.outputs.decision == "answer"]
    retrievers, build_s = build_retrievers(index, k)
    results = {name: evaluate(fn, cases, index) for name, fn in retrievers.items()}
    load_end = os.getloadavg()

    n_split = {s: sum(c.metadata.get("split") == s for c in cases) for s in ("canonical", "holdout")}
    table = Table(title=f"retrieval over {len(index.passages)} passages / {len(index.docs)} docs, K={k}, "
                        f"{len(cases)} answerable cases ({n_split['canonical']} canonical, "
                        f"{n_split['holdout']} holdout)")
    cols = ["retriever", "complete canon", "complete holdout", "complete all", "per-doc recall", "superseded found",
            "superseded unasked", "docs/answer", "orgs/answer", "p50 ms", "p95 ms"]
    for col in cols:
        table.add_column(col, justify="left" if col == "retriever" else "right")
    for name, r in results.items():
        cr = r["complete_recall"]
        table.add_row(name, f"{cr['canonical']:.3f}", f"{cr['holdout']:.3f}", f"{cr['all']:.3f}",
                      f"{r['per_doc_recall']:.3f}", f"{r['superseded_found']}/{r['superseded_required']}",
                      str(r["superseded_unasked"]), f"{r['docs_per_answer']:.2f}", f"{r['orgs_per_answer']:.2f}",
                      f"{r['p50_ms']:.1f}",
                      f"{r['p95_ms']:.1f}")
    console = Console(width=160)
    console.print(table)
    sup_cases = next(iter(results.values()))["superseded_cases"]
    elapsed = time.perf_counter() - t_script
    console.print(f"superseded found = required superseded docs retrieved, over the {sup_cases} cases that need one; "
                  f"superseded unasked = superseded docs returned for the other cases (not about change over time); "
                  f"FAISS build (embedding every passage) {build_s:.1f} s, not in the latencies")
    console.print(f"load average (1/5/15 min) at start {tuple(round(x, 2) for x in load_start)}, at end "
                  f"{tuple(round(x, 2) for x in load_end)}; {os.cpu_count()} CPUs; script time {elapsed:.1f} s")
    if args.json_out:
        payload = {"k": k, "n_cases": len(cases), "cases": [str(c.id) for c in cases], "retrievers": results,
                   "faiss_build_s": round(build_s, 2), "loadavg_start": load_start, "loadavg_end": load_end,
                   "cpus": os.cpu_count(), "script_s": round(elapsed, 1)}
        Path(args.json_out).write_text(json.dumps(payload, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
