"""Exact inner-product search over a small corpus's vectors with numpy, the query-time stand-in for FAISS's
``IndexFlatIP`` (same ``search`` signature and results), so that a process answering from a small corpus does not
import FAISS at all. Large corpora (HNSW) still load FAISS."""

from __future__ import annotations

import numpy as np


class ExactIndex:
    """``search(queries, k) -> (scores, rows)``: for each query the ``k`` rows of highest inner product, best first
    (ties in row order), as FAISS returns them; rows beyond the corpus are -1 with score -inf."""

    def __init__(self, vectors: np.ndarray):
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.ntotal = len(self.vectors)

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        queries = np.atleast_2d(np.asarray(queries, dtype=np.float32))
        sims = queries @ self.vectors.T
        top = min(k, self.ntotal)
        rows = np.argsort(-sims, axis=1, kind="stable")[:, :top]
        scores = np.take_along_axis(sims, rows, axis=1)
        if top < k:  # FAISS pads with -1 rows
            pad = k - top
            rows = np.hstack([rows, np.full((len(queries), pad), -1)])
            scores = np.hstack([scores, np.full((len(queries), pad), -np.inf, dtype=np.float32)])
        return scores, rows.astype(np.int64)

    def reconstruct_n(self, start: int, n: int) -> np.ndarray:
        return self.vectors[start:start + n]
