"""A living corpus in PostgreSQL: ``clinrag corpus add | replace | retire``, each in one transaction.

Against a real PostgreSQL 16 (``postgres_db`` in conftest.py; a server that cannot start fails the test): bad input
writes nothing; BM25 statistics after ``add`` and ``retire`` give the scores of an embedded index built from the
resulting corpus; readers asking while ``replace`` runs see the complete old state or the complete new one, never a
mix; and afterwards ``clinrag ask`` cites the new version as current.
"""

from __future__ import annotations

import json
import threading
import time

import numpy as np
import pytest

from clinrag.paths import BUILTIN_CORPUS

pytestmark = pytest.mark.integration

OLD = "uspstf-prostate-2018"
NEW = "uspstf-prostate-2026"
QUESTION = "What does the USPSTF recommend for prostate cancer screening?"
NEW_DOC = {
    "doc_id": NEW, "source_type": "guideline", "org": "USPSTF", "org_name": "US Preventive Services Task Force",
    "title": "Prostate Cancer: Screening (2026 update)", "issued": "2026-03-03", "status": "current",
    "topic": "prostate-cancer-screening", "population": "Men aged 50 to 74 years",
    "text": ("For men aged 50 to 74 years, the USPSTF recommends that the decision to undergo periodic PSA-based "
             "prostate cancer screening be an individual one, with biparametric MRI triage before any biopsy "
             "(grade B). The USPSTF recommends against PSA-based screening for prostate cancer in men 75 years and "
             "older (grade D)."),
}


def write_jsonl(path, *records) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


@pytest.fixture
def store(postgres_db, monkeypatch, guideline_index):
    from clinrag.tools.index.pg_load import load_corpus
    from clinrag.tools.index.pg_store import get_postgres_corpus

    monkeypatch.setenv("CLINRAG_DATABASE_URL", postgres_db)
    load_corpus(postgres_db, BUILTIN_CORPUS)
    return get_postgres_corpus(postgres_db, str(BUILTIN_CORPUS))


def generation(store) -> int:
    return int(store._meta("generation"))


def run_cli(args: list[str], capsys) -> tuple[int, str, str]:
    from clinrag.cli.main import main

    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_bad_input_is_one_line_and_writes_nothing(store, tmp_path, capsys):
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(NEW_DOC) + "\n{not json\n")
    unknown = write_jsonl(tmp_path / "unknown.jsonl", {**NEW_DOC, "colour": "red"})
    existing = write_jsonl(tmp_path / "existing.jsonl", {**NEW_DOC, "doc_id": OLD})
    cases = [(["corpus", "add", str(broken)], "broken.jsonl:2: invalid JSON"),
             (["corpus", "add", unknown], "unknown.jsonl:1: field 'colour'"),
             (["corpus", "add", existing], f"'{OLD}' is already in the corpus database"),
             (["corpus", "replace", "no-such-doc", write_jsonl(tmp_path / "n.jsonl", NEW_DOC)], "no document"),
             (["corpus", "retire", "no-such-doc"], "no document 'no-such-doc'")]
    for args, expected in cases:
        code, out, err = run_cli(args, capsys)
        assert code == 2 and expected in err and len(err.strip().splitlines()) == 1, (args, err)
    assert generation(store) == 0 and len(store.docs) == 33 and store.passage_count() == 47


