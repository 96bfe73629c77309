"""Temporal-citation balanced selection (Algorithm 1 of Javadi et al., arXiv:2511.06668) and
citation-count sources.

Per query, from the candidate abstracts (each with a publication year):

1. if there are at least ``min_years_for_sampling`` (20) distinct years, sample years about ``year_step`` (3)
   years apart across the full range: the earliest year, then each next year at least 3 years after the last
   one taken, and the latest year (replacing the last sampled year when it is closer than 3 years to it);
   otherwise keep every year;
2. within a year, order abstracts by citation count, highest first (ties and missing counts by relevance);
3. take abstracts round-robin across the kept years, oldest year first in each round, until ``limit`` (20)
   abstracts are chosen or the kept years run out.

Citation counts come from a pluggable :class:`CitationSource` (NIH iCite's ``/api/pubs`` format by default).
Without counts the order within a year falls back to the search engine's relevance order, and the result says so.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Literal, Protocol

from clinrag.options import MAX_PER_QUERY
from clinrag.pubmed.http import HttpClient, NCBIError, RateLimiter
from clinrag.pubmed.parse import PubMedRecord

log = logging.getLogger(__name__)

ICITE_BASE_URL = "https://icite.od.nih.gov/api"
ICITE_BATCH = 1000
MIN_YEARS_FOR_SAMPLING = 20
YEAR_STEP = 3


class CitationSource(Protocol):
    name: str

    def counts(self, pmids: list[str]) -> dict[str, int]:
        """Citation count per PMID (PMIDs the source does not know are left out)."""
        ...


class NoCitations:
    name = "none"

    def counts(self, pmids: list[str]) -> dict[str, int]:
        return {}


@dataclass
class ICiteSource:
    """NIH iCite: ``GET {base}/pubs?pmids=1,2&fl=pmid,citation_count`` -> ``{"data": [{"pmid", "citation_count"}]}``."""

    base_url: str = ICITE_BASE_URL
    http: HttpClient = field(default_factory=lambda: HttpClient(RateLimiter(5.0)))
    name: str = "icite"

    def counts(self, pmids: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for start in range(0, len(pmids), ICITE_BATCH):
            batch = pmids[start:start + ICITE_BATCH]
            raw = self.http.request(f"{self.base_url.rstrip('/')}/pubs",
                                    {"pmids": ",".join(batch), "fl": "pmid,citation_count"})
            try:
                rows = json.loads(raw).get("data", [])
            except (json.JSONDecodeError, AttributeError):
                raise NCBIError("iCite returned an unreadable response") from None
            for row in rows:
                if row.get("citation_count") is not None:
                    out[str(row["pmid"])] = int(row["citation_count"])
        return out


@dataclass
class Selection:
    records: list[PubMedRecord]
    ordering: Literal["citations", "relevance"]
    sampled_years: list[int]
    note: str = ""


def sample_years(years: list[int], step: int = YEAR_STEP) -> list[int]:
    """Years about ``step`` apart over the full range (earliest and latest included)."""
    distinct = sorted(set(years))
    if not distinct:
        return []
    chosen = [distinct[0]]
    for y in distinct[1:]:
        if y - chosen[-1] >= step:
            chosen.append(y)
    latest = distinct[-1]
    if chosen[-1] != latest:
        if len(chosen) > 1 and latest - chosen[-1] < step:
            chosen[-1] = latest
        else:
            chosen.append(latest)
    return chosen


def attach_citations(records: list[PubMedRecord], source: CitationSource) -> tuple[bool, str]:
    """Set ``citation_count`` from the source; (any counts found?, note)."""
    try:
        counts = source.counts([r.pmid for r in records])
    except NCBIError as e:
        log.warning("citation counts unavailable (%s); ordering by relevance", e)
        return False, f"citation counts unavailable from {source.name} ({e}); ordered by relevance"
    for r in records:
        if r.pmid in counts:
            r.citation_count = counts[r.pmid]
    if not counts:
        return False, f"no citation counts from {source.name}; within each year ordered by relevance"
    return True, f"citation counts from {source.name} for {len(counts)}/{len(records)} abstracts"


def balanced_selection(
    records: list[PubMedRecord], use_citations: bool, limit: int = MAX_PER_QUERY,
    min_years_for_sampling: int = MIN_YEARS_FOR_SAMPLING, step: int = YEAR_STEP,
) -> Selection:
    """Algorithm 1 on records that already carry ``citation_count`` (when ``use_citations``)."""
    dated = [r for r in records if r.year is not None]
    by_year: dict[int, list[PubMedRecord]] = defaultdict(list)
    for r in dated:
        by_year[r.year].append(r)
    years = sorted(by_year)
    kept = sample_years(years, step) if len(years) >= min_years_for_sampling else years

    def order(r: PubMedRecord):
        relevance = r.relevance_rank if r.relevance_rank is not None else 10**9
        if use_citations:
            return (-(r.citation_count if r.citation_count is not None else -1), relevance)
        return (relevance,)

    queues = {y: sorted(by_year[y], key=order) for y in kept}
    chosen: list[PubMedRecord] = []
    depth = 0
    while len(chosen) < limit and any(depth < len(q) for q in queues.values()):
        for y in kept:
            if depth < len(queues[y]) and len(chosen) < limit:
                chosen.append(queues[y][depth])
        depth += 1
    note = "" if use_citations else "no citation counts: within each year ordered by relevance"
    if len(dated) < len(records):
        note = (note + "; " if note else "") + f"{len(records) - len(dated)} abstracts without a year left out"
    return Selection(chosen, "citations" if use_citations else "relevance", kept, note)
