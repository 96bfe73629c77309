"""The PostgreSQL corpus store: the :class:`~clinrag.tools.index.corpus_store.CorpusStore` methods as SQL.

A worker keeps no per-passage array: every method reads the rows it needs (candidates' vectors, sentences, BM25
postings, documents, frames) when asked, in the question's snapshot when one is open
(:func:`~clinrag.tools.index.corpus_store.question_snapshot`: one REPEATABLE READ, READ ONLY transaction), else in a
transaction of its own. Scores are computed in numpy from the stored float32 values with the embedded store's
arithmetic, so both stores give the same rankings and support scores (to float32 rounding); pgvector's own
distances only choose candidates. Below ``HNSW_MIN_PASSAGES`` the dense search is exact (a sequential scan, as the
embedded store searches small corpora exactly); above it, the HNSW index. BM25 weights are computed from the
stored term statistics with bm25s's formula and float32 rounding (:mod:`tools.index.pg_bm25`).
"""

from __future__ import annotations

import math
from contextlib import contextmanager

import numpy as np

from clinrag.schema import Passage, ScopeDeclaration
from clinrag.tools.index import pg_bm25
from clinrag.tools.index.corpus_store import PassageFilter, current_scope
from clinrag.tools.index.pg_documents import DocumentReads, _Documents, binary_cursor
from clinrag.tools.index.pg_schema import SCHEMA as S
from clinrag.tools.index.pg_schema import (
    CorpusDatabaseError,
    Vector,
    corpus_name,
    first_line,
    loaded_corpus,
    register_vector,
    where,
)
from clinrag.tools.index.store import HNSW_EF_SEARCH, HNSW_MIN_PASSAGES

RESCORE_MARGIN = 16  # extra candidates fetched beyond k, re-ranked in numpy: pgvector's float sums may differ from
# numpy's in the last bit, so a near-tie at the k-th place is decided by the same arithmetic as the embedded store
MAX_EF_SEARCH = 1000  # pgvector's largest hnsw.ef_search
# Filtered dense search (named organizations, as-of dates). pgvector 0.6 applies a WHERE to the at most ef_search
# rows its HNSW scan found, so a selective filter loses most of its true neighbours (benchmarks/scale.py, 400k rows:
# recall@10 0.04 for a 1 % filter at ef 40). Policy, from those measurements (docs/scale.md, "Filtered queries"):
# up to EXACT_FILTER_MAX allowed passages, an exact scan of them (btree on the filter columns, then distances;
# recall 1.0 at 7 ms for 4k rows, 22-26 ms for 5k-18k); above it, HNSW + WHERE with ef_search raised to
# FILTER_EF_PER_SHARE / share of allowed rows (capped at MAX_EF_SEARCH): a 25 % year range at ef 200 gave 0.99.
EXACT_FILTER_MAX = 20_000
FILTER_EF_PER_SHARE = 40


