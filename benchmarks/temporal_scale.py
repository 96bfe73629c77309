"""temporal_search at Javadi et al.'s (arXiv:2511.06668) raw corpus size, with synthetic vectors: exact vs
HNSW in one run.

Synthetic 384-d unit vectors (a mixture of clusters, like sentence embeddings of a topical corpus) stand in for
abstracts; queries are fresh draws from the same mixture. Both indexes come from
``clinrag.tools.index.store.make_faiss_index`` (exact IndexFlatIP; IndexHNSWFlat M=16, efConstruction=200,
efSearch as clinrag sets it). Reported for each:

* build time, index size (serialized bytes) and the process's resident-memory growth while building;
* single-query latency p50/p95 for the top-10 search, and for the whole temporal ranking (top-``pool``
  candidates, then S = alpha*MMR + (1-alpha)*tau over them with ``clinrag.tools.retrieval.temporal.mmr_temporal_rank``);
* HNSW recall@10 against the exact top-10 of the same queries (also at a few other efSearch values).

Run:  .venv/bin/python benchmarks/temporal_scale.py [--n 400000] [--queries 200] [--json-out PATH]
The 400k HNSW build takes minutes on 2 cores: run it on a quiet machine; --n 50000 for a quick look.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from clinrag.tools.index.store import HNSW_EF_SEARCH, make_faiss_index
from clinrag.tools.retrieval.temporal import mmr_temporal_rank


def rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def synthetic(n: int, dim: int, clusters: int, rng: np.random.Generator, sigma: float = 0.05) -> np.ndarray:
    centroids = rng.standard_normal((clusters, dim), dtype=np.float32)
    centroids /= np.linalg.norm(centroids, axis=1, keepdims=True)
    out = np.empty((n, dim), dtype=np.float32)
    for start in range(0, n, 50_000):  # in chunks: bounded temporary memory
        stop = min(n, start + 50_000)
        noise = rng.standard_normal((stop - start, dim), dtype=np.float32)
        x = centroids[rng.integers(0, clusters, stop - start)] + sigma * noise
        out[start:stop] = x / np.linalg.norm(x, axis=1, keepdims=True)
    return out


def percentiles(ms: list[float]) -> dict[str, float]:
    return {"p50_ms": round(float(np.percentile(ms, 50)), 3), "p95_ms": round(float(np.percentile(ms, 95)), 3)}


def measure(kind: str, vectors: np.ndarray, queries: np.ndarray, years: np.ndarray, k: int, pool: int) -> dict:
    import faiss

    before = rss_mb()
    t0 = time.perf_counter()
    index = make_faiss_index(vectors, kind)
    build_s = time.perf_counter() - t0
    grown = rss_mb() - before
    size_mb = len(faiss.serialize_index(index)) / 2**20
    search_ms, temporal_ms, top = [], [], []
    for q in queries:
        t = time.perf_counter()
        _, ids = index.search(q[None, :], k)
        search_ms.append((time.perf_counter() - t) * 1000)
        top.append(ids[0])
        t = time.perf_counter()
        _, cand = index.search(q[None, :], pool)
        rows = cand[0][cand[0] >= 0]
        mmr_temporal_rank(q, vectors[rows], years[rows], k=5, lam=0.7, alpha=0.7)
        temporal_ms.append((time.perf_counter() - t) * 1000)
    return {"index": index, "top": np.stack(top), "build_s": round(build_s, 2), "index_mb": round(size_mb, 1),
            "rss_growth_mb": round(grown, 1), "search": percentiles(search_ms),
            "temporal_search": percentiles(temporal_ms)}


def recall_at(k: int, approx: np.ndarray, exact: np.ndarray) -> float:
    return float(np.mean([len(set(a[:k]) & set(e[:k])) / k for a, e in zip(approx, exact)]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=400_000, help="documents (synthetic vectors)")
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--clusters", type=int, default=2000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--pool", type=int, default=50, help="candidates re-ranked by S per query")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json-out")
    args = parser.parse_args()

    import faiss

    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    vectors = synthetic(args.n, args.dim, args.clusters, rng)
    queries = synthetic(args.queries, args.dim, args.clusters, np.random.default_rng(args.seed))  # same centroids
    years = rng.integers(1975, 2025, args.n)
    print(f"{args.n:,} x {args.dim} synthetic vectors in {time.perf_counter() - t0:.1f} s "
          f"({vectors.nbytes / 2**20:.0f} MiB); faiss {faiss.__version__}, {faiss.omp_get_max_threads()} threads")

    exact = measure("flat", vectors, queries, years, 10, args.pool)
    hnsw = measure("hnsw", vectors, queries, years, 10, args.pool)
    result = {"n": args.n, "dim": args.dim, "queries": args.queries, "pool": args.pool,
              "hnsw_params": {"M": 16, "efConstruction": 200, "efSearch": HNSW_EF_SEARCH}}
    for name, r in (("exact", exact), ("hnsw", hnsw)):
        result[name] = {k: v for k, v in r.items() if k not in ("index", "top")}
    result["hnsw"]["recall@10"] = round(recall_at(10, hnsw["top"], exact["top"]), 4)
    sweep = {}
    for ef in (32, 64, 256):
        hnsw["index"].hnsw.efSearch = ef
        t = time.perf_counter()
        _, ids = hnsw["index"].search(queries, 10)
        sweep[ef] = {"recall@10": round(recall_at(10, ids, exact["top"]), 4),
                     "batch_ms_per_query": round((time.perf_counter() - t) * 1000 / len(queries), 3)}
    result["hnsw_efsearch_sweep"] = sweep

    print("\n| index | build s | index MiB | RSS growth MiB | top-10 p50 / p95 ms | temporal_search p50 / p95 ms "
          "| recall@10 |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name in ("exact", "hnsw"):
        r = result[name]
        print(f"| {name} | {r['build_s']} | {r['index_mb']} | {r['rss_growth_mb']} | {r['search']['p50_ms']} / "
              f"{r['search']['p95_ms']} | {r['temporal_search']['p50_ms']} / {r['temporal_search']['p95_ms']} | "
              f"{r.get('recall@10', 1.0)} |")
    print("\nHNSW efSearch sweep (batch search):", json.dumps(sweep))
    if args.json_out:
        with open(args.json_out, "w") as fh:
            json.dump(result, fh, indent=2)


if __name__ == "__main__":
    main()
