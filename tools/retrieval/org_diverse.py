"""CHR as the product runs it: organization-diverse hybrid retrieval, contrastive when hypotheses exist.

:func:`org_diverse_hybrid_search` is the one ``chr`` retriever: the graph's retrieve node, the LangChain tool
and the CHR harness (``retrieve(index, "chr", ...)``, ``clinrag eval chr``) all run it. Scoring is
:func:`~clinrag.tools.retrieval.hybrid.hybrid_search` (first stage from the question, H+ and H-, pool growing
with the corpus; dense side sim(d, H+) - lambda * sim(d, H-)); then the selection rule below.

Selection: every organization's strongest current passage first, then the rest. This is the guard against one
organization's guideline crowding out the others that disagree. Only passages of the question's topic(s) are
eligible (the top passage's topic, and any topic whose best passage supports the question about as well), so
the remaining slots are never padded with another topic. Superseded versions are left out unless the question
asks about change over time or a past date; then each selected current document is followed by the version it
replaced, and every result is labelled current or superseded.

Organizations and topics mean issuers of guidelines and clinical topics: on candidates without any guideline
(abstracts, whose ``org`` is a journal; MedQuAD's NIH collections, whose ``topic`` is a question type; textbook
chunks) the rule degrades to the hybrid ranking itself, best passage per document.
"""

from __future__ import annotations

from clinrag import options
from clinrag.schema import Document, EvidenceItem
from clinrag.tools.index.store import CorpusIndex
from clinrag.tools.index.text import temporal_intent
from clinrag.tools.retrieval.hybrid import ScoredPassage, hybrid_search

TOPIC_SUPPORT_MARGIN = 0.05


def to_evidence(s: ScoredPassage, score: float | None = None) -> EvidenceItem:
    doc = s.passage.meta
    return EvidenceItem(
        doc_id=doc.doc_id,
        passage_id=s.passage.passage_id,
        org=doc.org,
        title=doc.title,
        issued=doc.issued.isoformat() if doc.issued else None,
        year=doc.year,
        status=doc.status,
        superseded_by=doc.superseded_by,
        supersedes=doc.supersedes,
        source_type=doc.source_type,
        topic=doc.topic,
        score=round(s.fused if score is None else score, 6),
        support_score=round(s.support, 4),
        text=s.passage.text,
    )


def diversifies(scored: list[ScoredPassage]) -> bool:
    """Whether organization diversity and the topic anchor apply: some candidate is a guideline."""
    return any(s.passage.meta.source_type == "guideline" for s in scored)


def anchor_topics(scored: list[ScoredPassage]) -> set[str | None] | None:
    """Topics the question is about: the top passage's, plus any whose best support is as strong.

    Returns None when the candidates have no topics (every passage is then eligible).
    """
    if not scored or all(s.passage.meta.topic is None for s in scored):
        return None
    best_support = max(s.support for s in scored)
    topics = {scored[0].passage.meta.topic}
    topics |= {s.passage.meta.topic for s in scored if s.support >= best_support - TOPIC_SUPPORT_MARGIN}
    return topics


def _predecessors(doc: Document, docs: dict[str, Document]) -> list[str]:
    chain, seen = [], {doc.doc_id}
    while doc.supersedes and doc.supersedes in docs and doc.supersedes not in seen:
        seen.add(doc.supersedes)
        chain.append(doc.supersedes)
        doc = docs[doc.supersedes]
    return chain


def org_diverse_select(
    scored: list[ScoredPassage], docs: dict[str, Document], k: int, include_superseded: bool
) -> list[ScoredPassage]:
    """The selection rule, on already scored passages (best first)."""
    diverse = diversifies(scored)
    topics = anchor_topics(scored) if diverse else None
    eligible = [s for s in scored if topics is None or s.passage.meta.topic in topics]
    best_per_doc: dict[str, ScoredPassage] = {}
    for s in eligible:
        best_per_doc.setdefault(s.passage.doc_id, s)

    picked: list[ScoredPassage] = []
    orgs: set[str] = set()
    for s in best_per_doc.values() if diverse else ():  # insertion order is score order
        if s.passage.meta.status == "current" and s.passage.meta.org not in orgs:
            orgs.add(s.passage.meta.org)
            picked.append(s)
            if include_superseded:
                picked += [best_per_doc[d] for d in _predecessors(s.passage.meta, docs) if d in best_per_doc]
    chosen_docs = {s.passage.doc_id for s in picked}
    for s in best_per_doc.values():  # remaining slots by overall score
        if s.passage.doc_id not in chosen_docs and (include_superseded or s.passage.meta.status == "current"):
            picked.append(s)
            chosen_docs.add(s.passage.doc_id)
    return picked[:k]


def org_diverse_hybrid_search(
    index: CorpusIndex,
    question: str,
    *,
    k: int = options.K,
    include_superseded: bool | None = None,
    target: str | None = None,
    mimic: str | None = None,
    lam: float = 0.0,
    pool: int = options.CANDIDATE_POOL,
) -> list[ScoredPassage]:
    """The ``chr`` retriever (module docstring); ``include_superseded=None`` decides from the question's wording.

    ``lam`` weighs the mimic (the Context's ``chr_lambda`` when there are hypotheses, 0 without); ``pool`` is the
    smallest first-stage pool, grown with the corpus by :func:`~clinrag.tools.retrieval.hybrid.pool_size`.
    """
    if include_superseded is None:
        include_superseded, _ = temporal_intent(question)
    scored = hybrid_search(index, question, target=target, mimic=mimic, lam=lam, pool=pool)
    return org_diverse_select(scored, index.docs, k, include_superseded)


def org_diverse_search_passages(
    index: CorpusIndex,
    question: str,
    *,
    k: int = options.K,
    include_superseded: bool | None = None,
    target: str | None = None,
    mimic: str | None = None,
    lam: float = 0.0,
    pool: int = options.CANDIDATE_POOL,
) -> list[EvidenceItem]:
    """:func:`org_diverse_hybrid_search` as evidence items (fused score, absolute support)."""
    found = org_diverse_hybrid_search(index, question, k=k, include_superseded=include_superseded, target=target,
                                      mimic=mimic, lam=lam, pool=pool)
    return [to_evidence(s) for s in found]
