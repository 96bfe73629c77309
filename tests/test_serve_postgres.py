"""``clinrag serve`` workers on a shared PostgreSQL: the corpus store and the chat threads both in the database of
``CLINRAG_DATABASE_URL`` (a real PostgreSQL 16 + pgvector: ``postgres_db`` in conftest.py), the built-in corpus
loaded there, every server a real ``clinrag serve`` subprocess (benchmarks/serve_load.py's ``served``) with the
test session's models.

A thread survives a worker restart (the first server is stopped before the second starts: only the database
carries the thread), and a thread started on one worker continues on another running at the same time (two server
processes on one database, which is what ``--workers 2`` or two machines amount to, without leaving the choice of
worker to the operating system).
"""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

from clinrag.paths import BUILTIN_CORPUS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from serve_load import served  # noqa: E402

pytestmark = pytest.mark.integration

PROSTATE = "What does the USPSTF recommend for prostate cancer screening?"
FOLLOW_UP = "and what about ACS?"


@pytest.fixture
def corpus_db(postgres_db, guideline_index) -> dict[str, str]:
    """The built-in corpus loaded into a fresh database; the environment of a worker using it for both."""
    from clinrag.tools.index.pg_load import load_corpus

    assert load_corpus(postgres_db, BUILTIN_CORPUS)["documents"] == 33
    return {"CLINRAG_DATABASE_URL": postgres_db, "CLINRAG_CORPUS_STORE": "postgres"}


def _ask(url: str, thread: str, question: str) -> dict:
    r = httpx.post(f"{url}/api/threads/{thread}/ask", json={"question": question}, timeout=300)
    assert r.status_code == 200, r.text
    return r.json()


def _transcript(url: str, thread: str) -> dict:
    r = httpx.get(f"{url}/api/threads/{thread}", timeout=60)
    assert r.status_code == 200, r.text
    return r.json()


def _check_first_turn(first: dict, thread: str) -> None:
    assert first["decision"] == "answer" and first["thread_id"] == thread and first["follow_up"] is None
    assert "uspstf-prostate-2018" in [e["doc_id"] for e in first["evidence"]]


def _check_follow_up(turn: dict) -> None:
    assert turn["follow_up"]["asked"] == FOLLOW_UP and turn["follow_up"]["previous"] == PROSTATE
    assert turn["question"] == turn["follow_up"]["resolved"] and "ACS" in turn["question"]
    assert any(e["org"] == "ACS" for e in turn["evidence"])


def _check_sqlite_unused(*folders: Path) -> None:
    assert not [f for f in folders if (f / "threads.sqlite").exists()]  # the threads went to PostgreSQL


def test_a_thread_survives_a_worker_restart(corpus_db, tmp_path):
    with served(tmp_path / "before", corpus_db) as (url, _pid):
        health = httpx.get(f"{url}/healthz", timeout=60).json()
        assert health == {"status": "ok", "corpus_documents": 33, "index": "ready"}
        thread = httpx.post(f"{url}/api/threads", timeout=60).json()["thread_id"]
        _check_first_turn(_ask(url, thread, PROSTATE), thread)
    # the first worker is gone; a new process knows the thread only from the database
    with served(tmp_path / "after", corpus_db) as (url, _pid):
        before = _transcript(url, thread)
        assert before["turns"] == 1
        assert [m["role"] for m in before["messages"]] == ["human", "ai"]
        assert before["messages"][0]["content"] == PROSTATE
        _check_follow_up(_ask(url, thread, FOLLOW_UP))
        after = _transcript(url, thread)
        assert after["turns"] == 2 and [m["content"] for m in after["messages"][::2]] == [PROSTATE, FOLLOW_UP]
    _check_sqlite_unused(tmp_path / "before", tmp_path / "after")


def test_a_thread_started_on_one_worker_continues_on_another(corpus_db, tmp_path):
    with served(tmp_path / "a", corpus_db) as (url_a, pid_a), served(tmp_path / "b", corpus_db) as (url_b, pid_b):
        assert pid_a != pid_b and url_a != url_b
        thread = httpx.post(f"{url_a}/api/threads", timeout=60).json()["thread_id"]
        _check_first_turn(_ask(url_a, thread, PROSTATE), thread)
        assert _transcript(url_b, thread)["turns"] == 1  # worker b sees worker a's turn
        _check_follow_up(_ask(url_b, thread, FOLLOW_UP))  # resolved on b against the question asked on a
        on_a = _transcript(url_a, thread)  # and worker a sees b's turn
        assert on_a["turns"] == 2 and [m["content"] for m in on_a["messages"][::2]] == [PROSTATE, FOLLOW_UP]
        assert on_a == _transcript(url_b, thread)
    _check_sqlite_unused(tmp_path / "a", tmp_path / "b")


def test_a_postgres_worker_does_not_load_the_index_folder(corpus_db, tmp_path, monkeypatch):
    from clinrag.context import Context
    from clinrag.server.service import ClinragService

    monkeypatch.setenv("CLINRAG_DATABASE_URL", corpus_db["CLINRAG_DATABASE_URL"])
    nowhere = tmp_path / "no-index-here"
    service = ClinragService(Context(corpus_store="postgres", index_dir=str(nowhere)))
    assert service.warm() == 33  # the documents the database holds
    assert not nowhere.exists()  # the embedded store would have built its index there
    service.close()
