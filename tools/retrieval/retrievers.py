"""CHR and its baselines as retrievers over one clinrag index, all returning the same K passages.

* ``chr``: the product's retriever, exactly what the graph runs:
  :func:`clinrag.tools.retrieval.org_diverse.org_diverse_hybrid_search` (first stage from the question, H+ and
  H-, pool growing with the corpus; RRF of sim(d, H+) - lambda * sim(d, H-) and BM25; organization-diverse
  selection on guideline corpora, the ranking itself elsewhere). Scores are the fused (RRF) scores.
* ``dense``: query-only cosine over the whole index.
* ``bm25``: the index's BM25 (bm25s over the same content tokens as
  :func:`~clinrag.tools.retrieval.hybrid.hybrid_search`).
* ``hyde``: HyDE: the mean of the query embedding and the embeddings of N hypothetical passages,
  (f(q) + sum_i f(d_i)) / (N + 1), re-normalized, searched over the whole index.
* ``query2doc``: Query2doc, dense variant: the embedding of ``query [SEP] generated passage``.
* ``rrf``: multi-query retrieval: the question and its reformulations each rank their dense top ``pool``;
  rankings are fused by reciprocal rank, sum_q 1 / (rrf_k + rank_q(d)), rank from 1.

Hypothetical passages and reformulations come from a chat model (:mod:`clinrag.tools.retrieval.query_expansion`)
or, without one, from the hypotheses at hand (H+), so every expansion method sees the same evidence of the answer.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from clinrag import options
from clinrag.schema import EvidenceItem
from clinrag.tools.index.corpus_store import CorpusStore
from clinrag.tools.index.embeddings import embed_cached
from clinrag.tools.index.text import content_tokens
from clinrag.tools.retrieval import org_diverse
from clinrag.tools.retrieval.hybrid import hybrid_search

RETRIEVERS = options.RETRIEVERS
EXPANSION_RETRIEVERS = options.EXPANSION_RETRIEVERS  # retrievers that use generated text beside the question


@dataclass(frozen=True)
class Retrieved:
    """Index rows, best first, with the retriever's own score for each."""

    rows: list[int]
    scores: list[float]

    def passage_ids(self, index: CorpusStore) -> list[str]:
        return [p.passage_id for p in index.passages_at(self.rows)]

    def doc_ids(self, index: CorpusStore) -> list[str]:
        return [p.doc_id for p in index.passages_at(self.rows)]


def _unit(vec: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vec))
    return vec / norm if norm else vec


def _search(index: CorpusStore, vec: np.ndarray, n: int) -> Retrieved:
    n = min(n, index.passage_count())
    scores, rows = index.dense_search(np.asarray(vec, dtype=np.float32)[None, :], n)
    keep = rows[0] >= 0
    return Retrieved(rows=[int(r) for r in rows[0][keep]], scores=[float(s) for s in scores[0][keep]])


def dense_search(index: CorpusStore, question: str, k: int) -> Retrieved:
    return _search(index, embed_cached([question])[0], k)


def bm25_search(index: CorpusStore, question: str, k: int) -> Retrieved:
    terms = content_tokens(question)
    if not terms:
        return Retrieved([], [])
    order = index.lexical_top(terms, k)
    return Retrieved(rows=order, scores=[float(s) for s in index.lexical_scores(terms, order)])


def chr_search(
    index: CorpusStore, question: str, target: str | None, mimic: str | None, lam: float, pool: int, k: int
) -> Retrieved:
    """The ``chr`` retriever: the graph's own :func:`~clinrag.tools.retrieval.org_diverse.org_diverse_hybrid_search`
    (looked up on its module at call time, so both paths always run the same function)."""
    found = org_diverse.org_diverse_hybrid_search(index, question, k=k, include_superseded=None, target=target,
                                                  mimic=mimic, lam=lam, pool=pool)
    return Retrieved(rows=[s.row for s in found], scores=[s.fused for s in found])


def hyde_search(index: CorpusStore, question: str, passages: list[str], k: int) -> Retrieved:
    vecs = embed_cached([question, *passages])
    return _search(index, _unit(vecs.mean(axis=0)), k)


def query2doc_search(index: CorpusStore, question: str, passage: str, k: int) -> Retrieved:
    return _search(index, embed_cached([f"{question} [SEP] {passage}"])[0], k)


def rrf_search(
    index: CorpusStore, queries: list[str], k: int, rrf_k: int = options.RRF_K, depth: int = options.CANDIDATE_POOL
) -> Retrieved:
    fused: dict[int, float] = defaultdict(float)
    for vec in embed_cached(list(dict.fromkeys(queries))):
        for rank, row in enumerate(_search(index, vec, max(depth, k)).rows, start=1):
            fused[row] += 1.0 / (rrf_k + rank)
    order = sorted(fused, key=lambda r: (-fused[r], r))[:k]
    return Retrieved(rows=order, scores=[fused[r] for r in order])


def retrieve(
    index: CorpusStore,
    retriever: str,
    question: str,
    *,
    target: str | None = None,
    mimic: str | None = None,
    expansions: list[str] | None = None,
    lam: float = options.CHR_LAMBDA,
    pool: int = options.CANDIDATE_POOL,
    k: int = 5,
    rrf_k: int = options.RRF_K,
) -> Retrieved:
    """Run one named retriever. ``expansions`` (generated passages or reformulations) default to ``[target]``;
    an expansion retriever with neither falls back to the question alone, i.e. dense."""
    if retriever not in RETRIEVERS:
        raise ValueError(f"unknown retriever {retriever!r} ({' | '.join(RETRIEVERS)})")
    extra = [e for e in (expansions or ([target] if target else [])) if e and e.strip()]
    if retriever == "chr":
        return chr_search(index, question, target, mimic, lam, pool, k)
    if retriever == "bm25":
        return bm25_search(index, question, k)
    if retriever == "dense" or not extra:
        return dense_search(index, question, k)
    if retriever == "hyde":
        return hyde_search(index, question, extra, k)
    if retriever == "query2doc":
        return query2doc_search(index, question, extra[0], k)
    return rrf_search(index, [question, *extra], k, rrf_k=rrf_k, depth=pool)


def mimic_share(index: CorpusStore, rows: list[int], target: str, mimic: str) -> float | None:
    """Share of the passages closer to H- than to H+ (cosine)."""
    if not rows or not target or not mimic:
        return None
    target_vec, mimic_vec = embed_cached([target, mimic])
    vecs = index.passage_vectors(rows)
    return float(np.mean(vecs @ mimic_vec > vecs @ target_vec))


def evidence_items(index: CorpusStore, question: str, retrieved: Retrieved) -> list[EvidenceItem]:
    """The retrieved passages as evidence, in retrieved order, with the absolute support score of each."""
    if not retrieved.rows:
        return []
    scored = {s.row: s for s in hybrid_search(index, question, rows=list(retrieved.rows))}
    return [org_diverse.to_evidence(scored[r], score=s) for r, s in zip(retrieved.rows, retrieved.scores)]
