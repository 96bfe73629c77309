"""``clinrag chat``: threads persisted in SQLite survive a restart, and follow-ups use the persisted history."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from clinrag.cli.chat import run_chat
from clinrag.cli.main import main
from clinrag.threads import chat_db_path, chat_graph, list_threads, transcript

PROSTATE = "What does the USPSTF recommend for prostate cancer screening?"


def _drive(db: Path, thread: str, turns: list[str]) -> str:
    """One chat session, as after a restart: a fresh SqliteSaver connection on the same database file."""
    lines = iter(turns)

    def read_line() -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    assert run_chat(thread, db_path=db, console=Console(file=out, width=200), read_line=read_line) == 0
    return out.getvalue()


def test_nothing_is_lost_across_a_restart(tmp_path, guideline_index):
    db = tmp_path / "threads.sqlite"
    first = _drive(db, "prostate", [PROSTATE])
    assert "New thread prostate" in first and "> in scope" in first and "Evidence map" in first
    with chat_graph(db) as graph:
        before = transcript(graph, "prostate")
    assert [m.type for m in before] == ["human", "ai"]

    second = _drive(db, "prostate", ["/history", "and in 2012?"])
    assert "Resuming thread prostate (1 earlier questions)" in second and PROSTATE in second
    assert "follow-up read as: " + PROSTATE in second and "[uspstf-prostate-2012]" in second
    with chat_graph(db) as graph:
        after = transcript(graph, "prostate")
        values = graph.get_state({"configurable": {"thread_id": "prostate"}}).values
        threads = list_threads(graph)
    assert [m.type for m in after] == ["human", "ai", "human", "ai"]
    assert [(m.type, m.content) for m in after[:2]] == [(m.type, m.content) for m in before]  # earlier turn intact
    assert values["follow_up"]["previous"] == PROSTATE and values["decision"] == "answer"
    assert threads == {"prostate": 2}


def test_threads_are_kept_apart_and_listed(tmp_path, capsys, guideline_index):
    db = tmp_path / "threads.sqlite"
    _drive(db, "a", [PROSTATE])
    out = _drive(db, "b", ["and in 2012?"])  # nothing earlier on thread b: not a follow-up of thread a
    assert "New thread b" in out and "follow-up" not in out
    with chat_graph(db) as graph:
        assert list_threads(graph) == {"a": 1, "b": 1}
    assert main(["chat", "--list", "--db", str(db)]) == 0
    assert capsys.readouterr().out.splitlines() == ["a\t1 questions", "b\t1 questions"]


def test_database_location(monkeypatch, tmp_path):
    monkeypatch.delenv("CLINRAG_CHAT_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert chat_db_path() == tmp_path / "data" / "clinrag" / "threads.sqlite"
    monkeypatch.setenv("CLINRAG_CHAT_DB", str(tmp_path / "elsewhere.sqlite"))
    assert chat_db_path() == tmp_path / "elsewhere.sqlite"


@pytest.mark.integration
def test_console_script_resumes_a_thread_in_a_new_process(tmp_path, monkeypatch, capsys, guideline_index):
    """First session in this process (models already loaded), then the console script in a new process: the
    thread comes back from the default database under XDG_DATA_HOME, answer included."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("CLINRAG_CHAT_DB", raising=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO(PROSTATE + "\n"))
    assert main(["chat", "--thread", "t1"]) == 0
    capsys.readouterr()
    with chat_graph(tmp_path / "data" / "clinrag" / "threads.sqlite") as graph:
        (question, answer) = transcript(graph, "t1")
    assert question.content == PROSTATE and "[uspstf-prostate-2018]" in answer.content

    exe = Path(sys.executable).parent / "clinrag"
    proc = subprocess.run([str(exe), "chat", "--thread", "t1"], input="/history\n", capture_output=True, text=True,
                          timeout=300, env={**os.environ, "COLUMNS": "1000"})  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Resuming thread t1 (1 earlier questions)" in proc.stdout
    # The whole stored turn, shown on resume and again by /history.
    assert proc.stdout.count(f"you> {PROSTATE}") == 2
    assert proc.stdout.count(answer.content.splitlines()[1]) == 2
