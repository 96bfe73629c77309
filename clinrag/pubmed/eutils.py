"""NCBI E-utilities for PubMed: ESearch (PMIDs, optionally on the history server) and EFetch (PubMed XML).

Protocol, as NCBI documents it:

* ``esearch.fcgi?db=pubmed&term=...&retmode=json&retmax=N&sort=relevance[&usehistory=y]`` returns
  ``{"esearchresult": {"count", "retmax", "retstart", "idlist", "webenv", "querykey", ...}}`` (an ``ERROR``
  key or a top-level ``error`` on failure);
* ``efetch.fcgi`` with ``db=pubmed&retmode=xml&rettype=abstract`` and either ``id=1,2,3`` (sent as a POST,
  which NCBI asks for with long id lists) or ``WebEnv`` + ``query_key`` + ``retstart`` + ``retmax``;
  batches of 300 records;
* every request carries ``tool`` (and ``email`` from ``NCBI_EMAIL`` when set) and ``api_key`` from
  ``NCBI_API_KEY`` when set, which also raises the rate limit from 3 to 10 requests per second.

The base URL is configurable (``--base-url``; tests point it at a local server).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from clinrag.pubmed.http import HttpClient, NCBIError, RateLimiter, api_key_from_env, requests_per_second
from clinrag.pubmed.parse import ParseReport, PubMedRecord, parse_pubmed_xml

EUTILS_BASE_URL = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils"
EFETCH_BATCH = 300
TOOL_NAME = "clinrag"


@dataclass
class SearchResult:
    query: str
    count: int  # total hits in PubMed
    pmids: list[str]  # in the order ESearch returned them (relevance when sort=relevance)
    webenv: str | None = None
    query_key: str | None = None
    query_translation: str | None = None


@dataclass
class EUtils:
    """A PubMed E-utilities client (one per process and base URL is enough)."""

    base_url: str = EUTILS_BASE_URL
    api_key: str | None = field(default_factory=api_key_from_env)
    email: str | None = field(default_factory=lambda: os.environ.get("NCBI_EMAIL") or None)
    http: HttpClient | None = None

    def __post_init__(self) -> None:
        self.base_url = self.base_url.rstrip("/")
        if self.http is None:
            self.http = HttpClient(RateLimiter(requests_per_second(self.api_key)))

    def _params(self, **params) -> dict[str, str]:
        out = {"db": "pubmed", "tool": TOOL_NAME, **{k: str(v) for k, v in params.items() if v is not None}}
        if self.email:
            out["email"] = self.email
        if self.api_key:
            out["api_key"] = self.api_key
        return out

    def esearch(self, term: str, retmax: int = 200, retstart: int = 0, usehistory: bool = False,
                sort: str = "relevance") -> SearchResult:
        params = self._params(term=term, retmode="json", retmax=retmax, retstart=retstart, sort=sort,
                              usehistory="y" if usehistory else None)
        raw = self.http.request(f"{self.base_url}/esearch.fcgi", params)
        try:
            payload = json.loads(raw)
        except json.JSONDecodeError as e:
            raise NCBIError(f"ESearch returned invalid JSON ({e.msg})") from None
        if "error" in payload:
            raise NCBIError(f"ESearch error: {payload['error']}")
        result = payload.get("esearchresult")
        if not isinstance(result, dict) or "ERROR" in result:
            raise NCBIError(f"ESearch error: {(result or {}).get('ERROR', 'no esearchresult in the response')}")
        return SearchResult(
            query=term,
            count=int(result.get("count", 0)),
            pmids=[str(p) for p in result.get("idlist", [])],
            webenv=result.get("webenv"),
            query_key=result.get("querykey"),
            query_translation=result.get("querytranslation"),
        )

    def efetch_xml(self, pmids: list[str] | None = None, *, webenv: str | None = None, query_key: str | None = None,
                   retstart: int = 0, retmax: int = EFETCH_BATCH) -> bytes:
        """One EFetch call: an id list (POST) or a slice of a history-server result set."""
        if pmids is not None:
            params = self._params(id=",".join(pmids), retmode="xml", rettype="abstract")
            return self.http.request(f"{self.base_url}/efetch.fcgi", params, method="POST")
        if not (webenv and query_key):
            raise ValueError("efetch needs either pmids or webenv and query_key")
        params = self._params(WebEnv=webenv, query_key=query_key, retstart=retstart, retmax=retmax,
                              retmode="xml", rettype="abstract")
        return self.http.request(f"{self.base_url}/efetch.fcgi", params)

    def fetch_batches(self, search: SearchResult | None = None, pmids: list[str] | None = None,
                      limit: int | None = None, batch_size: int = EFETCH_BATCH) -> Iterator[bytes]:
        """EFetch XML in batches of ``batch_size``: by id list, or from the history server when the search used it."""
        if pmids is None and search is not None and search.webenv and search.query_key:
            total = min(search.count, limit) if limit is not None else search.count
            for start in range(0, total, batch_size):
                yield self.efetch_xml(webenv=search.webenv, query_key=search.query_key, retstart=start,
                                      retmax=min(batch_size, total - start))
            return
        ids = pmids if pmids is not None else (search.pmids if search else [])
        ids = ids[:limit] if limit is not None else ids
        for start in range(0, len(ids), batch_size):
            yield self.efetch_xml(ids[start:start + batch_size])

    def fetch_records(self, search: SearchResult | None = None, pmids: list[str] | None = None,
                      limit: int | None = None, seen: set[str] | None = None,
                      on_batch: Callable[[int], None] | None = None,
                      batch_size: int = EFETCH_BATCH) -> tuple[list[PubMedRecord], ParseReport]:
        """Parsed records (with abstract, deduplicated by PMID) and what the parser saw.

        Records keep their ESearch position as ``relevance_rank`` when the order is known.
        """
        by_history = pmids is None and search is not None and bool(search.webenv and search.query_key)
        wanted = pmids if pmids is not None else (search.pmids if search else [])
        order = {} if by_history else {p: i for i, p in enumerate(wanted)}
        seen = set() if seen is None else seen
        records: list[PubMedRecord] = []
        report = ParseReport()
        for xml in self.fetch_batches(search, pmids, limit, batch_size):
            batch, batch_report = parse_pubmed_xml(xml, seen)
            report.add(batch_report)
            records += batch
            if on_batch:
                on_batch(batch_report.articles)
        for i, r in enumerate(records):  # history-server batches come back in ESearch order
            r.relevance_rank = i if by_history else order.get(r.pmid, len(order) + i)
        return records, report
