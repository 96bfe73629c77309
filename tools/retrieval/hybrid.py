"""Hybrid passage scoring shared by every retrieval tool.

First stage (:func:`first_stage`): the union of the dense top-N of the question and of H+ (when there are
hypotheses) and the BM25 top-N, N = :func:`pool_size` of the corpus. A passage that only the hypothesis reaches
(the target disease's own description, worded nothing like the vignette) is a candidate too. H-'s neighbours
are not added: they are what the penalty pushes down (adding them changed no held-out answer, docs/chr.md).

Three scores per candidate passage:

* ``dense``: the contrastive dense score of CHR, sim(d, H+) - lambda * sim(d, H-). Without hypotheses H+ is
  the question itself and lambda is 0, i.e. plain query similarity.
* ``bm25``: BM25 of the question; with hypotheses, of H+ (the lexical side follows the hypothesis like the dense
  side: BM25 of a long vignette mostly matches the mimic's wording).
* ``fused``: reciprocal-rank fusion of the dense ranking and the BM25 ranking (the ranking score).
* ``support``: an *absolute* support score in [0, 1] that is never rescaled per query, so the best passage of
  an unrelated question still scores low. It combines dense similarity, taken at the sentence level (the
  cosine of the passage's sentence closest to the question: a question usually asks about one fact of a
  multi-fact passage), with the lexical side of BM25: the share of the question's content terms found in the
  passage, weighted by their BM25 IDF (terms unknown to the corpus count at full weight). Computed on first
  use, since most candidates of a large pool are never looked at, by
  :func:`clinrag.tools.retrieval.answerability.support_scores`: w * p_answers (a trained answerability model,
  run on the best-ranked candidates only) + (1 - w) * this score, w per source type (its model card).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from clinrag import options
from clinrag.schema import Passage
from clinrag.tools.index.corpus_store import CorpusStore, PassageFilter
from clinrag.tools.index.embeddings import embed_cached
from clinrag.tools.index.text import content_tokens
from clinrag.tools.retrieval.answerability import AnswerProbabilities, support_scores

RRF_K = options.RRF_K
DENSE_WEIGHT = 0.8


def pool_size(n_passages: int, minimum: int = options.CANDIDATE_POOL) -> int:
    """First-stage candidates per ranking: ``min(n, max(minimum, min(POOL_CAP, ceil(POOL_FRACTION * n))))``.

    A fixed pool is a shrinking share of a growing corpus: the passages a hypothesis points to stop being
    candidates, and contrastive scoring can only reorder what the first stage found (see the constants in
    :mod:`clinrag.options`, tuned on held-out questions, docs/chr.md). ``minimum`` (the Context's
    ``candidate_pool``) is the floor for small corpora, where it is usually every passage.
    """
    scaled = min(options.POOL_CAP, math.ceil(options.POOL_FRACTION * n_passages))
    return max(min(n_passages, max(minimum, scaled)), 0)


@dataclass(frozen=True)
class ScoredPassage:
    row: int
    passage: Passage
    dense: float
    cosine: float
    bm25: float
    fused: float
    sentence_cosine: float = field(repr=False)
    support_of: object = field(repr=False, compare=False)  # row -> absolute support (answerability.support_scores)

    @cached_property
    def support(self) -> float:
        return self.support_of(self.row)


def term_coverage(index: CorpusStore, question_terms: list[str], row: int) -> float:
    """IDF-weighted share of the question's distinct content terms found in passage ``row`` (BM25 IDF; a term the
    corpus never uses counts at the largest IDF, so unknown words lower coverage)."""
    return float(index.term_coverage(question_terms, [row])[0])


def support_score(sentence_cosine: float, coverage: float) -> float:
    """Absolute support of a passage for a question (see module docstring)."""
    return DENSE_WEIGHT * max(sentence_cosine, 0.0) + (1 - DENSE_WEIGHT) * coverage


def contrastive_scores(doc_vecs: np.ndarray, target_vec: np.ndarray, mimic_vec: np.ndarray | None,
                       lam: float) -> np.ndarray:
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


def first_stage(index: CorpusStore, query_vecs: np.ndarray, lexical_terms: list[str], pool: int,
                where: PassageFilter | None = None) -> list[int]:
    """Candidate rows: the union of the dense top-``pool`` of every query vector and the BM25 top-``pool`` of
    ``lexical_terms``; with a filter (named organizations, dates), also the dense top-``pool`` of the first query
    vector among the passages it admits, so that a filter the unfiltered pool misses (an organization with few
    passages in a large corpus) still has candidates. Without a filter, or when the pool is the whole corpus, the
    candidates are exactly the unfiltered ones."""
    k = min(pool, index.passage_count())
    if k <= 0:
        return []
    _, dense_top = index.dense_search(np.asarray(query_vecs, dtype=np.float32), k)
    rows = {int(r) for r in dense_top.ravel() if r >= 0}
    rows |= set(index.lexical_top(lexical_terms, k))
    if where and k < index.passage_count():
        rows |= set(index.dense_search_where(np.asarray(query_vecs, dtype=np.float32)[0], k, where))
    return sorted(rows)


def hybrid_search(
    index: CorpusStore,
    question: str,
    target: str | None = None,
    mimic: str | None = None,
    lam: float = 0.0,
    pool: int = options.CANDIDATE_POOL,
    rows: list[int] | None = None,
    where: PassageFilter | None = None,
) -> list[ScoredPassage]:
    """Score candidate passages, best ``fused`` first.

    Candidates come from :func:`first_stage` over :func:`pool_size` ``(n_passages, pool)`` per ranking, with
    ``where``'s passages added (or are the given ``rows``); nothing is removed here, the callers filter.
    ``mimic`` without ``target`` is ignored; ``target`` without ``mimic`` ranks by
    sim(d, H+).
    """
    target = target if target and target.strip() else None
    mimic = mimic if target and mimic and mimic.strip() else None
    q_vec, *hyp = embed_cached([question, *(t for t in (target, mimic) if t)])
    terms = content_tokens(question)
    lexical = content_tokens(target) if target else terms
    if rows is None:
        rows = first_stage(index, np.stack([q_vec, *hyp[:1]]), lexical, pool_size(index.passage_count(), pool), where)
    if not rows:
        return []
    vecs = index.passage_vectors(rows)
    cosine = vecs @ q_vec
    sentence_cosine = index.best_sentence_cosine(q_vec, rows)  # aligned with rows
    best_sentence = dict(zip(rows, sentence_cosine.tolist()))
    dense = contrastive_scores(vecs, hyp[0], hyp[1] if len(hyp) > 1 else None, lam) if hyp else cosine
    bm25 = np.asarray(index.lexical_scores(lexical, rows)).astype(np.float64)
    fused = 1.0 / (RRF_K + 1 + _ranks(dense)) + 1.0 / (RRF_K + 1 + _ranks(bm25))

    def support_of(row: int) -> float:
        # p_answers (when a source type's weight is > 0) of the question's best-ranked candidates, in one batch
        return float(support_scores(index, q_vec, [row], terms, np.float32([best_sentence[row]]), question=question,
                                    probabilities=probabilities)[0])

    results = [
        ScoredPassage(
            row=r,
            passage=passage,
            dense=float(dense[i]),
            cosine=float(cosine[i]),
            bm25=float(bm25[i]),
            fused=float(fused[i]),
            sentence_cosine=float(sentence_cosine[i]),
            support_of=support_of,
        )
        for i, (r, passage) in enumerate(zip(rows, index.passages_at(rows)))
    ]
    results.sort(key=lambda s: (-s.fused, -s.dense))
    probabilities = AnswerProbabilities(index, question, q_vec, terms, ranked=[s.row for s in results])
    return results
