"""The corpus in PostgreSQL + pgvector gives the embedded store's answers.

The built-in corpus is loaded with ``clinrag index build --store postgres`` into a fresh database of a real
PostgreSQL 16 (``postgres_url`` in conftest.py: CLINRAG_TEST_DATABASE_URL, else pgserver; a server that cannot
start fails the test with the reason). Then: BM25 scores equal the stored bm25s weights bit for bit, the store keeps
no per-passage array, and every guideline-drift case gets the same decision, evidence documents and support scores
on both stores.
"""

from __future__ import annotations

import numpy as np
import pytest

from clinrag.context import Context
from clinrag.paths import BUILTIN_CORPUS

pytestmark = pytest.mark.integration


@pytest.fixture
def loaded(postgres_db, monkeypatch, guideline_index, capsys):
    """The built-in corpus loaded into a fresh database through the command line; the database URL is set."""
    from clinrag.cli.main import main

    monkeypatch.setenv("CLINRAG_DATABASE_URL", postgres_db)
    assert main(["index", "build", "--store", "postgres"]) == 0
    out = capsys.readouterr().out
    assert "corpus guidelines loaded into" in out and "33 documents, 47 passages" in out, out
    assert "postgres_db" not in out
    from clinrag.tools.index.pg_store import get_postgres_corpus

    return get_postgres_corpus(postgres_db, str(BUILTIN_CORPUS))


def test_bm25_and_term_coverage_equal_the_embedded_store(loaded, guideline_index):
    vocab = [t for t in guideline_index.bm25.vocab if t]  # bm25s also lists "", a token no passage has
    rows = list(range(guideline_index.passage_count()))
    for term in vocab:  # every term's weights, i.e. every stored bm25s weight
        assert np.array_equal(loaded.lexical_scores([term], rows), guideline_index.bm25.get_scores([term])), term
    query = ["mammography", "screening", "screening", "women", "age", "unknownword"]
    assert np.array_equal(loaded.lexical_scores(query, rows), guideline_index.lexical_scores(query, rows))
    assert loaded.lexical_top(query, 7) == guideline_index.lexical_top(query, 7)
    assert np.array_equal(loaded.term_coverage(query, rows), guideline_index.term_coverage(query, rows))


@pytest.mark.parametrize("path", ["exact scan", "hnsw with raised ef_search"])
def test_filtered_dense_search_equals_the_embedded_store(loaded, guideline_index, monkeypatch, path):
    import datetime as dt

    from clinrag.tools.index import pg_store
    from clinrag.tools.index.corpus_store import PassageFilter
    from clinrag.tools.index.embeddings import embed_cached

    if path != "exact scan":  # a 47-passage corpus is scanned exactly; force the large-corpus branch
        monkeypatch.setattr(pg_store, "EXACT_FILTER_MAX", 0)
        monkeypatch.setattr(pg_store, "HNSW_MIN_PASSAGES", 0)
    q = embed_cached(["When should screening for prostate cancer start?"])[0]
    for where in (PassageFilter(orgs=("USPSTF", "ACS")), PassageFilter(issued_by=dt.date(2013, 1, 1)),
                  PassageFilter(orgs=("USPSTF",), year_from=2016, year_to=2021), PassageFilter(orgs=("nobody",))):
        assert loaded.dense_search_where(q, 5, where) == guideline_index.dense_search_where(q, 5, where), where


def test_the_worker_keeps_no_per_passage_arrays(loaded):
    held = {name: value for name, value in vars(loaded).items()}
    assert not [name for name, value in held.items() if isinstance(value, np.ndarray | list | dict | tuple)]
    assert type(loaded.docs).__name__ == "_Documents"  # looked up per access, not a dict of every document
    assert loaded.docs["uspstf-prostate-2012"].superseded_by == "uspstf-prostate-2018"
    assert "no-such-doc" not in loaded.docs and len(loaded.docs) == 33


def test_guideline_drift_gives_the_same_answers_on_both_stores(loaded, postgres_db):
    from clinrag.evals.guideline_drift import load_cases, make_target

    cases = load_cases()
    embedded = make_target(Context(corpus_store="embedded"))
    postgres = make_target(Context(corpus_store="postgres"))
    assert len(cases) == 65
    for case in cases:
        a, b = embedded(case.inputs.model_dump()), postgres(case.inputs.model_dump())
        assert (a["decision"], a["abstain_reason"]) == (b["decision"], b["abstain_reason"]), case.inputs.question
        assert [e["doc_id"] for e in a["evidence"]] == [e["doc_id"] for e in b["evidence"]], case.inputs.question
        assert [e["status"] for e in a["evidence"]] == [e["status"] for e in b["evidence"]]
        assert np.allclose([e["support_score"] for e in a["evidence"]], [e["support_score"] for e in b["evidence"]],
                           rtol=0, atol=1e-6), case.inputs.question
        assert a["answer"] == b["answer"], case.inputs.question


def test_auto_uses_the_database_that_holds_the_corpus(loaded, postgres_db, monkeypatch):
    from clinrag.tools.index.corpus_store import store_kind

    assert store_kind(Context()) == "postgres"  # auto, CLINRAG_DATABASE_URL set and the corpus loaded there
    assert store_kind(Context(corpus_store="embedded")) == "embedded"
    assert store_kind(Context(corpus_path="/elsewhere/other.jsonl")) == "embedded"  # not the corpus it holds
    monkeypatch.delenv("CLINRAG_DATABASE_URL")
    assert store_kind(Context()) == "embedded"
    with pytest.raises(ValueError, match="CLINRAG_DATABASE_URL is not set"):
        store_kind(Context(corpus_store="postgres"))


def test_a_corpus_without_pair_scores_or_scope_loads(postgres_db, guideline_index, tmp_path):
    import json

    from clinrag.tools.index.pg_load import load_corpus
    from clinrag.tools.index.pg_schema import connect, loaded_corpus

    corpus = tmp_path / "three.jsonl"  # no scope declaration beside it
    lines = BUILTIN_CORPUS.read_text(encoding="utf-8").splitlines()
    docs = [json.loads(line) for line in lines if '"supersede' not in line][:3]
    corpus.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    assert load_corpus(postgres_db, corpus, pair_scores=False)["pairs"] == 0
    with connect(postgres_db) as conn:
        assert loaded_corpus(conn)["name"] == "three"
        meta = dict(conn.execute("SELECT key, value FROM clinrag_corpus.meta").fetchall())
    assert meta["pair_scores"] is None and meta["scope"] is None  # JSON null, not a NOT NULL violation
