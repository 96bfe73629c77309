"""Corpus builders: PubMed through the local fake E-utilities/iCite server, PubMedQA from the data directory."""

from __future__ import annotations

import json

import pytest
from fake_ncbi import FakeNCBI, serve

from clinrag.documents import load_documents
from clinrag.pubmed.build import build_pubmed_corpus, pubmedqa_records
from clinrag.pubmed.eutils import EUtils
from clinrag.pubmed.http import HttpClient, RateLimiter
from clinrag.pubmed.selection import ICiteSource, NoCitations


def _fast(url: str) -> EUtils:
    return EUtils(base_url=url, api_key=None, email=None, http=HttpClient(RateLimiter(1000.0), sleep=lambda s: None))


def test_build_pubmed_corpus_from_raw_query(tmp_path):
    out = tmp_path / "pm.jsonl"
    with serve(FakeNCBI()) as fake:
        icite = ICiteSource(base_url=f"{fake.url}/api", http=HttpClient(RateLimiter(1000.0), sleep=lambda s: None))
        _, jobs, report = build_pubmed_corpus(_fast(fake.url), out, raw_queries=["fixturol"], citations=icite,
                                              per_query=4)
    docs = load_documents(out)  # valid clinrag corpus
    # 7 abstracts in 7 distinct years (< 20): all years kept; round 1 takes one per year, oldest first, until 4
    assert [d.doc_id for d in docs] == ["pmid:39000002", "pmid:39000008", "pmid:39000006", "pmid:39000005"]
    first = docs[0]
    assert (first.source_type, first.year, first.org, first.pmid, first.citation_count) == (
        "abstract", 1998, "Arch Invent Med", "39000002", 40)
    assert jobs[0].ordering == "citations" and jobs[0].hits == {"raw": 8} and jobs[0].candidates == 7
    assert (report.articles, report.parsed, report.no_abstract) == (8, 8, 1)
    sidecar = [json.loads(l) for l in (tmp_path / "pm.records.jsonl").read_text().splitlines()]
    assert sidecar[0]["mesh"] == ["Aged"]
    queries = [json.loads(l) for l in (tmp_path / "pm.queries.jsonl").read_text().splitlines()]
    assert queries[0]["selected"] == ["39000002", "39000008", "39000006", "39000005"]


def test_tiered_queries_fall_through_and_relevance_fallback(tmp_path):
    fake = FakeNCBI()
    with serve(fake):
        with pytest.raises(ValueError, match="no abstracts found"):
            build_pubmed_corpus(_fast(fake.url), tmp_path / "t.jsonl", pairs=[("fixturol", "How do I take fixturol?")],
                                citations=NoCitations(), per_query=20)
        tiers_seen = [p["term"] for _, path, p in fake.requests if path.endswith("esearch.fcgi")]
    # the fake knows none of the tier queries: every tier is tried, nothing found, nothing written
    assert not (tmp_path / "t.jsonl").exists()
    assert tiers_seen == ['"take fixturol"[tiab:~10]', '"take fixturol"[tiab:~25] AND "fixturol"[ti]',
                          '"how do i take fixturol"[tiab:~25]']
    fake.searches['"take fixturol"[tiab:~25] AND "fixturol"[ti]'] = "esearch_fixturol.json"
    fake.requests.clear()
    with serve(fake):
        _, jobs, _ = build_pubmed_corpus(_fast(fake.url), tmp_path / "t.jsonl",
                                         pairs=[("fixturol", "How do I take fixturol?")],
                                         citations=NoCitations(), per_query=20)
    assert jobs[0].hits == {"Q1": 0, "Q2": 8, "Q3": 0} and len(jobs[0].selected) == 7
    assert jobs[0].ordering == "relevance" and "relevance" in jobs[0].note


def test_cli_corpus_build_pubmed_against_local_server(tmp_path, capsys):
    from clinrag.cli.main import main

    out = tmp_path / "cli.jsonl"
    with serve(FakeNCBI()) as fake:
        code = main(["corpus", "build", "pubmed", "--query", "fixturol", "--base-url", fake.url,
                     "--icite-url", f"{fake.url}/api", "--out", str(out)])
    assert code == 0 and len(load_documents(out)) == 7
    printed = capsys.readouterr().out
    assert "parsed 8/8 records (100.0%)" in printed and "index it with" in printed
    assert main(["corpus", "build", "pubmed", "--out", str(out)]) == 2


def test_pubmedqa_records_from_data_dir():
    from clinrag.paths import data_dir

    try:
        root = data_dir()
    except FileNotFoundError:
        pytest.skip("no data directory")
    if not (root / "pubmedqa" / "pqal_corpus.jsonl").is_file():
        pytest.skip("PubMedQA not in the data directory")
    records = pubmedqa_records(root)
    years = [r.year for r in records if r.year]
    assert len(records) == 1000 and len({r.pmid for r in records}) == 1000
    assert (min(years), max(years)) == (1989, 2017) and len(years) == 942  # 58 records carry no year
    assert all(r.abstract and r.sections[-1][0] == "CONCLUSIONS" for r in records)
