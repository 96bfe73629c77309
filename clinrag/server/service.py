"""What the web API and the MCP tool do with a question: validate it, run the graph, shape the result.

One :class:`ClinragService` per worker process holds the run's base :class:`~clinrag.context.Context` (the same one
the CLI builds: ``--corpus``, ``--index-dir``, ``--chat-model``, else ``CLINRAG_*`` variables, else defaults), the
compiled graph, the loaded index (loaded once, cached by the index store) and the SQLite chat store of
``clinrag chat`` (opened on first use). Nothing here knows about HTTP: errors a caller can fix are
:class:`RequestError` with a code, a message and the HTTP status they map to.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import logging
import re
import secrets
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from clinrag.context import Context
from clinrag.run import InputError, validate_question

log = logging.getLogger("clinrag.server")

MAX_K = 20
"""Largest ``k`` (evidence passages) a request may ask for."""
THREAD_ID = re.compile(r"^[A-Za-z0-9._-]{1,100}$")
"""A thread id: letters, digits, '.', '_' and '-', at most 100 characters (it names a LangGraph thread)."""

CORPUS_FIELDS = ("doc_id", "org", "title", "topic", "issued", "year", "status", "supersedes", "superseded_by",
                 "source_type")


class RequestError(ValueError):
    """A request the caller can fix: ``code`` (machine-readable), ``message`` (one line) and the HTTP ``status``."""

    def __init__(self, code: str, message: str, status: int = 422):
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


@dataclasses.dataclass(frozen=True)
class Question:
    """A validated question: the text (stripped), the evidence size ``k`` (None: the Context's) and ``as_of``."""

    question: str
    k: int | None = None
    as_of: str | None = None


def parse_question(body: Any) -> Question:
    """The question of a JSON request body ``{"question": str, "k"?: int, "as_of"?: "YYYY-MM-DD"}``.

    Raises :class:`RequestError` for anything else: not an object, a missing, non-string, empty or over-long
    question (``MAX_QUESTION_CHARS``), a ``k`` that is not an integer in 1..MAX_K, a malformed date.
    Unknown fields are ignored."""
    if not isinstance(body, dict):
        raise RequestError("invalid_request", "the request body must be a JSON object with a 'question'")
    question = body.get("question")
    if question is None:
        raise RequestError("invalid_request", "'question' is required")
    if not isinstance(question, str):
        raise RequestError("invalid_request", f"'question' must be a string, not {_json_type(question)}")
    try:  # the same checks as every entry point (length, NUL, valid Unicode)
        question = validate_question(question)
    except InputError as e:
        raise RequestError(e.code, f"'question': {e.message}") from None
    k = body.get("k")
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K):
        raise RequestError("invalid_request", f"'k' must be an integer from 1 to {MAX_K}")
    return Question(question, k, parse_as_of(body.get("as_of")))


def parse_as_of(value: Any) -> str | None:
    """An ``as_of`` date as ISO ``YYYY-MM-DD`` (None when absent); RequestError when malformed."""
    if value is None or value == "":
        return None
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
        try:
            return dt.date.fromisoformat(value.strip()).isoformat()
        except ValueError:
            pass
    raise RequestError("invalid_request", "'as_of' must be a date written YYYY-MM-DD")