def _rescored(found: list, q: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The best ``k`` of pgvector's candidates ``found`` ((row, vector) pairs) by numpy's inner product with ``q``,
    ties in row order: (scores, rows), best first."""
    if not found:
        return np.zeros(0, dtype=np.float32), np.zeros(0, dtype=np.int64)
    found = sorted(found, key=lambda r: r[0])
    cand = np.array([r for r, _ in found], dtype=np.int64)
    sims = np.stack([v for _, v in found]) @ q
    best = np.argsort(-sims, kind="stable")[:k]
    return sims[best], cand[best]


class PostgresCorpus(DocumentReads):
    """The corpus held in ``clinrag_corpus`` of the database at ``url`` (see :mod:`tools.index.pg_schema`)."""

    kind = "postgres"

    def __init__(self, url: str, corpus_path: str):
        from psycopg_pool import ConnectionPool, PoolTimeout

        self.url, self.corpus_path = url, corpus_path
        self.pool = ConnectionPool(url, min_size=1, max_size=8, open=False, name="clinrag-corpus",
                                   kwargs={"prepare_threshold": None, "autocommit": False}, configure=self._configure)
        try:
            self.pool.open(wait=True, timeout=15)
        except PoolTimeout as e:
            self.pool.close()
            raise CorpusDatabaseError(f"cannot reach the corpus database {where(url)}: {first_line(e)}") from None
        with self.read() as conn:
            loaded = loaded_corpus(conn)
            if not loaded:
                raise CorpusDatabaseError(f"the database {where(url)} holds no corpus: load one with "
                                          "`clinrag index build` and CLINRAG_CORPUS_STORE=postgres")
            if loaded.get("name") != corpus_name(corpus_path):
                raise CorpusDatabaseError(f"the database {where(url)} holds the corpus {loaded.get('name')!r} "
                                          f"(from {loaded.get('path')}), not {corpus_name(corpus_path)!r}: load it "
                                          "with `clinrag index build --corpus PATH` and CLINRAG_CORPUS_STORE=postgres")
            scope = binary_cursor(conn).execute(f"SELECT value FROM {S}.meta WHERE key = 'scope'").fetchone()
            texts = binary_cursor(conn).execute(f"SELECT text, embedding FROM {S}.corpus_texts").fetchall()
        self.scope = ScopeDeclaration.model_validate(scope[0]) if scope and scope[0] else None
        self.docs = _Documents(self)
        if texts:  # the scope declaration's texts: embedded at build, never on a question
            from clinrag.tools.index.embeddings import prime_cache

            prime_cache([t for t, _ in texts], np.stack([v for _, v in texts]))

    @staticmethod
    def _configure(conn) -> None:
        from psycopg import IsolationLevel

        register_vector(conn)
        conn.isolation_level = IsolationLevel.REPEATABLE_READ
        conn.read_only = True
        conn.commit()

    @contextmanager
    def read(self):
        """A connection inside a read-only REPEATABLE READ transaction: the question's snapshot when one is open,
        else one transaction for this call."""
        scope = current_scope()
        if scope is None:
            with self.pool.connection() as conn:
                try:
                    yield conn
                finally:
                    conn.rollback()
            return
        held = scope.connections.get(id(self))
        if held is None:
            held = scope.connections[id(self)] = (self.pool, self.pool.getconn())
        yield held[1]

    def _memo(self, key: tuple, compute):
        scope = current_scope()
        if scope is None:
            return compute()
        key = (id(self), *key)
        if key not in scope.memo:
            scope.memo[key] = compute()
        return scope.memo[key]

    def _meta(self, key: str):
        def fetch():
            with self.read() as conn:
                row = binary_cursor(conn).execute(f"SELECT value FROM {S}.meta WHERE key = %s", (key,)).fetchone()
            return row[0] if row else None
        return self._memo(("meta", key), fetch)

    @property
    def cache_key(self) -> str:
        return f"postgres:{where(self.url)}:{self._meta('generation')}"

    # -- passages and vectors ------------------------------------------------------------------------------------
    def passage_count(self) -> int:
        return int(self._meta("bm25")["n"])

    def passages_at(self, rows) -> list[Passage]:
        """The passages of ``rows``; within a question each is read once (with its term set, for term coverage):
        support scores then ask for single rows at no cost."""
        rows = [int(r) for r in rows]
        scope = current_scope()
        memo = scope.memo if scope else {}
        missing = [r for r in dict.fromkeys(rows) if (id(self), "passage", r) not in memo]
        if missing:
            with self.read() as conn:
                found = binary_cursor(conn).execute(
                    f"SELECT row, passage_id, doc_id, chunk, text, tsvector_to_array(lexemes) FROM {S}.passages "
                    "WHERE row = ANY(%s)", (missing,)).fetchall()
            docs = self.documents_by_id({f[2] for f in found})
            for r, passage_id, doc_id, chunk, text, lexemes in found:
                memo[(id(self), "passage", r)] = Passage(passage_id=passage_id, doc_id=doc_id, chunk=chunk, text=text,
                                                         meta=docs[doc_id])
                memo[(id(self), "lexemes", r)] = frozenset(lexemes)
        return [memo[(id(self), "passage", r)] for r in rows]

    def passage(self, row: int) -> Passage:
        return self.passages_at([row])[0]

    def passage_vectors(self, rows) -> np.ndarray:
        rows = [int(r) for r in rows]
        with self.read() as conn:
            found = dict(binary_cursor(conn).execute(
                f"SELECT row, embedding FROM {S}.passages WHERE row = ANY(%s)", (rows,)))
        return np.stack([found[r] for r in rows]) if rows else np.zeros((0, 384), dtype=np.float32)

    def dense_search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Per query the ``k`` rows of highest inner product, best first, ties in row order (rows -1 past the
        corpus), as FAISS's ``search``; candidates from pgvector, scores from numpy."""
        queries = np.atleast_2d(np.asarray(queries, dtype=np.float32))
        exact = self.passage_count() < HNSW_MIN_PASSAGES
        scores = np.full((len(queries), k), -np.inf, dtype=np.float32)
        rows = np.full((len(queries), k), -1, dtype=np.int64)
        with self.read() as conn:
            if not exact:
                ef_search = int(min(MAX_EF_SEARCH, max(HNSW_EF_SEARCH, k)))
                binary_cursor(conn).execute(f"SET LOCAL hnsw.ef_search = {ef_search}")
            order = "(embedding <#> %s) + 0" if exact else "embedding <#> %s"  # "+ 0": no index, an exact scan
            for i, q in enumerate(queries):
                found = binary_cursor(conn).execute(
                    f"SELECT row, embedding FROM {S}.passages ORDER BY {order} LIMIT %s",
                    (Vector(q), k + RESCORE_MARGIN)).fetchall()
                best_sims, best_rows = _rescored(found, q, k)
                scores[i, :len(best_rows)], rows[i, :len(best_rows)] = best_sims, best_rows
        return scores, rows

    def dense_search_where(self, query_vec: np.ndarray, k: int, where: PassageFilter) -> list[int]:
        """The ``k`` rows of highest inner product among the passages ``where`` admits, best first (ties in row
        order), by the policy above (exact scan when few rows are allowed, else HNSW with a raised ef_search)."""
        conditions, params = [], []
        if where.orgs is not None:
            conditions.append("d.org = ANY(%s)")
            params.append(list(where.orgs))
        if where.year_from is not None:
            conditions.append("d.year >= %s")
            params.append(where.year_from)
        if where.year_to is not None:
            conditions.append("d.year <= %s")
            params.append(where.year_to)
        if where.issued_by is not None:
            conditions.append("COALESCE(d.issued, make_date(d.year, 1, 1)) <= %s")
            params.append(where.issued_by)
        cond = " AND ".join(conditions) or "true"
        source = f"{S}.passages p JOIN {S}.documents d ON d.doc_id = p.doc_id WHERE {cond}"
        q = np.asarray(query_vec, dtype=np.float32)
        with self.read() as conn:
            allowed = conn.execute(f"SELECT count(*) FROM {source}", params).fetchone()[0]
            if not allowed or k <= 0:
                return []
            exact = allowed <= EXACT_FILTER_MAX or self.passage_count() < HNSW_MIN_PASSAGES
            if not exact:
                share = allowed / max(self.passage_count(), 1)
                ef_search = int(min(MAX_EF_SEARCH, max(HNSW_EF_SEARCH, k, math.ceil(FILTER_EF_PER_SHARE / share))))
                binary_cursor(conn).execute(f"SET LOCAL hnsw.ef_search = {ef_search}")
            order = "(p.embedding <#> %s) + 0" if exact else "p.embedding <#> %s"
            found = binary_cursor(conn).execute(
                f"SELECT p.row, p.embedding FROM {source} ORDER BY {order} LIMIT %s",
                (*params, Vector(q), k + RESCORE_MARGIN)).fetchall()
        return _rescored(found, q, k)[1].tolist()

    def _sentences(self, rows) -> dict[int, np.ndarray]:
        with self.read() as conn:
            found = binary_cursor(conn).execute(
                f"SELECT passage_row, embedding FROM {S}.sentences WHERE passage_row = ANY(%s) "
                "ORDER BY passage_row, position", ([int(r) for r in rows],)).fetchall()
        grouped: dict[int, list] = {}
        for r, v in found:
            grouped.setdefault(r, []).append(v)
        return {r: np.stack(v) for r, v in grouped.items()}

    def best_sentence_cosine(self, query_vec: np.ndarray, rows=None) -> np.ndarray:
        if rows is None:
            raise ValueError("the PostgreSQL store scores the sentences of given rows only")
        sentences = self._sentences(rows)
        return np.array([float(np.max(sentences[int(r)] @ query_vec)) if int(r) in sentences else -1.0
                         for r in rows], dtype=np.float32)

    def sentence_vectors_of(self, rows) -> list[np.ndarray]:
        sentences = self._sentences(rows)
        missing = [int(r) for r in rows if int(r) not in sentences]
        fallback = dict(zip(missing, self.passage_vectors(missing))) if missing else {}
        return [sentences[int(r)] if int(r) in sentences else fallback[int(r)][None, :] for r in rows]

    # -- lexical side (tools/index/pg_bm25.py) -------------------------------------------------------------------
    def lexical_top(self, terms: list[str], k: int) -> list[int]:
        with self.read() as conn:
            return pg_bm25.top(conn, self._meta("bm25"), terms, k, RESCORE_MARGIN)

    def lexical_scores(self, terms: list[str], rows) -> np.ndarray:
        with self.read() as conn:
            return pg_bm25.scores(conn, self._meta("bm25"), terms, [int(r) for r in rows])

    def term_coverage(self, question_terms: list[str], rows) -> np.ndarray:
        rows = [int(r) for r in rows]
        scope = current_scope()
        if scope is not None:
            self.passages_at(rows)  # their term sets, read once per question
            held = {r: scope.memo[(id(self), "lexemes", r)] for r in rows}
            terms = frozenset(question_terms)
            idfs = self._memo(("idf", terms), lambda: self._idfs(terms))
            return pg_bm25.coverage_from(self._meta("bm25"), question_terms, rows, idfs, held)
        with self.read() as conn:
            return pg_bm25.coverage(conn, self._meta("bm25"), question_terms, rows)

    def _idfs(self, terms) -> dict[str, float]:
        with self.read() as conn:
            return pg_bm25.idfs(conn, self._meta("bm25"), terms)

    def max_in_scope_cosine(self, query_vec: np.ndarray) -> float:
        """Highest cosine of the question with a document title or a corpus sentence: nearest candidates from
        pgvector (exact scan below HNSW_MIN_PASSAGES), the cosine from numpy."""
        exact = self.passage_count() < HNSW_MIN_PASSAGES
        order = "(embedding <#> %s) + 0" if exact else "embedding <#> %s"
        with self.read() as conn:
            vecs = [v for (v,) in binary_cursor(conn).execute(
                f"SELECT embedding FROM {S}.sentences ORDER BY {order} LIMIT %s", (Vector(query_vec), RESCORE_MARGIN))]
            vecs += [v for (v,) in binary_cursor(conn).execute(
                f"SELECT title_embedding FROM {S}.documents WHERE NOT retired AND title_embedding IS NOT NULL "
                f"ORDER BY (title_embedding <#> %s) + 0 LIMIT %s", (Vector(query_vec), RESCORE_MARGIN))]
        return float(np.max(np.stack(vecs) @ query_vec)) if vecs else -1.0
    def close(self) -> None:
        self.pool.close()


_stores: dict[tuple[str, str], PostgresCorpus] = {}


def get_postgres_corpus(url: str, corpus_path: str) -> PostgresCorpus:
    """Once-per-process store (one connection pool) per database and corpus."""
    key = (url, corpus_path)
    if key not in _stores:
        _stores[key] = PostgresCorpus(url, corpus_path)
    return _stores[key]


def close_stores(url: str | None = None) -> None:
    """Close the pools of the stores of ``url`` (of every database without one) and forget them."""
    for key in [k for k in _stores if url is None or k[0] == url]:
        _stores.pop(key).close()
