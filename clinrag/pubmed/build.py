"""Corpus builders: PubMed abstracts (E-utilities, three-tier queries, balanced selection) and PubMedQA (offline).

Both write a clinrag corpus (JSONL of :class:`~clinrag.schema.Document`, ``source_type`` "abstract") that
``clinrag index build --corpus`` indexes, plus sidecars beside it:

* ``NAME.records.jsonl``: the parsed PubMed records (MeSH headings, section labels, citation counts);
* ``NAME.queries.jsonl`` (PubMed builds): per query, the tier queries, the tier(s) used, hit counts, the
  selected PMIDs and how they were ordered.

No scope declaration is written: an abstract corpus is searched for every question.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field

from clinrag.options import MAX_PER_QUERY
from clinrag.pubmed.eutils import EUtils
from clinrag.pubmed.parse import ParseReport, PubMedRecord, format_abstract
from clinrag.pubmed.queries import formulate_queries
from clinrag.pubmed.selection import CitationSource, attach_citations, balanced_selection
from clinrag.schema import Document

log = logging.getLogger(__name__)

PUBMED_ORG = "PubMed"


class QueryLog(BaseModel):
    label: str  # "medicine | question" or the raw query
    medicine: str | None = None
    question: str | None = None
    tiers: list[tuple[str, str]] = Field(default_factory=list)
    hits: dict[str, int] = Field(default_factory=dict)  # tier -> PubMed count
    candidates: int = 0
    selected: list[str] = Field(default_factory=list)
    ordering: str = "relevance"
    sampled_years: list[int] = Field(default_factory=list)
    note: str = ""


def default_corpus_path(name: str) -> Path:
    """Built corpora live under ``CLINRAG_CORPUS_ROOT`` (default: ``$XDG_CACHE_HOME/clinrag/corpora``)."""
    env = os.environ.get("CLINRAG_CORPUS_ROOT")
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    root = Path(env).expanduser() if env else cache / "clinrag" / "corpora"
    return root / f"{name}.jsonl"


def record_to_document(record: PubMedRecord) -> Document:
    return Document(
        doc_id=f"pmid:{record.pmid}",
        source_type="abstract",
        org=record.journal_abbrev or record.journal or PUBMED_ORG,
        org_name=record.journal,
        title=record.title,
        year=record.year,
        text=record.abstract,
        url=f"https://pubmed.ncbi.nlm.nih.gov/{record.pmid}/",
        pmid=record.pmid,
        citation_count=record.citation_count,
    )


def write_corpus(records: list[PubMedRecord], out: Path, queries: list[QueryLog] | None = None) -> Path:
    """Corpus JSONL (one Document per record, PMID order of first appearance) and its sidecars."""
    out.parent.mkdir(parents=True, exist_ok=True)
    stem = out.name.removesuffix(".jsonl")
    docs = [record_to_document(r) for r in records]
    out.write_text("".join(d.model_dump_json(exclude_none=True) + "\n" for d in docs), encoding="utf-8")
    (out.parent / f"{stem}.records.jsonl").write_text(
        "".join(r.model_dump_json() + "\n" for r in records), encoding="utf-8")
    if queries is not None:
        (out.parent / f"{stem}.queries.jsonl").write_text(
            "".join(q.model_dump_json() + "\n" for q in queries), encoding="utf-8")
    return out


# ---------------------------------------------------------------------------------------------- PubMedQA

def pubmedqa_records(data_dir: Path) -> list[PubMedRecord]:
    """The 1,000 PubMedQA (PQA-L) abstracts as PubMed records.

    PubMedQA keeps the abstract without its conclusion as labelled ``contexts`` and the conclusion as
    ``long_answer``; both are kept (the conclusion labelled CONCLUSIONS). It stores no article title or
    journal: the title is PubMedQA's question (built from the article title) and the organization "PubMed".
    """
    path = data_dir / "pubmedqa" / "pqal_corpus.jsonl"
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found (PubMedQA under the data directory)")
    records = []
    seen: set[str] = set()
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            pmid = str(row["pmid"])
            if pmid in seen:
                continue
            seen.add(pmid)
            labels = row.get("context_labels") or [None] * len(row["contexts"])
            sections = [(label, " ".join(text.split())) for label, text in zip(labels, row["contexts"]) if text.strip()]
            if row.get("long_answer"):
                sections.append(("CONCLUSIONS", " ".join(row["long_answer"].split())))
            if not sections:
                continue
            records.append(PubMedRecord(
                pmid=pmid, title=row["question"].strip(), abstract=format_abstract(sections), sections=sections,
                year=int(row["year"]) if row.get("year") else None, mesh=row.get("mesh") or [],
                relevance_rank=len(records),
            ))
    return records


def build_pubmedqa_corpus(data_dir: Path, out: Path, progress: Callable[[int, int], None] | None = None) -> Path:
    records = pubmedqa_records(data_dir)
    if progress:
        progress(len(records), len(records))
    return write_corpus(records, out)


# ---------------------------------------------------------------------------------------------- PubMed

def _search_tiered(eutils: EUtils, tiers: list[tuple[str, str]], want: int, max_candidates: int,
                   log_entry: QueryLog, report: ParseReport, on_batch) -> list[PubMedRecord]:
    """Run the tiers in order, pooling distinct abstracts, until ``want`` candidates are found."""
    pool: dict[str, PubMedRecord] = {}
    for name, term in tiers:
        search = eutils.esearch(term, retmax=max_candidates, usehistory=True)
        log_entry.hits[name] = search.count
        if search.count:
            records, rep = eutils.fetch_records(search, limit=max_candidates, on_batch=on_batch)
            report.add(rep)
            for r in records:
                if r.pmid not in pool:
                    r.relevance_rank = len(pool)  # tier order first, then ESearch relevance
                    pool[r.pmid] = r
        if len(pool) >= want:
            break
    return list(pool.values())


def build_pubmed_corpus(
    eutils: EUtils,
    out: Path,
    *,
    raw_queries: list[str] = (),
    pairs: list[tuple[str, str]] = (),
    citations: CitationSource,
    per_query: int = MAX_PER_QUERY,
    max_candidates: int = 200,
    on_query: Callable[[str], None] | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> tuple[Path, list[QueryLog], ParseReport]:
    """Search, fetch, select (Algorithm 1) and write the corpus. ``pairs`` are (medicine, question)."""
    jobs: list[QueryLog] = [QueryLog(label=q, tiers=[("raw", q)]) for q in raw_queries]
    for medicine, question in pairs:
        tq = formulate_queries(medicine, question)
        jobs.append(QueryLog(label=f"{medicine} | {question}", medicine=medicine, question=question, tiers=tq.tiers()))
    corpus: dict[str, PubMedRecord] = {}
    report = ParseReport()
    for job in jobs:
        if on_query:
            on_query(job.label)
        candidates = _search_tiered(eutils, job.tiers, per_query, max_candidates, job, report, on_batch)
        job.candidates = len(candidates)
        found, note = attach_citations(candidates, citations) if candidates else (False, "")
        selection = balanced_selection(candidates, use_citations=found, limit=per_query)
        job.selected = [r.pmid for r in selection.records]
        job.ordering, job.sampled_years = selection.ordering, selection.sampled_years
        job.note = "; ".join(n for n in (note, selection.note) if n)
        for r in selection.records:
            corpus.setdefault(r.pmid, r)
    if not corpus:
        raise ValueError("no abstracts found for any query; nothing written")
    return write_corpus(list(corpus.values()), out, jobs), jobs, report


def pubmedqa_corpus(data_root: Path | None = None) -> Path:
    """The PubMedQA corpus in the corpora folder, built from the data directory when missing."""
    from clinrag.paths import data_dir

    path = default_corpus_path("pubmedqa")
    if not path.is_file():
        build_pubmedqa_corpus(data_root or data_dir(), path)
    return path