def _json_type(value: Any) -> str:
    names = {bool: "a boolean", int: "a number", float: "a number", list: "an array", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def check_thread_id(thread_id: str) -> str:
    if not THREAD_ID.fullmatch(thread_id):
        raise RequestError("invalid_thread_id", "a thread id is 1-100 letters, digits, '.', '_' or '-'")
    return thread_id


def new_thread_id() -> str:
    """A fresh thread name: the time, as ``clinrag chat`` names threads, plus a random suffix (no collisions)."""
    from clinrag.threads import new_thread_name

    return f"{new_thread_name()}-{secrets.token_hex(3)}"


class ClinragService:
    """The graph, index and chat store of one worker, behind the operations the API and the MCP tool offer."""

    def __init__(self, context: Context | None = None, chat_db: Path | None = None, graph=None):
        """``graph``: the compiled graph to run (default: ``clinrag.graph.graph``, built on first use)."""
        self.context = context or Context()
        self._graph = graph
        self._chat_db = chat_db
        self._lock = threading.Lock()
        self._thread_locks: dict[str, threading.Lock] = {}
        self._exit = ExitStack()
        self._chat_graph = None

    # ------------------------------------------------------------------ models, loaded once
    @property
    def graph(self):
        if self._graph is None:
            from clinrag.graph import graph

            self._graph = graph
        return self._graph

    def warm(self) -> int:
        """Open the Context's corpus store and return its document count: the embedded index is loaded (built when
        missing or stale); a PostgreSQL store only opens its connection pool and counts the documents there, so a
        worker on the shared database never loads the index folder or reads the corpus file whole."""
        from clinrag.tools.index.corpus_store import open_store

        store = open_store(self.context)
        if store.kind == "postgres":
            return len(store.docs)
        return len(self.documents())

    def documents(self, corpus_path: str | None = None) -> list:
        """The corpus's validated documents (read again only when the file changes)."""
        path = Path(corpus_path or self.context.corpus_path)
        return _documents(str(path), path.stat().st_mtime_ns if path.is_file() else 0)

    def corpus(self) -> list[dict]:
        """Every document of the corpus, without its text (``CORPUS_FIELDS``): on a PostgreSQL store the documents
        the database holds now (``clinrag corpus add|replace|retire`` change them without touching the file),
        retired ones excluded; else the corpus file's."""
        from clinrag.tools.index.corpus_store import open_store, question_snapshot

        store = open_store(self.context)
        if store.kind == "postgres":
            with question_snapshot():
                docs = store.documents_on(None)
        else:
            docs = self.documents()
        return [{f: _jsonable(getattr(d, f)) for f in CORPUS_FIELDS} for d in docs]

    def health(self) -> dict:
        return {"status": "ok", "corpus_documents": self.warm(), "index": "ready"}

    # ------------------------------------------------------------------ one question
    def prepare(self, q: Question, corpus: str | None = None) -> tuple[dict, Context, list[str]]:
        """Graph inputs, Context and notes (what was accepted but not used) for question ``q``."""
        changes: dict[str, Any] = {}
        if q.k is not None:
            changes["k"] = q.k
        if corpus:
            changes["corpus_path"] = str(Path(corpus).expanduser().resolve())
            changes["index_dir"] = None  # the index of *that* corpus (one per corpus content)
        inputs: dict[str, Any] = {"question": q.question}
        notes: list[str] = []
        if q.as_of:
            if "as_of" in {f.name for f in dataclasses.fields(Context)}:
                changes["as_of"] = q.as_of
            elif _graph_takes_as_of():
                inputs["as_of"] = q.as_of
            else:  # the question-understanding step reads "as of YYYY-MM-DD" (documents issued by then, as then)
                inputs["question"] = f"{q.question} (as of {q.as_of})"
        context = dataclasses.replace(self.context, **changes) if changes else self.context
        return inputs, context, notes

    def ask(self, q: Question, corpus: str | None = None) -> tuple[dict, list[str]]:
        """The AskResult (as JSON data) of one question, and the notes."""
        from clinrag.run import to_result

        inputs, context, notes = self.prepare(q, corpus)
        if corpus:
            self.documents(context.corpus_path)  # a malformed corpus fails here, with file, line and field
        from clinrag.tools.index.corpus_store import question_snapshot

        with question_snapshot():  # one corpus snapshot for the whole question (PostgreSQL store)
            state = self.graph.invoke(inputs, context=context)
        return to_result(state).model_dump(mode="json"), notes

    def stream(self, q: Question, cancelled: threading.Event | None = None) -> Iterator[tuple[str, dict]]:
        """(event type, data) as the graph runs: every clinrag custom event as it is emitted, then ``result``.

        Stops early (the graph is not run further) once ``cancelled`` is set, e.g. when the client went away."""
        from clinrag.run import to_result
        from clinrag.tools.index.corpus_store import question_snapshot

        inputs, context, notes = self.prepare(q)
        final: dict = {}
        with question_snapshot():  # one corpus snapshot for the whole question (PostgreSQL store)
            for mode, chunk in self.graph.stream(inputs, context=context, stream_mode=["custom", "values"]):
                if cancelled is not None and cancelled.is_set():
                    return
                if mode == "values":
                    final = chunk
                elif isinstance(chunk, dict) and str(chunk.get("type", "")).startswith("clinrag."):
                    yield chunk["type"], chunk
        result = to_result(final).model_dump(mode="json")
        if notes:
            result["notes"] = notes
        yield "result", result

    # ------------------------------------------------------------------ chat threads (the CLI's SQLite store)
    def _chat(self):
        with self._lock:
            if self._chat_graph is None:
                from clinrag.threads import chat_db_path, chat_graph

                self._chat_graph = self._exit.enter_context(chat_graph(self._chat_db or chat_db_path()))
            return self._chat_graph

    def _thread_lock(self, thread_id: str) -> threading.Lock:
        with self._lock:
            return self._thread_locks.setdefault(thread_id, threading.Lock())

    def thread_ask(self, thread_id: str, q: Question) -> dict:
        """One turn on ``thread_id``: the AskResult of the (resolved) question, with ``thread_id`` and
        ``follow_up`` (how the turn was resolved against the earlier ones, or null)."""
        from clinrag.threads import chat_turn

        check_thread_id(thread_id)
        _, context, notes = self.prepare(q)
        with self._thread_lock(thread_id):
            state = chat_turn(self._chat(), thread_id, q.question, context)
        return _thread_result(state, thread_id, notes)

    def thread_stream(self, thread_id: str, q: Question) -> Iterator[tuple[str, dict]]:
        """One turn on ``thread_id``, streamed as :meth:`stream` streams (``clinrag.follow_up`` first when the turn
        is a follow-up), then ``result``: what :meth:`thread_ask` returns.

        The turn runs to its end even when nobody reads on (the thread's checkpoint never holds half a turn), and
        turns on one thread run one after the other."""
        from langchain_core.messages import HumanMessage

        from clinrag.threads import thread_config
        from clinrag.tools.index.corpus_store import question_snapshot

        check_thread_id(thread_id)
        _, context, notes = self.prepare(q)
        final: dict = {}
        with self._thread_lock(thread_id), question_snapshot():  # one corpus snapshot for the turn
            for mode, chunk in self._chat().stream({"messages": [HumanMessage(q.question)]}, thread_config(thread_id),
                                                   context=context, stream_mode=["custom", "values"]):
                if mode == "values":
                    final = chunk
                elif isinstance(chunk, dict) and str(chunk.get("type", "")).startswith("clinrag."):
                    yield chunk["type"], chunk
        yield "result", _thread_result(final, thread_id, notes)

    def transcript(self, thread_id: str) -> dict:
        """The thread so far: ``{"thread_id", "turns", "messages": [{"role": "human"|"ai", "content"}]}``
        (no messages for a thread nobody has asked on yet)."""
        from clinrag.threads import transcript

        check_thread_id(thread_id)
        messages = transcript(self._chat(), thread_id)
        return {"thread_id": thread_id, "turns": sum(m.type == "human" for m in messages),
                "messages": [{"role": m.type, "content": _text(m.content)} for m in messages]}

    def close(self) -> None:
        with self._lock:
            self._exit.close()
            self._chat_graph = None


@functools.lru_cache(maxsize=8)
def _documents(corpus_path: str, _mtime_ns: int) -> list:
    from clinrag.documents import load_documents

    return load_documents(corpus_path)


def _thread_result(state: dict, thread_id: str, notes: list[str]) -> dict:
    """The AskResult JSON of a thread turn's final state, with ``thread_id``, ``follow_up`` and any notes."""
    from clinrag.run import to_result

    out = to_result(state).model_dump(mode="json")
    out.update(thread_id=thread_id, follow_up=state.get("follow_up"))
    if notes:
        out["notes"] = notes
    return out


def _graph_takes_as_of() -> bool:
    from clinrag.graph.state import InputState

    return "as_of" in InputState.model_fields


def _jsonable(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date) else value


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content blocks
        return "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)
    return str(content)
