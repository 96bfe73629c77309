"""Temporal-citation balanced selection (Algorithm 1) with hand-computed expectations; iCite format locally."""

from __future__ import annotations

from fake_ncbi import FakeNCBI, serve

from clinrag.pubmed.http import HttpClient, RateLimiter
from clinrag.pubmed.parse import PubMedRecord
from clinrag.pubmed.selection import ICiteSource, NoCitations, attach_citations, balanced_selection, sample_years


def rec(pmid: int, year: int | None, cites: int | None = None, rank: int = 0) -> PubMedRecord:
    return PubMedRecord(pmid=str(pmid), title=f"t{pmid}", abstract="a", year=year, citation_count=cites,
                        relevance_rank=rank)


def test_sample_years_three_apart_over_full_range():
    assert sample_years(list(range(2000, 2011))) == [2000, 2003, 2006, 2010]  # 2009 replaced by the latest year
    assert sample_years([1990, 1991, 1995, 1996, 2001, 2002]) == [1990, 1995, 2002]  # 2001 -> 2002 (latest)
    assert sample_years([2000, 2001, 2012]) == [2000, 2012]
    assert sample_years([2005]) == [2005] and sample_years([]) == []


def test_fewer_than_20_years_keeps_all_years_round_robin_by_citations():
    records = [rec(1, 2001, 5, 0), rec(2, 2001, 50, 1), rec(3, 2001, 7, 2), rec(4, 2005, 1, 3), rec(5, 2005, 9, 4),
               rec(6, 2010, 3, 5)]
    sel = balanced_selection(records, use_citations=True, limit=5)
    # years 2001, 2005, 2010; round 1: best of each year by citations; round 2: second best, until 5
    assert [r.pmid for r in sel.records] == ["2", "5", "6", "3", "4"]
    assert sel.sampled_years == [2001, 2005, 2010] and sel.ordering == "citations" and sel.note == ""


def test_twenty_or_more_years_are_sampled_three_apart():
    records = [rec(1000 + y, y, cites=y % 7, rank=y) for y in range(1990, 2010)]  # 20 distinct years, one each
    records += [rec(3000 + y, y, cites=100, rank=50 + y) for y in (1990, 1993)]  # a second, more cited, abstract
    sel = balanced_selection(records, use_citations=True)
    assert sel.sampled_years == [1990, 1993, 1996, 1999, 2002, 2005, 2009]
    # round 1: the most cited of each sampled year (4990 and 4993 beat 2990/2993), round 2: what is left
    assert [r.pmid for r in sel.records] == ["4990", "4993", "2996", "2999", "3002", "3005", "3009", "2990", "2993"]
    assert len(sel.records) == 9  # fewer than 20 available in the sampled years


def test_limit_twenty_and_relevance_fallback_says_so():
    records = [rec(i, 2000 + i % 4, None, rank=i) for i in range(40)] + [rec(99, None, rank=0)]
    sel = balanced_selection(records, use_citations=False)
    assert len(sel.records) == 20 and sel.ordering == "relevance"
    assert [r.pmid for r in sel.records[:8]] == ["0", "1", "2", "3", "4", "5", "6", "7"]  # by relevance in each year
    assert "relevance" in sel.note and "1 abstracts without a year" in sel.note


def test_icite_counts_from_local_server_and_fallback():
    records = [rec(39000001, 2019), rec(39000002, 1998), rec(39000099, 2020)]
    with serve(FakeNCBI()) as fake:
        source = ICiteSource(base_url=f"{fake.url}/api", http=HttpClient(RateLimiter(1000.0), sleep=lambda s: None))
        found, note = attach_citations(records, source)
    assert found and [r.citation_count for r in records] == [12, 40, None]
    assert "2/3" in note
    assert fake.requests[0][2] == {"pmids": "39000001,39000002,39000099", "fl": "pmid,citation_count"}
    found, note = attach_citations([rec(1, 2000)], NoCitations())
    assert not found and "relevance" in note
    dead = ICiteSource(base_url="http://127.0.0.1:9/api",
                       http=HttpClient(RateLimiter(1000.0), max_attempts=1, timeout=2, sleep=lambda s: None))
    found, note = attach_citations([rec(1, 2000)], dead)
    assert not found and "unavailable" in note
