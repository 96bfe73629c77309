"""Chat threads in a real PostgreSQL (``CLINRAG_DATABASE_URL``): a thread started in one process continues in
another, the follow-up resolved against the earlier question, and ``clinrag chat --list`` lists it.

The database is ``CLINRAG_TEST_DATABASE_URL`` when set, else a throwaway PostgreSQL 16 started by ``pgserver`` (a
PyPI wheel, installed by ``make test``) in a temporary folder. As root (CI), pgserver runs the server as a system
user ``pgserver`` that it creates. Nothing is skipped: a server that cannot start fails the tests with the reason.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

PROSTATE = "What does the USPSTF recommend for prostate cancer screening?"
EXE = Path(sys.executable).parent / "clinrag"


def _chat(args: list[str], env: dict, stdin: str = "") -> subprocess.CompletedProcess:
    result = subprocess.run([str(EXE), "chat", *args], input=stdin, capture_output=True, text=True, timeout=300,
                            env={**env, "COLUMNS": "1000"})
    assert result.returncode == 0, result.stderr
    return result


def test_a_thread_continues_in_another_process(postgres_url, tmp_path, monkeypatch, guideline_index):
    thread = f"pg-{uuid.uuid4().hex[:8]}"  # a shared server may hold other runs' threads
    sqlite = tmp_path / "threads.sqlite"
    env = {**os.environ, "CLINRAG_DATABASE_URL": postgres_url, "CLINRAG_CHAT_DB": str(sqlite)}

    first = _chat(["--thread", thread], env, PROSTATE + "\n")
    assert f"New thread {thread}" in first.stdout and "[uspstf-prostate-2018]" in first.stdout

    second = _chat(["--thread", thread], env, "and in 2012?\n")  # a new process: only the database carries the thread
    assert f"Resuming thread {thread} (1 earlier questions)" in second.stdout
    assert "follow-up read as: " + PROSTATE in second.stdout and "[uspstf-prostate-2012]" in second.stdout

    listed = _chat(["--list"], env)
    assert f"{thread}\t2 questions" in listed.stdout.splitlines()
    assert not sqlite.exists()  # nothing went to the SQLite default

    from clinrag.threads import chat_graph, transcript

    monkeypatch.setenv("CLINRAG_DATABASE_URL", postgres_url)
    with chat_graph() as graph:  # and in this process, through the same API the server uses
        assert type(graph.checkpointer).__name__ == "PostgresSaver"
        assert [m.type for m in transcript(graph, thread)] == ["human", "ai", "human", "ai"]


def test_an_explicit_database_file_still_means_sqlite(postgres_url, tmp_path, monkeypatch):
    from clinrag.threads import chat_graph, thread_store

    monkeypatch.setenv("CLINRAG_DATABASE_URL", postgres_url)
    db = tmp_path / "mine.sqlite"
    with chat_graph(db) as graph:
        assert type(graph.checkpointer).__name__ == "SqliteSaver"
    assert db.exists() and thread_store(db) == str(db)
    assert thread_store().startswith("PostgreSQL ") and "password" not in thread_store()


def test_an_unreachable_database_is_one_line(tmp_path):
    env = {**os.environ, "CLINRAG_DATABASE_URL": "postgresql://clinrag:secret@127.0.0.1:1/nothing?connect_timeout=2"}
    result = subprocess.run([str(EXE), "chat", "--list"], capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("clinrag:")]
    assert len(errors) == 1 and "127.0.0.1:1/nothing" in errors[0] and "secret" not in result.stderr, result.stderr
