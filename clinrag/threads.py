"""Chat threads: the store behind ``clinrag chat`` and the server's ``/api/threads``, in SQLite or PostgreSQL.

Each thread is a LangGraph thread (``thread_id`` = its name) checkpointed by a LangGraph saver. By default the saver is
``SqliteSaver`` on one database file under the user's data directory: ``CLINRAG_CHAT_DB``, else
``$XDG_DATA_HOME/clinrag/threads.sqlite`` (default ``~/.local/share/clinrag/threads.sqlite``). When
``CLINRAG_DATABASE_URL`` is set (a libpq URL, ``postgresql://user:password@host:5432/db``), threads live in that
PostgreSQL database through ``PostgresSaver`` instead (``clinrag[postgres]``), so that several workers or machines share
them; an explicit database file (``clinrag chat --db PATH``, ``clinrag serve --db PATH``) still means SQLite.
A turn is sent as a chat message, so the graph sees the whole transcript and resolves follow-ups ("and what about
ACS?") against the earlier questions; ``--thread NAME`` resumes a thread after a restart, in any process.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from langchain_core.messages import AnyMessage, HumanMessage

from clinrag.context import Context
from clinrag.paths import database_url
from clinrag.run import stream_run

COMMANDS = "/history shows the thread so far, /exit (or end of input) leaves; the thread is saved after every turn."


def chat_db_path() -> Path:
    env = os.environ.get("CLINRAG_CHAT_DB")
    if env:
        return Path(env).expanduser()
    data = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return data / "clinrag" / "threads.sqlite"


def new_thread_name() -> str:
    return dt.datetime.now().strftime("chat-%Y%m%d-%H%M%S")


def _redacted(url: str) -> str:
    """The URL's host, port and database, never its password (for error messages)."""
    try:
        from psycopg.conninfo import conninfo_to_dict

        info = conninfo_to_dict(url)
    except Exception:  # a malformed URL: say nothing of its content
        return "CLINRAG_DATABASE_URL"
    where = f"{info.get('host') or 'localhost'}:{info.get('port') or 5432}/{info.get('dbname') or ''}"
    return f"CLINRAG_DATABASE_URL ({where})"


@contextmanager
def postgres_saver(url: str) -> Iterator:
    """A ``PostgresSaver`` on a small connection pool, its tables created or migrated (idempotent).

    Connections are in autocommit mode (``setup()`` runs migrations such as ``CREATE INDEX CONCURRENTLY`` that
    cannot run inside a transaction) with ``prepare_threshold=None`` (no server-side prepared statements, which
    break behind transaction-pooling poolers such as pgbouncer). A missing package or an unreachable database is
    a ValueError with one line (the command line prints it and exits with status 2)."""
    try:
        from langgraph.checkpoint.postgres import PostgresSaver
        from psycopg import OperationalError
        from psycopg.rows import dict_row
        from psycopg_pool import ConnectionPool, PoolTimeout
    except ImportError as e:
        raise ValueError(f"CLINRAG_DATABASE_URL is set but {e.name or 'the PostgreSQL saver'} is not installed: "
                         "install clinrag[postgres] (pip install 'clinrag[postgres]')") from None
    kwargs = {"autocommit": True, "prepare_threshold": None, "row_factory": dict_row}
    pool = ConnectionPool(url, kwargs=kwargs, min_size=1, max_size=4, open=False,
                          check=ConnectionPool.check_connection, name="clinrag-threads")
    try:
        pool.open(wait=True, timeout=15)
        saver = PostgresSaver(pool)
        saver.setup()
    except (OperationalError, PoolTimeout) as e:
        pool.close()
        raise ValueError(f"cannot use the chat-thread database {_redacted(url)}: "
                         f"{str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__}") from None
    try:
        yield saver
    finally:
        pool.close()


def thread_store(db_path: Path | None = None) -> str:
    """Where the threads are, in words: the SQLite file, or the PostgreSQL database (password left out)."""
    if database_url() and (db_path is None or Path(db_path) == chat_db_path()):
        return _redacted(database_url()).replace("CLINRAG_DATABASE_URL ", "PostgreSQL ")
    return str(db_path or chat_db_path())


@contextmanager
def chat_graph(db_path: Path | None = None) -> Iterator:
    """The clinrag graph with its threads checkpointed: in PostgreSQL when ``CLINRAG_DATABASE_URL`` is set and no
    other database file than the default was asked for, else in the SQLite file (created on first use)."""
    from clinrag.graph import build_graph

    url = database_url()
    if url and (db_path is None or Path(db_path) == chat_db_path()):
        with postgres_saver(url) as saver:
            yield build_graph(checkpointer=saver)
        return
    from langgraph.checkpoint.sqlite import SqliteSaver

    db_path = Path(db_path or chat_db_path())
    db_path.parent.mkdir(parents=True, exist_ok=True)
    with SqliteSaver.from_conn_string(str(db_path)) as saver:
        yield build_graph(checkpointer=saver)


def thread_config(thread: str) -> dict:
    return {"configurable": {"thread_id": thread}}


def transcript(graph, thread: str) -> list[AnyMessage]:
    return list(graph.get_state(thread_config(thread)).values.get("messages", []))


def list_threads(graph) -> dict[str, int]:
    """Thread name -> number of questions asked, for every thread in the database."""
    names = {c.config["configurable"]["thread_id"] for c in graph.checkpointer.list(None)}
    return {name: sum(m.type == "human" for m in transcript(graph, name)) for name in sorted(names)}


def chat_turn(graph, thread: str, text: str, context: Context | None = None, on_event=None) -> dict:
    """Send one human turn on ``thread``; returns the graph's final state for that turn."""
    return stream_run(graph, {"messages": [HumanMessage(text)]}, context, thread_config(thread), on_event)