def test_without_a_database_the_command_points_at_the_atomic_rebuild(monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("CLINRAG_DATABASE_URL", raising=False)
    code, _, err = run_cli(["corpus", "retire", OLD], capsys)
    assert code == 2 and "CLINRAG_DATABASE_URL is not set" in err and "rebuilds it atomically" in err


def test_bm25_after_add_and_retire_matches_a_rebuilt_embedded_index(store, tmp_path, capsys):
    from clinrag.documents import load_documents
    from clinrag.tools.index.store import CorpusIndex, build_index

    added = {**NEW_DOC, "doc_id": "extra-prostate-2026", "org": "EXTRA", "org_name": None}
    code, out, _ = run_cli(["corpus", "add", write_jsonl(tmp_path / "add.jsonl", added)], capsys)
    assert code == 0 and "added extra-prostate-2026" in out and generation(store) == 1
    corpus = tmp_path / "guidelines.jsonl"  # the corpus as a rebuild would index it
    corpus.write_text(BUILTIN_CORPUS.read_text() + json.dumps(added) + "\n")
    (tmp_path / "guidelines.scope.yaml").write_text(BUILTIN_CORPUS.with_suffix(".scope.yaml").read_text())
    rebuilt = CorpusIndex.load(corpus, build_index(corpus, tmp_path / "index", pair_scores=False))
    assert len(load_documents(corpus)) == 34 and store.passage_count() == rebuilt.passage_count() == 48
    rows = list(range(48))  # the new passage took the next row in both
    assert [p.passage_id for p in store.passages_at(rows)] == [p.passage_id for p in rebuilt.passages]
    for query in (["biparametric", "prostate", "screening", "screening"], ["mammography", "women"], ["men", "75"]):
        assert np.array_equal(store.lexical_scores(query, rows), rebuilt.lexical_scores(query, rows)), query
        assert np.array_equal(store.term_coverage(query, rows), rebuilt.term_coverage(query, rows)), query
    assert store.lexical_top(["biparametric"], 5) == [47]

    code, out, _ = run_cli(["corpus", "retire", "extra-prostate-2026"], capsys)
    assert code == 0 and "retired extra-prostate-2026" in out and generation(store) == 2
    assert "extra-prostate-2026" not in store.docs and store.lexical_top(["biparametric"], 5) == []
    from clinrag.tools.index.store import get_index

    original = get_index()
    rows = list(range(47))
    for query in (["prostate", "screening", "men"], ["mammography", "women", "40"]):
        assert np.array_equal(store.lexical_scores(query, rows), original.lexical_scores(query, rows)), query


def test_readers_see_the_old_or_the_new_corpus_never_a_mix(store, tmp_path, capsys):
    from clinrag.context import Context
    from clinrag.run import ask
    from clinrag.tools.index.corpus_store import question_snapshot

    n0 = store.passage_count()
    seen: list[str] = []
    problems: list[str] = []
    done = threading.Event()

    def observe() -> None:  # several reads of one snapshot, spread over time
        with question_snapshot():
            old = store.document(OLD)
            time.sleep(0.003)
            new = store.document(NEW)
            time.sleep(0.003)
            n, top = store.passage_count(), store.lexical_top(["biparametric"], 3)
        if old.status == "current" and new is None and n == n0 and not top:
            seen.append("old")
        elif (old.status, old.superseded_by) == ("superseded", NEW) and new and new.status == "current" and \
                n == n0 + 1 and top:
            seen.append("new")
        else:
            problems.append(f"mixed state: old={old.status}/{old.superseded_by} new={new and new.status} n={n} "
                            f"top={top}")

    def reader() -> None:
        while not done.is_set():
            observe()
        for _ in range(3):
            observe()

    def asker() -> None:
        while not done.is_set():
            evidence = {e["doc_id"]: e["status"] for e in ask(QUESTION, Context()).model_dump()["evidence"]}
            if NEW in evidence and evidence.get(OLD) == "current" or evidence.get(NEW, "current") != "current":
                problems.append(f"mixed answer: {evidence}")

    threads = [threading.Thread(target=reader), threading.Thread(target=asker)]
    for t in threads:
        t.start()
    try:
        code, out, err = run_cli(["corpus", "replace", OLD, write_jsonl(tmp_path / "new.jsonl", NEW_DOC)], capsys)
    finally:
        done.set()
        for t in threads:
            t.join(timeout=120)
    assert code == 0 and f"{NEW} replaces {OLD}, now superseded" in out, err
    assert not problems, problems[:3]
    assert "old" in seen and seen[-1] == "new" and seen == sorted(seen, key=["old", "new"].index)

    code, out, err = run_cli(["ask", "--json", QUESTION], capsys)
    assert code == 0, err
    result = json.loads(out)
    status = {e["doc_id"]: e["status"] for e in result["evidence"]}
    assert status.get(NEW) == "current" and f"[{NEW}]" in result["answer"], result["answer"]
    assert status.get(OLD, "superseded") == "superseded"


def test_the_served_corpus_and_streamed_runs_follow_the_database(store, tmp_path, capsys, monkeypatch):
    """GET /api/corpus lists what the database holds after ``corpus add`` / ``retire`` (the file is unchanged), and a
    streamed run reads the corpus in one snapshot (every node sees the question's scope)."""
    from clinrag.context import Context
    from clinrag.server.service import ClinragService, Question
    from clinrag.tools.index import corpus_store

    monkeypatch.setenv("CLINRAG_CORPUS_STORE", "postgres")
    service = ClinragService(Context())
    before = {d["doc_id"] for d in service.corpus()}
    added = {**NEW_DOC, "doc_id": "extra-prostate-2026", "org": "EXTRA", "org_name": None}
    assert run_cli(["corpus", "add", write_jsonl(tmp_path / "add.jsonl", added)], capsys)[0] == 0
    assert {d["doc_id"] for d in service.corpus()} == before | {"extra-prostate-2026"}
    assert run_cli(["corpus", "retire", "extra-prostate-2026"], capsys)[0] == 0
    assert {d["doc_id"] for d in service.corpus()} == before and len(before) == 33

    scopes = []

    class Graph:  # records the snapshot scope each streamed step runs in
        def stream(self, inputs, context=None, stream_mode=None):
            for _ in range(2):
                scopes.append(corpus_store._scope.get())
                yield "custom", {"type": "clinrag.scope", "in_scope": True}
            yield "values", {"question": inputs["question"], "decision": "answer", "evidence": []}

    events = list(ClinragService(Context(), graph=Graph()).stream(Question(question="When should PSA testing stop?")))
    assert [t for t, _ in events] == ["clinrag.scope", "clinrag.scope", "result"]
    assert scopes[0] is not None and scopes[0] is scopes[1] and corpus_store._scope.get() is None
