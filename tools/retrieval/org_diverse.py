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

What the question-understanding step read (``clinrag.question``) refines the rule: organizations the question names
go first, and alone unless it asks whether organizations agree (their documents' version chains are kept, so a
joint guideline filed as "ACC/AHA" in 2017 and "AHA/ACC" in 2025 is one lineage); an as-of date keeps only
documents issued by then, each labelled with its status at that date (a version replaced only after it was
current then), and :func:`as_of_gap` tells when nothing on the topic had been issued by that date.

Organizations and topics mean issuers of guidelines and clinical topics: on candidates without any guideline
(abstracts, whose ``org`` is a journal; MedQuAD's NIH collections, whose ``topic`` is a question type; textbook
chunks) the rule degrades to the hybrid ranking itself, best passage per document.
"""

from __future__ import annotations

import datetime as dt

from clinrag import options
from clinrag.schema import Document, EvidenceItem
from clinrag.tools.index.corpus_store import CorpusStore, PassageFilter
from clinrag.tools.index.text import temporal_intent
from clinrag.tools.retrieval.hybrid import ScoredPassage, hybrid_search

TOPIC_SUPPORT_MARGIN = 0.05


def status_at(doc: Document, docs: dict[str, Document], as_of: dt.date | None) -> str:
    """A document's status at ``as_of`` (today's without one): superseded only once its successor was issued."""
    if doc.status != "superseded" or as_of is None:
        return doc.status
    successor = docs.get(doc.superseded_by or "")
    replaced = successor is None or successor.issued is None or successor.issued <= as_of
    return "superseded" if replaced else "current"


def to_evidence(s: ScoredPassage, score: float | None = None, status: str | None = None) -> EvidenceItem:
    """``status``: the document's status at the question's as-of date, when it has one."""
    doc = s.passage.meta
    return EvidenceItem(
        doc_id=doc.doc_id,
        passage_id=s.passage.passage_id,
        org=doc.org,
        title=doc.title,
        issued=doc.issued.isoformat() if doc.issued else None,
        year=doc.year,
        status=status or doc.status,
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


def lineage(doc_ids: set[str], docs: dict[str, Document]) -> set[str]:
    """The documents plus every version before and after them (supersedes / superseded_by links)."""
    out, todo = set(), list(doc_ids)
    while todo:
        d = todo.pop()
        if d in out or d not in docs:
            continue
        out.add(d)
        todo += [x for x in (docs[d].supersedes, docs[d].superseded_by) if x]
    return out


def org_diverse_select(
    scored: list[ScoredPassage], docs: dict[str, Document], k: int, include_superseded: bool,
    named_orgs: list[str] | None = None, comparison: bool = False, as_of: dt.date | None = None,
) -> list[ScoredPassage]:
    """The selection rule, on already scored passages (best first); ``named_orgs``, ``comparison`` and ``as_of``
    come from question understanding (module docstring)."""
    diverse = diversifies(scored)
    topics = anchor_topics(scored) if diverse else None
    eligible = [s for s in scored if topics is None or s.passage.meta.topic in topics]
    if as_of is not None:
        dated = PassageFilter(issued_by=as_of)
        eligible = [s for s in eligible if dated.admits(s.passage.meta)]
    if named_orgs and diverse:
        named = lineage({s.passage.doc_id for s in eligible if s.passage.meta.org in named_orgs}, docs)
        if named:  # a named organization with nothing on the topic leaves the rule as it was
            first = [s for s in eligible if s.passage.doc_id in named]
            eligible = first + ([s for s in eligible if s.passage.doc_id not in named] if comparison else [])
    best_per_doc: dict[str, ScoredPassage] = {}
    for s in eligible:
        best_per_doc.setdefault(s.passage.doc_id, s)

    def current(s: ScoredPassage) -> bool:
        return status_at(s.passage.meta, docs, as_of) == "current"

    picked: list[ScoredPassage] = []
    orgs: set[str] = set()
    for s in best_per_doc.values() if diverse else ():  # insertion order is score order
        if current(s) and s.passage.meta.org not in orgs:
            orgs.add(s.passage.meta.org)
            picked.append(s)
            if include_superseded:
                picked += [best_per_doc[d] for d in _predecessors(s.passage.meta, docs) if d in best_per_doc]
    chosen_docs = {s.passage.doc_id for s in picked}
    for s in best_per_doc.values():  # remaining slots by overall score
        if s.passage.doc_id not in chosen_docs and (include_superseded or current(s)):
            picked.append(s)
            chosen_docs.add(s.passage.doc_id)
    return picked[:k]


def org_diverse_hybrid_search(
    index: CorpusStore,
    question: str,
    *,
    k: int = options.K,
    include_superseded: bool | None = None,
    target: str | None = None,
    mimic: str | None = None,
    lam: float = 0.0,
    pool: int = options.CANDIDATE_POOL,
    named_orgs: list[str] | None = None,
    comparison: bool = False,
    as_of: dt.date | None = None,
) -> list[ScoredPassage]:
    """The ``chr`` retriever (module docstring); ``include_superseded=None`` decides from the question's wording.

    ``lam`` weighs the mimic (the Context's ``chr_lambda`` when there are hypotheses, 0 without); ``pool`` is the
    smallest first-stage pool, grown with the corpus by :func:`~clinrag.tools.retrieval.hybrid.pool_size`.
    """
    if include_superseded is None:
        include_superseded, _ = temporal_intent(question)
    where = PassageFilter(orgs=tuple(named_orgs) if named_orgs else None, issued_by=as_of)
    scored = hybrid_search(index, question, target=target, mimic=mimic, lam=lam, pool=pool, where=where or None)
    return org_diverse_select(scored, index.docs, k, include_superseded and as_of is None, named_orgs, comparison,
                              as_of)


def org_diverse_search_passages(
    index: CorpusStore,
    question: str,
    *,
    k: int = options.K,
    include_superseded: bool | None = None,
    target: str | None = None,
    mimic: str | None = None,
    lam: float = 0.0,
    pool: int = options.CANDIDATE_POOL,
    named_orgs: list[str] | None = None,
    comparison: bool = False,
    as_of: dt.date | None = None,
) -> list[EvidenceItem]:
    """:func:`org_diverse_hybrid_search` as evidence items (fused score, absolute support; status at ``as_of``)."""
    understood = {k: v for k, v in (("named_orgs", named_orgs), ("comparison", comparison), ("as_of", as_of)) if v}
    found = org_diverse_hybrid_search(index, question, k=k, include_superseded=include_superseded, target=target,
                                      mimic=mimic, lam=lam, pool=pool, **understood)
    return [to_evidence(s, status=status_at(s.passage.meta, index.docs, as_of)) for s in found]


def as_of_gap(index: CorpusStore, question: str, as_of: dt.date, named_orgs: list[str] | None = None,
              pool: int = options.CANDIDATE_POOL) -> str | None:
    """Why the corpus holds no guidance on the question's topic (from the named organizations, when any has
    something on it) as of ``as_of``; None when it does."""
    scored = hybrid_search(index, question, pool=pool)
    topics = anchor_topics(scored) if diversifies(scored) else None
    on_topic = index.documents_on(topics)
    named = [d for d in on_topic if named_orgs and d.org in named_orgs]
    candidates = named or on_topic
    if not candidates or any(PassageFilter(issued_by=as_of).admits(d) for d in candidates):
        return None
    earliest = min(candidates, key=lambda d: d.issued or dt.date(d.year or 9999, 1, 1))
    who = f"{'/'.join(dict.fromkeys(d.org for d in named))} " if named else ""
    topic = f" on {earliest.topic.replace('-', ' ')}" if earliest.topic else ""
    return (f"No {who}guidance in this corpus as of {as_of.isoformat()}: the earliest {who}document{topic} here is "
            f"{earliest.doc_id}, issued {earliest.issued.isoformat() if earliest.issued else earliest.year}.")
