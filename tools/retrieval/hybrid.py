"""Hybrid passage scoring shared by every retrieval tool.

Three scores per candidate passage:

* ``dense``: the contrastive dense score of CHR, sim(d, H+) - lambda * sim(d, H-). Without hypotheses H+ is
  the question itself and lambda is 0, i.e. plain query similarity.
* ``fused``: reciprocal-rank fusion of the dense ranking and the BM25 ranking (the ranking score).
* ``support``: an *absolute* support score in [0, 1] that is never rescaled per query, so the best passage of
  an unrelated question still scores low. It combines dense similarity, taken at the sentence level (the
  cosine of the passage's sentence closest to the question: a question usually asks about one fact of a
  multi-fact passage), with the lexical side of BM25: the share of the question's content terms found in the
  passage, weighted by their BM25 IDF (terms unknown to the corpus count at full weight).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clinrag.schema import Passage
from clinrag.tools.index.embeddings import embed_cached
from clinrag.tools.index.store import CorpusIndex
from clinrag.tools.index.text import content_tokens

RRF_K = 60
DENSE_WEIGHT = 0.8


@dataclass(frozen=True)
class ScoredPassage:
    row: int
    passage: Passage
    dense: float
    cosine: float
    bm25: float
    fused: float
    support: float


def term_coverage(index: CorpusIndex, question_terms: list[str], row: int) -> float:
    """IDF-weighted share of the question's distinct content terms found in passage ``row``."""
    terms = set(question_terms)
    if not terms:
        return 0.0
    total = sum(index.idf.get(t, index.max_idf) for t in terms)
    hit = sum(index.idf[t] for t in terms if t in index.passage_terms[row])
    return hit / total


def support_score(sentence_cosine: float, coverage: float) -> float:
    """Absolute support of a passage for a question (see module docstring)."""
    return DENSE_WEIGHT * max(sentence_cosine, 0.0) + (1 - DENSE_WEIGHT) * coverage


def contrastive_scores(doc_vecs: np.ndarray, target_vec: np.ndarray, mimic_vec: np.ndarray | None, lam: float) -> np.ndarray:
    """CHR: sim(d, H+) - lambda * sim(d, H-) for unit vectors; lambda is ignored without a mimic."""
    scores = doc_vecs @ target_vec
    if mimic_vec is not None and lam:
        scores = scores - lam * (doc_vecs @ mimic_vec)
    return scores


def _ranks(values: np.ndarray) -> np.ndarray:
    order = np.argsort(-values, kind="stable")
    ranks = np.empty(len(values), dtype=np.int64)
    ranks[order] = np.arange(len(values))
    return ranks


def hybrid_search(
    index: CorpusIndex,
    question: str,
    target: str | None = None,
    mimic: str | None = None,
    lam: float = 0.0,
    pool: int = 50,
    rows: list[int] | None = None,
) -> list[ScoredPassage]:
    """Score candidate passages, best ``fused`` first.

    Candidates are the union of the dense and BM25 top-``pool`` (or the given ``rows``); on small corpora that
    is every passage.
    """
    q_vec, *hyp = embed_cached([question] + ([target, mimic] if target and mimic else []))
    terms = content_tokens(question)
    if rows is None:
        n = len(index.passages)
        k = min(pool, n)
        _, dense_top = index.faiss_index.search(q_vec[None, :], k)
        bm25_all = index.bm25.get_scores(terms) if terms else np.zeros(n)
        bm25_top = np.argsort(-bm25_all, kind="stable")[:k]
        rows = sorted(set(int(r) for r in dense_top[0] if r >= 0) | set(int(r) for r in bm25_top if bm25_all[r] > 0))
    else:
        bm25_all = index.bm25.get_scores(terms) if terms else np.zeros(len(index.passages))
    if not rows:
        return []
    vecs = index.vectors[rows]
    cosine = vecs @ q_vec
    sentence_cosine = index.best_sentence_cosine(q_vec)
    if hyp:
        dense = contrastive_scores(vecs, hyp[0], hyp[1], lam)
    else:
        dense = cosine
    bm25 = np.asarray([bm25_all[r] for r in rows], dtype=np.float64)
    fused = 1.0 / (RRF_K + 1 + _ranks(dense)) + 1.0 / (RRF_K + 1 + _ranks(bm25))
    results = [
        ScoredPassage(
            row=r,
            passage=index.passages[r],
            dense=float(dense[i]),
            cosine=float(cosine[i]),
            bm25=float(bm25[i]),
            fused=float(fused[i]),
            support=support_score(float(sentence_cosine[r]), term_coverage(index, terms, r)),
        )
        for i, r in enumerate(rows)
    ]
    results.sort(key=lambda s: (-s.fused, -s.dense))
    return results
