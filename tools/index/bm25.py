"""BM25 weights computed at index build (with ``bm25s``) and stored, so that answering a question reads them
instead of importing ``bm25s`` and ``scipy.sparse`` (about 0.1 s of every cold start) and re-indexing the corpus.

``bm25s`` precomputes, for every vocabulary term t and passage d, the BM25 term weight
w(t, d) = idf(t) * tf(t,d) * (k1 + 1) / (tf(t,d) + k1 * (1 - b + b * |d| / avgdl)), stored as a sparse
term-by-passage matrix (CSC arrays ``data``, ``indices``, ``indptr``). The score of a query is the sum of its
terms' rows, score(q, d) = sum over t in q of w(t, d), with repeated query terms counted each time and unknown
terms ignored: exactly ``bm25s.BM25.get_scores`` (tests/test_index.py compares the two).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

BM25_ARRAYS = "bm25.npz"
BM25_VOCAB = "bm25_vocab.json"


def write_bm25(index_dir: Path, tokens: list[list[str]]) -> None:
    """Index the passages' content tokens with bm25s (its defaults: Lucene BM25, k1 = 1.5, b = 0.75) and store
    the weights."""
    import logging

    import bm25s

    logging.getLogger("bm25s").setLevel(logging.WARNING)  # bm25s sets DEBUG on import
    bm25 = bm25s.BM25()
    bm25.index(tokens, show_progress=False)
    scores = bm25.scores
    np.savez(index_dir / BM25_ARRAYS, data=scores["data"], indices=scores["indices"], indptr=scores["indptr"],
             num_docs=np.asarray(scores["num_docs"]))
    (index_dir / BM25_VOCAB).write_text(json.dumps(bm25.vocab_dict))


class StoredBM25:
    """Query-time BM25 over stored weights; ``get_scores(terms)`` as in ``bm25s``."""

    def __init__(self, data: np.ndarray, indices: np.ndarray, indptr: np.ndarray, num_docs: int,
                 vocab: dict[str, int]):
        self.data, self.indices, self.indptr, self.num_docs, self.vocab = data, indices, indptr, num_docs, vocab

    @classmethod
    def load(cls, index_dir: Path) -> StoredBM25:
        arrays = np.load(Path(index_dir) / BM25_ARRAYS)
        vocab = json.loads((Path(index_dir) / BM25_VOCAB).read_text())
        return cls(arrays["data"], arrays["indices"], arrays["indptr"], int(arrays["num_docs"]), vocab)

    def get_scores(self, terms: list[str]) -> np.ndarray:
        scores = np.zeros(self.num_docs, dtype=np.float32)
        for term in terms:
            t = self.vocab.get(term)
            if t is not None:
                start, end = self.indptr[t], self.indptr[t + 1]
                np.add.at(scores, self.indices[start:end], self.data[start:end])
        return scores
