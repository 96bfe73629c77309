"""One corpus-store interface, two implementations, and which one a run uses.

Retrieval, the scope guard, the contradiction check and the answer read the corpus only through the methods of
:class:`CorpusStore`, never through whole-corpus arrays, so the same code answers from

* the **embedded** store (:class:`clinrag.tools.index.embedded.CorpusIndex`, the default): an index folder loaded
  whole into memory, exactly as before the interface existed (same arithmetic, byte-identical answers); or
* the **PostgreSQL** store (:class:`clinrag.tools.index.pg_store.PostgresCorpus`): documents, passages, sentences,
  BM25 statistics, frames and pair scores in tables (pgvector for the vectors), looked up per question, so a
  worker keeps no per-passage array in memory (docs/scale.md, "Corpus in PostgreSQL").

Which one: the Context's ``corpus_store`` (``CLINRAG_CORPUS_STORE``): ``embedded``, ``postgres`` (the database
of ``CLINRAG_DATABASE_URL``, the variable the chat threads use), or ``auto`` (the default): PostgreSQL when
``CLINRAG_DATABASE_URL`` is set and that database holds this corpus (loaded by ``clinrag index build`` with the
postgres store), else embedded. The URL is read from the environment only, never from the Context, so a password
never reaches Studio's configuration, traces or LangSmith metadata.

Rows are integers that identify passages within one store; the embedded store numbers them 0..n-1 in corpus
order, the PostgreSQL store keeps the numbers it loaded and gives new passages higher ones.

:func:`question_snapshot` wraps one question: on PostgreSQL every read of that question then happens in one
REPEATABLE READ, READ ONLY transaction (one snapshot), so a question sees the corpus before or after a
``clinrag corpus`` command, never half of it. The embedded store ignores it.
"""

from __future__ import annotations

import contextvars
import datetime as dt
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from clinrag.paths import database_url
from clinrag.schema import Document, Passage, ScopeDeclaration


@dataclass(frozen=True)
class PassageFilter:
    """Which documents' passages a filtered dense search may return: those of the organizations ``orgs``,
    published in ``year_from``..``year_to`` and issued on or before ``issued_by`` (each only when given; a document
    without the date a condition needs is excluded by it). Named organizations and as-of dates come from question
    understanding, year ranges from temporal_search."""

    orgs: tuple[str, ...] | None = None
    year_from: int | None = None
    year_to: int | None = None
    issued_by: dt.date | None = None

    def __bool__(self) -> bool:  # a filter that admits everything is no filter
        return any(v is not None for v in (self.orgs, self.year_from, self.year_to, self.issued_by))

    def admits(self, doc: Document) -> bool:
        if self.orgs is not None and doc.org not in self.orgs:
            return False
        if self.year_from is not None and (doc.year is None or doc.year < self.year_from):
            return False
        if self.year_to is not None and (doc.year is None or doc.year > self.year_to):
            return False
        when = doc.dated()
        return self.issued_by is None or (when is not None and when <= self.issued_by)


@runtime_checkable
class CorpusStore(Protocol):
    """What retrieval asks of a corpus. ``rows`` are passage rows (lists of int); vectors are unit float32."""

    kind: str  # "embedded" | "postgres"
    scope: ScopeDeclaration | None  # the corpus's scope declaration
    corpus_path: object  # the corpus file it was built from
    docs: Mapping[str, Document]  # lookup by doc_id (iterating it reads every document: not on the query path)

    @property
    def cache_key(self) -> str: ...  # identifies the corpus's current content, for per-process caches

    def passage_count(self) -> int: ...
    def passage(self, row: int) -> Passage: ...
    def passages_at(self, rows) -> list[Passage]: ...
    def dense_search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]: ...  # FAISS's search
    def dense_search_where(self, query_vec: np.ndarray, k: int, where: PassageFilter) -> list[int]: ...  # best first
    def passage_vectors(self, rows) -> np.ndarray: ...
    def best_sentence_cosine(self, query_vec: np.ndarray, rows=None) -> np.ndarray: ...
    def sentence_vectors_of(self, rows) -> list[np.ndarray]: ...
    def lexical_top(self, terms: list[str], k: int) -> list[int]: ...  # BM25 top-k with a positive score
    def lexical_scores(self, terms: list[str], rows) -> np.ndarray: ...  # BM25 (float32) of ``rows``
    def term_coverage(self, question_terms: list[str], rows) -> np.ndarray: ...
    def document(self, doc_id: str) -> Document | None: ...
    def documents_on(self, topics: set | None) -> list[Document]: ...
    def replaced_on(self, doc_ids) -> dict[str, str]: ...
    def frames_for(self, doc_id: str) -> list: ...
    def max_in_scope_cosine(self, query_vec: np.ndarray) -> float: ...
    def vocabulary_inputs(self) -> tuple[list, dict[str, int] | None]: ...
    def prime_pair_scores(self, backend, doc_ids=None) -> None: ...


def store_kind(ctx) -> str:
    """``embedded`` or ``postgres`` for a Context (see the module docstring for ``auto``)."""
    wanted = getattr(ctx, "corpus_store", "auto") or "auto"
    if wanted == "embedded":
        return "embedded"
    url = database_url()
    if wanted == "postgres":
        if not url:
            raise ValueError("corpus_store is postgres but CLINRAG_DATABASE_URL is not set")
        return "postgres"
    if not url:
        return "embedded"
    from clinrag.tools.index.pg_schema import holds_corpus

    return "postgres" if holds_corpus(url, ctx.corpus_path) else "embedded"


def open_store(ctx) -> CorpusStore:
    """The corpus store of a Context (cached per process: one index, or one connection pool, per corpus)."""
    if store_kind(ctx) == "postgres":
        from clinrag.tools.index.pg_store import get_postgres_corpus

        return get_postgres_corpus(database_url(), str(ctx.corpus_path))
    from clinrag.tools.index import store

    return store.get_index(ctx.corpus_path, ctx.index_dir)


# -- one snapshot per question --------------------------------------------------------------------------------------
class QuestionScope:
    """The reads of one question: the PostgreSQL store opens its snapshot transaction here on first use and
    memoizes documents for the question; :func:`question_snapshot` closes it."""

    def __init__(self) -> None:
        self.connections: dict[int, object] = {}  # id(store) -> (pool, connection) of that store's snapshot
        self.memo: dict[tuple, object] = {}

    def close(self) -> None:
        for pool, conn in self.connections.values():
            try:
                conn.rollback()  # read only: nothing to commit
            finally:
                pool.putconn(conn)
        self.connections.clear()
        self.memo.clear()


_scope: contextvars.ContextVar[QuestionScope | None] = contextvars.ContextVar("clinrag_question_scope", default=None)


def current_scope() -> QuestionScope | None:
    return _scope.get()


@contextmanager
def question_snapshot() -> Iterator[QuestionScope]:
    """Run one question's reads in one snapshot (nested calls share the outer one). Graph nodes run in copies of
    the caller's context, so they see the scope set here."""
    outer = _scope.get()
    if outer is not None:
        yield outer
        return
    scope = QuestionScope()
    token = _scope.set(scope)
    try:
        yield scope
    finally:
        _scope.reset(token)
        scope.close()
