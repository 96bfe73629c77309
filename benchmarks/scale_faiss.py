"""FAISS side of benchmarks/scale.py: the index clinrag builds (tools/index/store.py's HNSW constants), its build
time and size, single-query latency/recall, and filtered search (IDSelector during the HNSW walk, post-filter
over-fetch, exact flat scan of the allowed rows)."""

from __future__ import annotations

import math
import os
import time

import numpy as np
from scale_data import Progress, latency, recall_at_k

from clinrag.tools.index.store import HNSW_EF_CONSTRUCTION, HNSW_M

_THREADS = os.cpu_count() or 1


def build_hnsw(x: np.ndarray, chunk: int = 20_000) -> tuple[object, dict]:
    """IndexHNSWFlat(M=16, inner product, efConstruction=200), added in chunks with a progress line."""
    import faiss

    index = faiss.IndexHNSWFlat(x.shape[1], HNSW_M, faiss.METRIC_INNER_PRODUCT)
    index.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
    prog = Progress("FAISS HNSW build")
    t0 = time.perf_counter()
    for s in range(0, len(x), chunk):
        index.add(np.ascontiguousarray(x[s : s + chunk]))
        prog.tick(f"{min(s + chunk, len(x)):,}/{len(x):,} vectors")
    build_s = time.perf_counter() - t0
    size = int(faiss.serialize_index(index).nbytes)
    return index, {"vectors": len(x), "build_s": round(build_s, 2), "threads": faiss.omp_get_max_threads(),
                   "M": HNSW_M, "efConstruction": HNSW_EF_CONSTRUCTION, "size_bytes": size,
                   "bytes_per_vector": round(size / max(1, len(x)), 1),
                   "build_s_per_100k": round(build_s / len(x) * 1e5, 2)}


def timed_search(index, queries: np.ndarray, k: int, params=None, keep=None, k_out: int = 10
                 ) -> tuple[list, list[float]]:
    """One query at a time (as a request does); ``keep``: a mask applied after the search (post-filter), which
    then keeps the first ``k_out`` allowed ids."""
    found, times = [], []
    for q in queries:
        t = time.perf_counter()
        _, ids = index.search(q[None, :], k, params=params) if params is not None else index.search(q[None, :], k)
        row = ids[0][ids[0] >= 0]
        if keep is not None:
            row = row[keep[row]][:k_out]
        times.append(time.perf_counter() - t)
        found.append(row)
    return found, times


def query_sweep(hnsw, flat, queries: np.ndarray, truth: np.ndarray, efs: list[int]) -> list[dict]:
    """Recall@k and latency of the flat (exact) index and of HNSW at each efSearch; one OpenMP thread (a query
    is one request; Postgres answers a query on one backend too)."""
    import faiss

    k = truth.shape[1]
    faiss.omp_set_num_threads(1)
    rows = []
    try:
        found, times = timed_search(flat, queries[:10], k)  # warm-up
        found, times = timed_search(flat, queries, k)
        rows.append({"engine": "faiss", "index": "flat (exact)", "ef": None,
                     "recall": round(recall_at_k(found, truth), 4), **latency(times)})
        for ef in efs:
            hnsw.hnsw.efSearch = ef
            timed_search(hnsw, queries[:10], k)
            found, times = timed_search(hnsw, queries, k)
            rows.append({"engine": "faiss", "index": "hnsw", "ef": ef, "recall": round(recall_at_k(found, truth), 4),
                         **latency(times)})
    finally:
        faiss.omp_set_num_threads(_THREADS)
    return rows


def filtered(hnsw, flat, queries: np.ndarray, truth: np.ndarray, mask: np.ndarray, efs: list[int]) -> list[dict]:
    """Filtered top-k strategies on FAISS, each with recall@k against the exact filtered top-k:

    * ``hnsw+IDSelector``: HNSW search with an IDSelectorBitmap (only allowed ids enter the result heap; the
      walk itself is unchanged) at each efSearch;
    * ``hnsw post-filter``: over-fetch k / selectivity x 2 (at most 2,000) neighbours, keep the allowed ones;
    * ``flat+IDSelector``: exact scan, allowed rows only (the exact filtered answer, for its latency).
    """
    import faiss

    k = truth.shape[1]
    bits = np.packbits(mask.astype(np.uint8), bitorder="little")
    sel = faiss.IDSelectorBitmap(len(mask), faiss.swig_ptr(bits))
    share = float(mask.mean())
    rows = []
    faiss.omp_set_num_threads(1)
    try:
        for ef in efs:
            params = faiss.SearchParametersHNSW()
            params.sel, params.efSearch = sel, ef
            found, times = timed_search(hnsw, queries, k, params=params)
            rows.append({"engine": "faiss", "strategy": "hnsw+IDSelector", "ef": ef,
                         "recall": round(recall_at_k(found, truth), 4), "mean_results": _mean_len(found),
                         **latency(times)})
        fetch = int(min(2000, max(k, math.ceil(2 * k / max(share, 1e-6)))))
        hnsw.hnsw.efSearch = fetch
        found, times = timed_search(hnsw, queries, fetch, keep=mask, k_out=k)
        rows.append({"engine": "faiss", "strategy": f"hnsw post-filter (fetch {fetch})", "ef": fetch,
                     "recall": round(recall_at_k(found, truth), 4), "mean_results": _mean_len(found), **latency(times)})
        params = faiss.SearchParameters()
        params.sel = sel
        found, times = timed_search(flat, queries, k, params=params)
        rows.append({"engine": "faiss", "strategy": "flat+IDSelector (exact)", "ef": None,
                     "recall": round(recall_at_k(found, truth), 4), "mean_results": _mean_len(found), **latency(times)})
    finally:
        faiss.omp_set_num_threads(_THREADS)
    del bits  # kept alive until here: the selector points into it
    return rows


def _mean_len(found: list) -> float:
    return round(float(np.mean([len(f) for f in found])), 2)
