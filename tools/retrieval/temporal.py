"""Temporal retrieval: date filters, as-of dates, and the MMR + recency ranking of Javadi et al. (arXiv:2511.06668).

For candidates d_i with unit vectors and publication years, selected greedily::

    MMR_i = lam * cos(q, d_i) - (1 - lam) * max_{j in selected} cos(d_i, d_j)
    tau_i = (year_i - min year) / (max year - min year + 1e-5)
    S_i   = alpha * MMR_i + (1 - alpha) * tau_i

with lam = 0.7, alpha = 0.7, K = 5 by default.

On guideline corpora only passages of the query's topic(s) are candidates (the topic anchor of
:mod:`~clinrag.tools.retrieval.org_diverse`, taken before the date filters), so an as-of date that leaves few
documents never fills the slots with another topic's; with an as-of date each result is labelled with its status
at that date (a version replaced only later was current then).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np

from clinrag import options
from clinrag.schema import EvidenceItem
from clinrag.tools.index.corpus_store import CorpusStore, PassageFilter
from clinrag.tools.index.embeddings import embed_cached
from clinrag.tools.retrieval.hybrid import ScoredPassage, hybrid_search
from clinrag.tools.retrieval.org_diverse import anchor_topics, diversifies, status_at, to_evidence


@dataclass(frozen=True)
class TemporalRank:
    position: int  # index into the candidate arrays
    s: float
    mmr: float
    tau: float


def recency(years: np.ndarray) -> np.ndarray:
    """tau_i = (year_i - min) / (max - min + 1e-5); 0 for all when only one year is present."""
    years = years.astype(np.float64)
    return (years - years.min()) / (years.max() - years.min() + 1e-5)


def mmr_temporal_rank(
    query_vec: np.ndarray, doc_vecs: np.ndarray, years: np.ndarray, k: int = options.TEMPORAL_K,
    lam: float = options.MMR_LAMBDA, alpha: float = options.TEMPORAL_ALPHA
) -> list[TemporalRank]:
    """Greedy selection of ``k`` candidates by S = alpha*MMR + (1-alpha)*tau (unit vectors assumed)."""
    n = len(doc_vecs)
    if n == 0:
        return []
    relevance = doc_vecs @ query_vec
    tau = recency(np.asarray(years))
    pairwise = doc_vecs @ doc_vecs.T
    redundancy = np.zeros(n)
    remaining = np.ones(n, dtype=bool)
    ranked: list[TemporalRank] = []
    for _ in range(min(k, n)):
        mmr = lam * relevance - (1 - lam) * redundancy
        s = alpha * mmr + (1 - alpha) * tau
        s[~remaining] = -np.inf
        best = int(np.argmax(s))
        ranked.append(TemporalRank(best, float(s[best]), float(mmr[best]), float(tau[best])))
        remaining[best] = False
        redundancy = np.maximum(redundancy, pairwise[:, best])
    return ranked


def temporal_candidates(
    index: CorpusStore,
    query: str,
    *,
    year_from: int | None = None,
    year_to: int | None = None,
    as_of: dt.date | None = None,
    include_superseded: bool = True,
    pool: int = options.CANDIDATE_POOL,
    per_document: bool = False,
    exclude_doc_ids: frozenset[str] = frozenset(),
    exclude_source_types: frozenset[str] = frozenset(),
) -> list[ScoredPassage]:
    """Hybrid-search candidates that pass the date filters, most query-similar first, at most ``pool``.

    ``per_document`` keeps each document's best passage only (an abstract chunked into several passages then
    counts once); ``exclude_*`` drop documents that must never be evidence (e.g. a benchmark's ground truth).
    """
    dates = PassageFilter(year_from=year_from, year_to=year_to, issued_by=as_of)
    scored = hybrid_search(index, query, pool=pool, where=dates or None)
    topics = anchor_topics(scored) if diversifies(scored) else None

    def keep(doc) -> bool:
        if doc.doc_id in exclude_doc_ids or doc.source_type in exclude_source_types:
            return False
        if topics is not None and doc.topic not in topics:
            return False
        if not dates.admits(doc):
            return False
        if not include_superseded and doc.status == "superseded":
            successor = index.docs.get(doc.superseded_by or "")
            replaced_before = as_of is None or (
                successor is not None and successor.issued and successor.issued <= as_of)
            if replaced_before:
                return False
        return True

    candidates = [s for s in scored if keep(s.passage.meta)]
    candidates.sort(key=lambda s: -s.cosine)
    if per_document:
        seen: set[str] = set()
        candidates = [s for s in candidates if not (s.passage.doc_id in seen or seen.add(s.passage.doc_id))]
    return candidates[:pool]


def candidate_years(candidates: list[ScoredPassage]) -> np.ndarray:
    """Publication years for tau; an undated candidate counts as the oldest (it gets no recency credit)."""
    oldest = min((c.passage.meta.year for c in candidates if c.passage.meta.year), default=0)
    return np.asarray([c.passage.meta.year or oldest for c in candidates])


def temporal_search_passages(
    index: CorpusStore,
    query: str,
    *,
    k: int = options.TEMPORAL_K,
    lam: float = options.MMR_LAMBDA,
    alpha: float = options.TEMPORAL_ALPHA,
    year_from: int | None = None,
    year_to: int | None = None,
    as_of: dt.date | None = None,
    include_superseded: bool = True,
    pool: int = options.CANDIDATE_POOL,
    per_document: bool = False,
) -> list[EvidenceItem]:
    """Passages filtered by year range / as-of date, ranked by MMR + recency.

    ``as_of`` keeps only documents issued on or before that date; ``status`` is each document's status at that
    date (a document replaced only after it is "current").
    """
    candidates = temporal_candidates(
        index, query, year_from=year_from, year_to=year_to, as_of=as_of, include_superseded=include_superseded,
        pool=pool, per_document=per_document,
    )
    if not candidates:
        return []
    q_vec = embed_cached([query])[0]
    ranked = mmr_temporal_rank(
        q_vec, index.passage_vectors([s.row for s in candidates]), candidate_years(candidates), k=k, lam=lam,
        alpha=alpha,
    )
    return [to_evidence(candidates[r.position], score=r.s,
                        status=status_at(candidates[r.position].passage.meta, index.docs, as_of)) for r in ranked]
