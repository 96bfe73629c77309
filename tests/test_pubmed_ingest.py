"""PubMed ingestion: E-utilities protocol against a local server, XML parsing, dedupe, rate limit, retries."""

from __future__ import annotations

import pytest
from fake_ncbi import FIXTURES, FakeNCBI, serve

from clinrag.pubmed.eutils import EUtils
from clinrag.pubmed.http import HttpClient, NCBIError, RateLimiter, requests_per_second
from clinrag.pubmed.parse import parse_pubmed_xml


def _client(url: str, api_key: str | None = None) -> EUtils:
    http = HttpClient(RateLimiter(1000.0), backoff_base=0.0, sleep=lambda s: None)
    return EUtils(base_url=url, api_key=api_key, email=None, http=http)


def test_parse_fixture_article_set():
    records, report = parse_pubmed_xml((FIXTURES / "efetch_articles.xml").read_bytes())
    # 9 article elements: 8 parse, 1 has no PMID; 1 parsed record has no abstract and is dropped
    assert (report.articles, report.parsed, report.failed, report.no_abstract) == (9, 8, 1, 1)
    assert report.parse_rate == pytest.approx(8 / 9)
    by_id = {r.pmid: r for r in records}
    assert sorted(by_id) == ["39000001", "39000002", "39000004", "39000005", "39000006", "39000008", "39000010"]
    first = by_id["39000001"]
    assert first.title == "Fixturamab versus placebo in adult patients with chronic testitis: a randomized trial."
    assert first.abstract.splitlines()[0] == (
        "BACKGROUND: Fixturamab is an invented antibody used only in this test fixture.")
    assert [label for label, _ in first.sections] == ["BACKGROUND", "METHODS", "RESULTS", "CONCLUSIONS"]
    assert "(p<0.01)" in first.abstract
    assert (first.year, first.journal, first.journal_abbrev) == (
        2019, "Journal of Fixture Pharmacology", "J Fixture Pharmacol")
    assert first.mesh == ["Antibodies, Monoclonal", "Chronic Disease"]
    assert by_id["39000002"].year == 1998  # MedlineDate "1998 Dec-1999 Jan"
    assert by_id["39000005"].year == 2010 and by_id["39000005"].journal == "Invented Press"  # book article
    assert "3.2 mg/m2 after" in by_id["39000006"].abstract  # <sup> flattened
    assert by_id["39000006"].abstract.count("\n") == 1  # two unlabelled paragraphs
    assert by_id["39000010"].abstract.startswith("BACKGROUND: ")  # labels normalised to upper case


def test_esearch_efetch_by_id_list_posts_batches(monkeypatch):
    with serve() as fake:
        eutils = _client(fake.url, api_key="KEY123")
        search = eutils.esearch("fixturol", retmax=50)
        assert search.count == 8 and search.pmids[0] == "39000010" and search.webenv is None
        records, report = eutils.fetch_records(search, batch_size=3)
    efetches = [r for r in fake.requests if r[1].endswith("efetch.fcgi")]
    assert [m for m, _, _ in efetches] == ["POST"] * 3  # 8 ids in batches of 3
    assert [len(p["id"].split(",")) for _, _, p in efetches] == [3, 3, 2]
    assert all(p["api_key"] == "KEY123" and p["tool"] == "clinrag" and p["db"] == "pubmed" for _, _, p in fake.requests)
    esearch = fake.requests[0][2]
    assert (esearch["retmode"], esearch["sort"], esearch["term"]) == ("json", "relevance", "fixturol")
    assert [r.pmid for r in sorted(records, key=lambda r: r.relevance_rank)] == [
        "39000010", "39000002", "39000004", "39000005", "39000006", "39000008", "39000001"]  # 39000003: no abstract
    assert report.no_abstract == 1 and report.parsed == 8


def test_history_server_fetch_and_dedupe_across_queries():
    with serve() as fake:
        eutils = _client(fake.url)
        search = eutils.esearch("fixturol", retmax=2, usehistory=True)
        assert search.webenv == "MCID_fixture_webenv_1" and search.query_key == "1" and search.count == 8
        seen: set[str] = set()
        records, _ = eutils.fetch_records(search, limit=5, seen=seen, batch_size=3)
        again, report = eutils.fetch_records(pmids=["39000001", "39000002"], seen=seen)
    history = [p for _, path, p in fake.requests if path.endswith("efetch.fcgi")][:2]
    assert [(p["retstart"], p["retmax"], p["WebEnv"], p["query_key"]) for p in history] == [
        ("0", "3", "MCID_fixture_webenv_1", "1"), ("3", "2", "MCID_fixture_webenv_1", "1")]
    assert [r.pmid for r in records] == ["39000010", "39000002", "39000004", "39000005"]  # 5 fetched, 1 no abstract
    assert [r.pmid for r in again] == ["39000001"] and report.duplicates == 1  # 39000002 seen in the first query


def test_retries_after_429_then_succeeds():
    with serve(FakeNCBI(fail_first=2)) as fake:
        search = _client(fake.url).esearch("fixturol")
    assert search.count == 8 and len(fake.requests) == 3


def test_gives_up_and_reports_errors():
    with serve(FakeNCBI(fail_first=10)) as fake:
        with pytest.raises(NCBIError, match="giving up after 4 attempts"):
            _client(fake.url).esearch("fixturol")
    with serve() as fake:
        with pytest.raises(NCBIError, match="Invalid query"):
            _client(fake.url).esearch("bad query")
        assert _client(fake.url).esearch("nothing matches this").pmids == []


def test_rate_limiter_spaces_requests_by_key_presence():
    now = [0.0]
    starts = []

    def sleep(s):
        now[0] += s

    for key, gap in ((None, 1 / 3), ("KEY", 1 / 10)):
        limiter = RateLimiter(requests_per_second(key), clock=lambda: now[0], sleep=sleep)
        starts.clear()
        for _ in range(4):
            limiter.wait()
            starts.append(now[0])
        assert [round(b - a, 6) for a, b in zip(starts, starts[1:])] == [round(gap, 6)] * 3


def test_api_key_comes_from_environment(monkeypatch):
    monkeypatch.setenv("NCBI_API_KEY", "ENVKEY")
    eutils = EUtils(base_url="http://127.0.0.1:9")
    assert eutils.api_key == "ENVKEY" and eutils.http.limiter.rate == 10.0
    monkeypatch.delenv("NCBI_API_KEY")
    assert EUtils(base_url="http://127.0.0.1:9").http.limiter.rate == 3.0
