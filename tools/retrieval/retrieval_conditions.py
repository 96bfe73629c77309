"""The three retrieval conditions of Javadi et al. (arXiv:2511.06668) over a candidate pool of documents.

A pool of the ``pool`` documents most similar to the query (one passage each, date filters applied) is
scored two ways:

* S, the MMR + recency score of :mod:`clinrag.tools.retrieval.temporal` (greedy over the whole pool, so each document
  gets the S it had when it was picked);
* contradiction salience, from :func:`clinrag.tools.nli.contradiction.contradiction_graph` over the pool's
  documents with the configured NLI backend (mean over the other documents of the strongest contradiction
  between their sentences).

Conditions: ``most-similar`` (top K by S), ``most-contradictory`` (top K by salience) and
``least-contradictory`` (bottom K by salience); ties go to the higher S.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from clinrag import options
from clinrag.options import CONTRADICTION_POOL, RETRIEVAL_CONDITIONS, RetrievalCondition
from clinrag.schema import ContradictionEdge, EvidenceItem
from clinrag.tools.index.corpus_store import CorpusStore
from clinrag.tools.index.embeddings import embed_cached
from clinrag.tools.nli.contradiction import contradiction_graph
from clinrag.tools.nli.pair_scores import primed_backend
from clinrag.tools.retrieval.org_diverse import to_evidence
from clinrag.tools.retrieval.temporal import candidate_years, mmr_temporal_rank, temporal_candidates

Condition = RetrievalCondition
CONDITIONS: tuple[str, ...] = RETRIEVAL_CONDITIONS


@dataclass(frozen=True)
class ScoredCandidate:
    doc_id: str
    year: int | None
    s: float
    salience: float
    cosine: float


@dataclass
class ConditionResult:
    condition: str
    evidence: list[EvidenceItem]
    pool: list[ScoredCandidate] = field(default_factory=list)  # every pool document, in S order
    edges: list[ContradictionEdge] = field(default_factory=list)


def check_condition(condition: str) -> Condition:
    if condition not in CONDITIONS:
        raise ValueError(f"unknown retrieval condition {condition!r}; expected one of {', '.join(CONDITIONS)}")
    return condition  # type: ignore[return-value]


def condition_search(
    index: CorpusStore,
    query: str,
    condition: str = "most-similar",
    *,
    k: int = options.TEMPORAL_K,
    lam: float = options.MMR_LAMBDA,
    alpha: float = options.TEMPORAL_ALPHA,
    pool: int = CONTRADICTION_POOL,  # the paper's per-query abstract budget
    nli_backend: str | None = None,
    pair_threshold: float | None = None,
    year_from: int | None = None,
    year_to: int | None = None,
    as_of: dt.date | None = None,
    exclude_doc_ids: frozenset[str] = frozenset(),
    exclude_source_types: frozenset[str] = frozenset(),
    score_contradictions: bool | None = None,
) -> ConditionResult:
    """K documents (best passage each) for one condition, plus the scored pool.

    Salience is computed only when the condition needs it, unless ``score_contradictions`` is True (reports).
    ``nli_backend`` and ``pair_threshold`` default to the Context defaults (the graph passes its run's Context).
    """
    from clinrag.context import Context

    if nli_backend is None or pair_threshold is None:
        defaults = Context()
        nli_backend = nli_backend or defaults.nli_backend
        pair_threshold = defaults.pair_similarity_threshold if pair_threshold is None else pair_threshold
    check_condition(condition)
    candidates = temporal_candidates(
        index, query, year_from=year_from, year_to=year_to, as_of=as_of, pool=pool, per_document=True,
        exclude_doc_ids=exclude_doc_ids, exclude_source_types=exclude_source_types,
    )
    if not candidates:
        return ConditionResult(condition, [])
    q_vec = embed_cached([query])[0]
    ranked = mmr_temporal_rank(
        q_vec, index.passage_vectors([c.row for c in candidates]), candidate_years(candidates), k=len(candidates),
        lam=lam, alpha=alpha,
    )
    s_by_pos = {r.position: r.s for r in ranked}
    salience: dict[str, float] = {}
    edges: list[ContradictionEdge] = []
    if condition != "most-similar" or score_contradictions:
        texts = {c.passage.doc_id: index.docs[c.passage.doc_id].text for c in candidates}
        edges, salience = contradiction_graph(texts, primed_backend(index, nli_backend, list(texts)), pair_threshold)
    scored = [
        ScoredCandidate(c.passage.doc_id, c.passage.meta.year, s_by_pos[i], salience.get(c.passage.doc_id, 0.0),
                        c.cosine)
        for i, c in enumerate(candidates)
    ]
    order = [r.position for r in ranked]  # S order
    if condition == "most-contradictory":
        order = sorted(order, key=lambda i: (-scored[i].salience, -scored[i].s))
    elif condition == "least-contradictory":
        order = sorted(order, key=lambda i: (scored[i].salience, -scored[i].s))
    evidence = [
        to_evidence(candidates[i], score=scored[i].s).model_copy(
            update={"contradiction_salience": round(scored[i].salience, 4)})
        for i in order[:k]
    ]
    return ConditionResult(condition, evidence, [scored[r.position] for r in ranked], edges)
