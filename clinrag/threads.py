"""Chat threads persisted in SQLite: the store behind ``clinrag chat`` (and any other chat front end).

Each thread is a LangGraph thread (``thread_id`` = its name) checkpointed by ``SqliteSaver`` in one database under
the user's data directory: ``CLINRAG_CHAT_DB``, else ``$XDG_DATA_HOME/clinrag/threads.sqlite`` (default
``~/.local/share/clinrag/threads.sqlite``). A turn is sent as a chat message, so the graph sees the whole
transcript and resolves follow-ups ("and what about ACS?") against the earlier questions; ``--thread NAME``
resumes a thread after a restart.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from langchain_core.messages import AnyMessage, HumanMessage

from clinrag.context import Context
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


@contextmanager
def chat_graph(db_path: Path | None = None) -> Iterator:
    """The clinrag graph checkpointed in the SQLite database (created on first use)."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    from clinrag.graph import build_graph

    db_path = db_path or chat_db_path()
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
